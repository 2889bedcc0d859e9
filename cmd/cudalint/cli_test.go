package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

const stridedKernel = "__global__ void k(float* a) { a[4 * threadIdx.x] = 0; }\n"

// runWithStdin runs cudalint with stdin, failing instead of hanging.
func runWithStdin(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		code := run(args, strings.NewReader(stdin), &out, &errb)
		done <- result{code, out.String(), errb.String()}
	}()
	select {
	case r := <-done:
		return r.code, r.out, r.err
	case <-time.After(30 * time.Second):
		t.Fatalf("cudalint %v did not finish", args)
		return 0, "", ""
	}
}

// - reads standard input; --stdin-filename names it for messages, for
// the configuration found from its folder and for its includes.
func TestStdin(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"quiet/.cudalint.yaml": "disable: [strided-access]\n",
		"inc/part.cuh":         strings.ReplaceAll(stridedKernel, "void k", "void part"),
	})
	tests := []struct {
		name       string
		stdin      string
		args       []string
		code       int
		wantOut    string
		notWantOut string
	}{
		{"default name", stridedKernel, []string{"-"}, exitFindings, "<stdin>:1:31: warning: store a[4 * threadIdx.x]", ""},
		{"named", stridedKernel, []string{"--stdin-filename", "src/k.cu", "-"}, exitFindings, "src/k.cu:1:31: warning", "<stdin>"},
		{"config of its folder", stridedKernel, []string{"--stdin-filename", filepath.Join(dir, "quiet", "k.cu"), "-"}, exitOK, "no findings in 1 file", ""},
		{"includes from its folder", "#include \"part.cuh\"\n", []string{"--root", dir, "--stdin-filename", filepath.Join(dir, "inc", "main.cu"), "-"}, exitOK, "no findings", "part.cuh:1:34: warning"},
		// A header's findings are reported when it is named too.
		{"includes named", "#include \"part.cuh\"\n", []string{"--root", dir, "--stdin-filename", filepath.Join(dir, "inc", "main.cu"), "-", filepath.Join(dir, "inc", "part.cuh")}, exitFindings, "inc/part.cuh:1:34: warning", ""},
		{"empty", "", []string{"-"}, exitOK, "no findings in 1 file", ""},
		{"json", stridedKernel, []string{"--format", "json", "-"}, exitFindings, `"file": "<stdin>"`, ""},
		{"with a file", stridedKernel, []string{"-", filepath.Join(dir, "inc", "part.cuh")}, exitFindings, "2 findings", ""},
		{"accesses", stridedKernel, []string{"--accesses", "-"}, exitOK, "<stdin>:1:31", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runWithStdin(t, tt.stdin, tt.args...)
			if code != tt.code || !strings.Contains(out, tt.wantOut) || (tt.notWantOut != "" && strings.Contains(out, tt.notWantOut)) {
				t.Errorf("exit %d (want %d); stdout lacks %q or holds %q:\n%s\nstderr: %s", code, tt.code, tt.wantOut, tt.notWantOut, out, errs)
			}
		})
	}
}

// -- ends the flags: a path after it may start with -.
func TestDashDashEndsFlags(t *testing.T) {
	dir := writeFiles(t, map[string]string{"-k.cu": stridedKernel, "--format": stridedKernel})
	t.Chdir(dir)
	tests := [][]string{
		{"--", "-k.cu"},
		{"--exit-zero", "--", "-k.cu", "--format"},
		{"--output", "--", "--", "-k.cu"}, // the first -- is the value of --output
	}
	for _, args := range tests {
		code, out, errs := runCLI(args...)
		if args[0] == "--output" {
			if b, _ := os.ReadFile("--"); code != exitFindings || !strings.Contains(string(b), "-k.cu:1:31") {
				t.Errorf("%v: exit %d, file -- holds %q; stderr %s", args, code, b, errs)
			}
			continue
		}
		if code == exitError || !strings.Contains(out, "-k.cu:1:31: warning") {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errs)
		}
	}
	if _, out, _ := runCLI("--exit-zero", "--", "-k.cu", "--format"); !strings.Contains(out, "2 findings") {
		t.Errorf("the file named --format was not analyzed:\n%s", out)
	}
}

