package driver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/rules/lint"
)

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const strided = `__global__ void k(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * 4];
}
`

func rulesOf(fs []*lint.Finding) string {
	var ids []string
	for _, f := range fs {
		ids = append(ids, f.Rule.ID)
	}
	return strings.Join(ids, ",")
}

func TestSuppression(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"none", strided, "strided-access"},
		{"same line", strings.Replace(strided, "in[i * 4];", "in[i * 4]; // cudalint:ignore strided-access by design", 1), ""},
		{"line above", strings.Replace(strided, "    out[i]", "    // cudalint:ignore strided-access,aos-field by design\n    out[i]", 1), ""},
		{"file", "// cudalint:file-ignore strided-access generated code\n" + strided, ""},
		{"other rule: unused", strings.Replace(strided, "in[i * 4];", "in[i * 4]; // cudalint:ignore aos-field wrong rule", 1), "strided-access,unused-ignore"},
		{"unknown rule", "// cudalint:ignore no-such-rule\n" + strided, "unused-ignore,strided-access"},
		{"two lines above does not count", strings.Replace(strided, "    int i", "    // cudalint:ignore strided-access\n    int i", 1), "unused-ignore,strided-access"},
		{"a bare ignore names no rule and says so", strings.Replace(strided, "in[i * 4];", "in[i * 4]; // cudalint:ignore", 1), "strided-access,unused-ignore"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, map[string]string{"k.cu": tt.src})
			rep := Run(Options{Paths: []string{dir}})
			for _, f := range rep.Findings {
				if f.Rule.Kind == lint.AboutSuppression && strings.Contains(tt.name, "bare") && !strings.Contains(f.Message, "names no rule") {
					t.Errorf("bare ignore: %s", f.Message)
				}
			}
			if got := rulesOf(rep.Findings); got != tt.want {
				t.Errorf("findings %s, want %s", got, tt.want)
				for _, f := range rep.Findings {
					t.Log(f.Message)
				}
			}
		})
	}
}

func TestConfig(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"a/k.cu":               strided,
		"b/k.cu":               strided,
		"b/.cudalint.yaml":     "disable: [strided-access]\n",
		"c/d/k.cu":             strided,
		"c/.cudalint.yaml":     "min-severity: error\n",
		"e/k.cu":               strided,
		"e/vendor/x.cu":        strided,
		"e/.cudalint.yaml":     "exclude: [\"vendor/**\"]\nblocks: {k: 32}\nparams: {n: 64}\n",
		"f/bad/k.cu":           strided,
		"f/bad/.cudalint.yaml": "enable: [strided-access]\n",
	})
	rep := Run(Options{Paths: []string{dir}})
	got := map[string]int{}
	for _, f := range rep.Findings {
		rel, _ := filepath.Rel(dir, rep.Fset.Position(f.Pos).Filename)
		got[filepath.ToSlash(rel)]++
	}
	want := map[string]int{"a/k.cu": 1, "e/k.cu": 1, "f/bad/k.cu": 1}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %d findings, want %d (all: %v)", k, got[k], v, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("findings in %v, want only %v", got, want)
	}
	if len(rep.Errors) != 0 || len(rep.Warnings) != 1 {
		t.Errorf("errors %v, warnings %v: want only e's params {n: 64} warned of (k has no n)", rep.Errors, rep.Warnings)
	}
	for _, f := range rep.Findings {
		if strings.HasSuffix(rep.Fset.Position(f.Pos).Filename, "e/k.cu") && f.Prediction.Config.Block[0] != 32 {
			t.Errorf("e/k.cu analyzed with block %v, want the configured 32", f.Prediction.Config.Block)
		}
	}
}

func TestGlob(t *testing.T) {
	tests := []struct {
		pat, path string
		want      bool
	}{
		{"vendor/**", "vendor/a/b.cu", true},
		{"vendor/**", "src/vendor/b.cu", false},
		{"**/gen/*.cu", "a/b/gen/x.cu", true},
		{"*.cuh", "deep/x.cuh", true},
		{"src/*.cu", "src/a/x.cu", false},
	}
	for _, tt := range tests {
		if got := matchGlob(tt.pat, tt.path); got != tt.want {
			t.Errorf("matchGlob(%q, %q) = %v", tt.pat, tt.path, got)
		}
	}
}