// --help and -h print the usage on stdout and exit 0; --version prints
// the version; a wrong flag is one error on stderr, exit 2.
func TestHelpAndVersion(t *testing.T) {
	tests := []struct {
		args     []string
		code     int
		stdout   []string
		stderrOK bool
	}{
		{[]string{"--help"}, exitOK, []string{"usage: cudalint", "explain RULE", "rules", "-stdin-filename", "-format"}, false},
		{[]string{"-h"}, exitOK, []string{"usage: cudalint"}, false},
		{[]string{"k.cu", "--help"}, exitOK, []string{"usage: cudalint"}, false},
		{[]string{"--version"}, exitOK, []string{"cudalint "}, false},
		{[]string{"--no-such-flag", "k.cu"}, exitError, nil, true},
		{[]string{"--stdin-filename", "x.cu", "k.cu"}, exitError, nil, true},
		{[]string{"--fix", "-"}, exitError, nil, true},
		{[]string{}, exitError, nil, true},
	}
	for _, tt := range tests {
		code, out, errs := runCLI(tt.args...)
		if code != tt.code || (errs != "") != tt.stderrOK {
			t.Errorf("%v: exit %d, want %d; stderr %q", tt.args, code, tt.code, errs)
		}
		for _, want := range tt.stdout {
			if !strings.Contains(out, want) {
				t.Errorf("%v: stdout lacks %q:\n%s", tt.args, want, out)
			}
		}
		if tt.stdout == nil && out != "" {
			t.Errorf("%v: stdout %q, want nothing", tt.args, out)
		}
		if tt.stderrOK && strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: want one line of error, got %q", tt.args, errs)
		}
	}
}

func TestDescribeBuild(t *testing.T) {
	rev := "c9e0bd1a2b3c4d5e6f708192a3b4c5d6e7f80912"
	tests := []struct {
		version  string
		settings map[string]string
		want     string
	}{
		{"v1.2.3", nil, "1.2.3"},
		{"", nil, nextRelease + "-devel"},
		{"(devel)", nil, nextRelease + "-devel"},
		{"(devel)", map[string]string{"vcs.revision": rev}, nextRelease + "-devel+c9e0bd1a2b3c"},
		{"(devel)", map[string]string{"vcs.revision": rev, "vcs.modified": "true"}, nextRelease + "-devel+c9e0bd1a2b3c.dirty"},
		{"v0.0.0-20260101000000-c9e0bd1a2b3c+dirty", map[string]string{"vcs.revision": rev, "vcs.modified": "true"}, "0.0.0-20260101000000-c9e0bd1a2b3c+dirty"},
	}
	for _, tt := range tests {
		info := &debug.BuildInfo{Main: debug.Module{Version: tt.version}}
		for k, v := range tt.settings {
			info.Settings = append(info.Settings, debug.BuildSetting{Key: k, Value: v})
		}
		got := describeBuild(info)
		if got != tt.want {
			t.Errorf("%s %v: %q, want %q", tt.version, tt.settings, got, tt.want)
		}
		if !semver.MatchString(got) {
			t.Errorf("%s %v: %q is not a semantic version (SARIF's semanticVersion)", tt.version, tt.settings, got)
		}
	}
}

// semver is Semantic Versioning 2.0's grammar, the form SARIF's
// semanticVersion takes.
var semver = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$`)

// buildCmd builds the command with the go build flags given, into a
// temporary folder, as a release or a go install would.
func buildCmd(t *testing.T, flags ...string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "cudalint")
	args := append([]string{"build", "-trimpath", "-buildvcs=false", "-o", bin}, flags...)
	out, err := exec.Command("go", append(args, ".")...).CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// A release build stamps one variable, and --version, SARIF's tool
// version and semantic version, and the language server's all say it;
// the log names its schema.
func TestVersionIsStampedOnce(t *testing.T) {
	for _, stamp := range []string{"", "2.3.4", "2.3.4-SNAPSHOT-abc1234"} {
		t.Run(stamp, func(t *testing.T) {
			var args []string
			if stamp != "" {
				args = append(args, "-ldflags=-X main.version="+stamp)
			}
			bin := buildCmd(t, args...)
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "k.cu"), []byte("__global__ void k(float* a) { a[8 * threadIdx.x] = 0; }\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(bin, "--version").Output()
			if err != nil {
				t.Fatal(err)
			}
			line := strings.TrimSpace(string(out))
			want := stamp
			if want == "" {
				want = nextRelease + "-devel"
			}
			if line != "cudalint "+want {
				t.Errorf("--version says %q, want %q", line, "cudalint "+want)
			}
			cmd := exec.Command(bin, "--root", dir, "--format", "sarif", "k.cu")
			cmd.Dir = dir
			log, _ := cmd.Output()
			var doc struct {
				Schema string `json:"$schema"`
				Runs   []struct {
					Tool struct {
						Driver struct{ Version, SemanticVersion string }
					}
				}
			}
			if err := json.Unmarshal(log, &doc); err != nil || len(doc.Runs) != 1 {
				t.Fatalf("SARIF %v:\n%s", err, log)
			}
			d := doc.Runs[0].Tool.Driver
			if d.Version != want || d.SemanticVersion != want {
				t.Errorf("SARIF version %q, semanticVersion %q; --version says %q", d.Version, d.SemanticVersion, want)
			}
			if doc.Schema != sarifSchemaURI {
				t.Errorf("SARIF $schema %q", doc.Schema)
			}
		})
	}
}

// A folder with no CUDA file is a warning; a run that analyzes nothing
// exits 2.
func TestPathsWithoutCUDAFiles(t *testing.T) {
	dir := writeFiles(t, map[string]string{"docs/readme.txt": "x", "k/k.cu": stridedKernel})
	docs, k := filepath.Join(dir, "docs"), filepath.Join(dir, "k")
	tests := []struct {
		args []string
		code int
		warn bool
	}{
		{[]string{docs}, exitError, true},
		{[]string{"--format", "json", docs}, exitError, true},
		{[]string{"--accesses", docs}, exitError, true},
		{[]string{docs, k}, exitFindings, true},
		{[]string{k}, exitFindings, false},
		{[]string{dir}, exitFindings, false},
	}
	for _, tt := range tests {
		code, _, errs := runCLI(tt.args...)
		warned := strings.Contains(errs, "warning: "+docs+" holds no .cu or .cuh file")
		if code != tt.code || warned != tt.warn {
			t.Errorf("%v: exit %d (want %d), stderr %q", tt.args, code, tt.code, errs)
		}
	}
}

// A report that cannot be written is an error, exit 2.
func TestFailedWriteIsAnError(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here:", err)
	}
	defer full.Close()
	path := filepath.Join(writeFiles(t, map[string]string{"k.cu": stridedKernel}), "k.cu")
	tests := [][]string{
		{path},
		{"--exit-zero", path},
		{"--format", "sarif", path},
		{"--accesses", path},
		{"rules"},
		{"--help"},
	}
	for _, args := range tests {
		var errb bytes.Buffer
		if code := run(args, strings.NewReader(""), full, &errb); code != exitError || !strings.Contains(errb.String(), "no space left") {
			t.Errorf("%v to /dev/full: exit %d, stderr %q", args, code, errb.String())
		}
	}
	var errb bytes.Buffer
	if code := run([]string{"--output", "/dev/full", path}, strings.NewReader(""), &bytes.Buffer{}, &errb); code != exitError {
		t.Errorf("--output /dev/full: exit %d, stderr %q", code, errb.String())
	}
}

// Text output ends with one line that sums the run up.
func TestSummaryLine(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"clean.cu": "__global__ void c(float* a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0; }\n",
		"k.cu":     stridedKernel,
		"skip.cu":  "__global__ void s(float* a) {\n  asm volatile(\"wgmma.fence.sync.aligned;\");\n  a[3 * threadIdx.x] = 0;\n}\n",
	})
	tests := []struct {
		file, want string
	}{
		{"clean.cu", "no findings in 1 file"},
		{"k.cu", "1 finding (1 warning) in 1 file"},
		{"skip.cu", "1 finding (1 warning) in 1 file; 1 kernel partly analyzed"},
	}
	for _, tt := range tests {
		_, out, _ := runCLI(filepath.Join(dir, tt.file))
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if last := lines[len(lines)-1]; !strings.HasPrefix(last, tt.want) {
			t.Errorf("%s: last line %q, want %q", tt.file, last, tt.want)
		}
	}
	_, out, _ := runCLI(dir)
	if !strings.HasSuffix(out, "2 findings (2 warnings) in 3 files; 1 kernel partly analyzed, 1 parse note: see --stats\n") {
		t.Errorf("summary of the folder:\n%s", out)
	}
	// A file named alone whose header (a .h, not a file of the run)
	// holds a kernel partly analyzed: the header's kernel is analyzed in
	// the file's context but not reported, and --stats does not count
	// it; neither does the summary.
	inc := writeFiles(t, map[string]string{
		"k.h":  "__global__ void s(float* a) {\n  asm volatile(\"wgmma.fence.sync.aligned;\");\n  a[threadIdx.x] = 0;\n}\n",
		"a.cu": "#include \"k.h\"\n",
	})
	_, out, _ = runCLI("--root", inc, filepath.Join(inc, "a.cu"))
	if strings.Contains(out, "partly analyzed") {
		t.Errorf("a.cu named alone: the summary counts k.h's kernel, which --stats does not:\n%s", out)
	}
}

// A header an #include did not find, lying in one folder under the root,
// is named with the -I that reads it (darknet's src/*.cu include
// "darknet.h", which is in include/); one of two places is not.
func TestSummaryNamesIncludeFolder(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"include/darknet.h": "#define BLOCK 512\n",
		"a/twice.h":         "", "b/twice.h": "",
		"src/k.cu": "#include \"darknet.h\"\n#include \"twice.h\"\n__global__ void k(float* a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0; }\n",
	})
	_, out, _ := runCLI("--root", dir, filepath.Join(dir, "src"))
	if !strings.Contains(out, "; darknet.h not found: it is in include (give -I include)") || strings.Contains(out, "twice.h not found") {
		t.Errorf("summary:\n%s", out)
	}
	_, out, _ = runCLI("--root", dir, "-I", filepath.Join(dir, "include"), "-I", filepath.Join(dir, "a"), filepath.Join(dir, "src"))
	if strings.Contains(out, "not found") {
		t.Errorf("with the folders given, summary:\n%s", out)
	}
}

// --sort impact puts the finding whose fix saves the most memory time per launch
// first, whatever its place in the file; the summary names its kernel.
func TestSortByImpact(t *testing.T) {
	dir := writeFiles(t, map[string]string{"k.cu": `__global__ void small(float* a) { a[4 * threadIdx.x] = 0; }