// A .cudalint.yaml above the repository belongs to another project (a
// home folder's, /tmp's): it governs nothing inside the repository,
// whether the run starts inside it or names it from outside.
func TestConfigAboveTheRepositoryIsNotRead(t *testing.T) {
	top := t.TempDir()
	write(t, top, map[string]string{
		".cudalint.yaml": "disable: [strided-access]\n",
		"repo/.git/HEAD": "ref: refs/heads/main\n",
		"repo/src/k.cu":  strided,
		"loose/k.cu":     strided, // no repository: the folder named is the top
	})
	repo := filepath.Join(top, "repo")
	for _, tt := range []struct{ name, cwd, path string }{
		{"named from outside", "", repo},
		{"run inside", repo, "src"},
		{"folder without a repository", "", filepath.Join(top, "loose")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.cwd != "" {
				t.Chdir(tt.cwd)
			}
			rep := Run(Options{Paths: []string{tt.path}})
			if got := rulesOf(rep.Findings); got != "strided-access" || len(rep.Errors) > 0 {
				t.Errorf("findings %q, errors %v: the configuration above the repository was applied", got, rep.Errors)
			}
		})
	}
}

// Two folders with a kernel of the same name and their own blocks and
// defines: each keeps its own, as if analyzed alone.
func TestFolderConfigsStayInTheirFolders(t *testing.T) {
	dir := t.TempDir()
	const src = `__global__ void k(float* a) { a[threadIdx.x * STRIDE] = 0; }
void h(float* a) { k<<<8, 64>>>(a); }
`
	write(t, dir, map[string]string{
		"a/k.cu":           src,
		"a/.cudalint.yaml": "blocks: {k: 32}\ndefines: {STRIDE: \"2\"}\n",
		"b/k.cu":           src,
		"b/.cudalint.yaml": "blocks: {k: 128}\ndefines: {STRIDE: \"8\"}\n",
	})
	rep := Run(Options{Paths: []string{dir}})
	if len(rep.Errors) > 0 {
		t.Fatal(rep.Errors)
	}
	want := map[string][2]int64{"a": {32, 8}, "b": {128, 32}} // block, lane stride in bytes
	got := map[string][2]int64{}
	for _, p := range rep.Result.Analysis.Predictions {
		folder := filepath.Base(filepath.Dir(p.Access.Kernel.P.File))
		got[folder] = [2]int64{p.Config.Block[0], *p.LaneStride}
	}
	if len(got) != 2 || got["a"] != want["a"] || got["b"] != want["b"] {
		t.Errorf("block and lane stride by folder %v, want %v", got, want)
	}
}

// A folder that enables one rule gets that rule's finding on an access
// another rule would have claimed: precedence is decided among the rules
// that run there, as --enable does.
func TestConfigEnableBeforePrecedence(t *testing.T) {
	src := `__global__ void k(float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[x * w + y] = 0;
}
void h(float* o) { k<<<dim3(8, 8), dim3(16, 16)>>>(o, 1024); }
`
	dir := t.TempDir()
	write(t, dir, map[string]string{"a/k.cu": src, "b/k.cu": src, "b/.cudalint.yaml": "enable: [strided-access]\n"})
	rep := Run(Options{Paths: []string{dir}})
	got := map[string]string{}
	for _, f := range rep.Findings {
		got[filepath.Base(filepath.Dir(rep.Fset.Position(f.Pos).Filename))] += f.Rule.ID
	}
	if got["a"] != "swapped-axes" || got["b"] != "strided-access" {
		t.Errorf("rules by folder %v, want a: swapped-axes, b: strided-access", got)
	}
}

// An ignore of a rule the run disabled is not reported unused.
func TestIgnoreOfDisabledRule(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"k.cu": strings.Replace(strided, "in[i * 4];", "in[i * 4]; // cudalint:ignore strided-access by design", 1)})
	for _, opts := range []Options{{Paths: []string{dir}, Disable: []string{"strided-access"}}, {Paths: []string{dir}, Enable: []string{"aos-field"}}} {
		if rep := Run(opts); len(rep.Findings) != 0 {
			t.Errorf("%v: findings %s", opts.Disable, rulesOf(rep.Findings))
		}
	}
}

// Includes refused for lying outside the root are one warning (a run on
// another repository's files must not look clean); those inside are not.
func TestIncludesOutsideTheRootWarn(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"project/k.cu":     "#include \"../shared/sizes.h\"\n#include \"local.h\"\n" + strided,
		"project/local.h":  "#define LOCAL 1\n",
		"shared/sizes.h":   "#define WIDTH 1024\n",
		"project/clean.cu": "#include \"local.h\"\n" + strided,
	})
	tests := []struct {
		file string
		want int
	}{
		{"project/k.cu", 1},
		{"project/clean.cu", 0},
	}
	for _, tt := range tests {
		rep := Run(Options{Paths: []string{filepath.Join(dir, tt.file)}, Root: filepath.Join(dir, "project")})
		var got []string
		for _, w := range rep.Warnings {
			if strings.Contains(w.Message, "outside the root") {
				got = append(got, w.Message)
			}
		}
		if len(got) != tt.want {
			t.Errorf("%s: warnings %q, want %d about the root", tt.file, got, tt.want)
		}
		if tt.want > 0 && !strings.Contains(got[0], "1 #include outside the root") {
			t.Errorf("%s: %q does not count the include", tt.file, got[0])
		}
	}
}