__global__ void big(float* a) { for (int j = 0; j < 100; j++) a[8 * threadIdx.x + 4096 * j] = 0; }
void h(float* a) { small<<<64, 256>>>(a); big<<<64, 256>>>(a); }
`})
	k := filepath.Join(dir, "k.cu")
	_, byPos, _ := runCLI(k)
	code, byImpact, _ := runCLI("--sort", "impact", k)
	first := func(out string) string { return out[:strings.Index(out, ":")+12] }
	if code != exitFindings || !strings.Contains(byPos, "k.cu:1:") || strings.Index(byImpact, "k.cu:2:") > strings.Index(byImpact, "k.cu:1:") {
		t.Errorf("--sort impact did not put big first (%s):\n%s", first(byImpact), byImpact)
	}
	if !strings.Contains(byImpact, "most waste: kernel big,") {
		t.Errorf("summary does not name the costliest kernel:\n%s", byImpact)
	}
	if code, _, errs := runCLI("--sort", "size", k); code != exitError || !strings.Contains(errs, "unknown --sort") {
		t.Errorf("--sort size: exit %d, %s", code, errs)
	}
}

// --color always|never|auto, --no-snippet, and the picture's legend.
func TestTextStyleFlags(t *testing.T) {
	k := filepath.Join(writeFiles(t, map[string]string{"k.cu": stridedKernel}), "k.cu")
	tests := []struct {
		args    []string
		want    []string
		notWant []string
	}{
		{[]string{"--color", "always", k}, []string{"\x1b[1;33mwarning:"}, nil},
		{[]string{"--color", "never", k}, []string{"warning:", "first warp:"}, []string{"\x1b["}},
		{[]string{k}, []string{"first warp:"}, []string{"\x1b["}}, // auto: not a terminal
		{[]string{"--no-snippet", k}, []string{"k.cu:1:31: warning:", "1 finding"}, []string{"first warp:", "^~~"}},
		{[]string{"explain", "picture"}, []string{"█ all, ▆ ¾"}, nil},
		{[]string{"--help"}, []string{"█ all, ▆ ¾", "-no-snippet", "-color"}, nil},
	}
	for _, tt := range tests {
		_, out, errs := runCLI(tt.args...)
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%s%s", tt.args, w, out, errs)
			}
		}
		for _, w := range tt.notWant {
			if strings.Contains(out, w) {
				t.Errorf("%v: output holds %q:\n%s", tt.args, w, out)
			}
		}
	}
	if code, _, errs := runCLI("--color", "sometimes", k); code != exitError || !strings.Contains(errs, "unknown --color") {
		t.Errorf("--color sometimes: exit %d, %s", code, errs)
	}
}
