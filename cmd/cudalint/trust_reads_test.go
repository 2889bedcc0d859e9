package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The secrets of the hostile repository: a CI token in .git/config and a
// line of a password file outside the repository.
const (
	gitToken     = "ghp_SECRETTOKEN0123456789"
	passwdSecret = "PASSWDSECRET42"
)

// hostileRepo is a repository whose sources try to read what is not
// theirs through includes wrapped in a stringizing macro (so the text
// would land in a string literal, and from there in a note or a finding),
// next to a library outside it that a kernel may legitimately need.
func hostileRepo(t *testing.T) (repo, outside string) {
	t.Helper()
	// "1 S(...)" is not C: the note on the statement quotes the string.
	wrap := func(include string) string {
		return "#define S(x) #x\n__global__ void k(float* p) {\n  p[threadIdx.x] = 1 S(\n#include " + include + "\n  );\n}\n"
	}
	dir := writeFiles(t, map[string]string{
		"repo/.git/config":      "[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic " + gitToken + "\n",
		"repo/sub/gitconfig.cu": wrap(`"../.git/config"`),
		"repo/sub/passwd.cu":    wrap(`"../../outside/passwd"`),
		"repo/sub/angled.cu":    wrap(`<../../outside/passwd>`),
		"repo/sub/lib.cu":       "#include \"../../outside/lib.cuh\"\n",
		"outside/passwd":        "root:x:0:0:" + passwdSecret + ":/root:/bin/sh\n",
		"outside/lib.cuh":       "__global__ void from_outside(float* p) { p[2 * threadIdx.x] = 0; }\n", // strided: a finding
	})
	return filepath.Join(dir, "repo"), filepath.Join(dir, "outside")
}

// The root is the repository of the current folder: includes that leave
// it, or enter .git, are notes saying how to allow a folder, and the text
// of those files appears in no output.
func TestIncludesStayInTheRepository(t *testing.T) {
	repo, outside := hostileRepo(t)
	t.Chdir(filepath.Join(repo, "sub"))
	runs := [][]string{
		{"--format", "text", "."}, {"--format", "json", "."}, {"--format", "sarif", "."}, {"--format", "github", "."},
		{"--accesses", "."}, {"--accesses", "--format", "json", "."}, {"--stats", "."},
	}
	for _, args := range runs {
		_, out, errs := runCLI(append([]string{"--exit-zero"}, args...)...)
		if strings.Contains(out+errs, gitToken) || strings.Contains(out+errs, passwdSecret) || strings.Contains(out+errs, "AUTHORIZATION") {
			t.Errorf("cudalint %v printed the secret:\n%s%s", args, out, errs)
		}
	}
	doc := runAccesses(t, "--accesses", "--format", "json", ".")
	want := map[string]string{ // file: what its note says
		"gitconfig.cu": `"../.git/config" not read: .git is hidden`,
		"passwd.cu":    `"../../outside/passwd" not read: outside the root ` + repo + "; -I " + outside + " on the command line allows it",
		"angled.cu":    `"../../outside/passwd" not read`,
		"lib.cu":       `-I ` + outside + ` on the command line allows it`,
	}
	for _, n := range doc.Notes {
		if w, ok := want[filepath.Base(n.File)]; ok && strings.Contains(n.Message, w) && n.Line >= 1 {
			delete(want, filepath.Base(n.File))
		}
	}
	if len(want) > 0 {
		t.Errorf("notes %+v lack %v", doc.Notes, want)
	}
}

// -I, include-dirs: and --root each let includes read a folder outside
// the repository (the password file there included: the user allowed
// it); .git stays unread whatever is allowed.
func TestAllowingAFolder(t *testing.T) {
	repo, outside := hostileRepo(t)
	t.Chdir(filepath.Join(repo, "sub"))
	tests := []struct {
		name   string
		config string
		args   []string
	}{
		{"-I", "", []string{"-I", outside}},
		{"-I relative", "", []string{"-I", "../../outside"}},
		{"--root", "", []string{"--root", filepath.Dir(repo)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := filepath.Join(repo, ".cudalint.yaml")
			os.Remove(cfg)
			if tt.config != "" {
				if err := os.WriteFile(cfg, []byte(tt.config), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			args := append([]string{"--format", "json", "--exit-zero", "--severity", "info"}, tt.args...)
			if tt.config == "" { // --accesses reads no configuration
				doc := runAccesses(t, append([]string{"--accesses"}, append(args, ".")...)...)
				if !hasKernel(doc, "from_outside") {
					t.Errorf("lib.cuh not read: %+v", doc.Notes)
				}
			}
			_, out, errs := runCLI(append(args, ".")...)
			if !strings.Contains(out, `"kernel": "from_outside"`) {
				t.Errorf("lib.cuh not read:\n%s%s", out, errs)
			}
			if strings.Contains(out+errs, gitToken) {
				t.Errorf("the token in .git came through:\n%s", out)
			}
		})
	}
}

func hasKernel(doc accessDoc, name string) bool {
	for _, a := range doc.Accesses {
		if a.Kernel == name {
			return true
		}
	}
	return false
}

// A file that includes itself twice ends with a budget note, in bounded
// time; the files beside it are analyzed.
func TestSelfIncludingTwice(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"self.cu": "#include \"self.cu\"\n#include \"self.cu\"\n__global__ void self(float* p) { p[threadIdx.x] = 0; }\n",
		"ok.cu":   copyKernel,
	})
	var doc accessDoc
	inTime(t, func() { doc = runAccesses(t, "--accesses", "--format", "json", dir) })
	budget := false
	for _, n := range doc.Notes {
		budget = budget || (filepath.Base(n.File) == "self.cu" && n.Line == 2 && strings.Contains(n.Message, "more than 4096 includes"))
	}
	if !budget || !hasKernel(doc, "self") || !hasKernel(doc, "copy") {
		t.Errorf("notes %+v; want the include budget at self.cu:2 and both kernels", doc.Notes)
	}
}

// A symbolic link to a folder, named on the command line, is walked.
func TestNamedLinkToFolder(t *testing.T) {
	dir := writeFiles(t, map[string]string{"real/k.cu": copyKernel})
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Join(dir, "real"), link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	doc := runAccesses(t, "--accesses", "--format", "json", link)
	if !hasKernel(doc, "copy") || filepath.Dir(doc.Accesses[0].File) != link {
		t.Errorf("accesses %+v: want copy, in a file under %s", doc.Accesses, link)
	}
}

// --root must name a folder.
func TestRootMustBeAFolder(t *testing.T) {
	code, _, errs := runCLI("--root", filepath.Join(t.TempDir(), "missing"), ".")
	if code != exitError || !strings.Contains(errs, "--root") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

// inTime fails the test when f runs for more than a minute: the inputs
// here used to block or run without end.
func inTime(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("cudalint did not finish")
	}
}

// A repository's own configuration cannot widen reads beyond the
// project: include-dirs outside it is an error, and nothing there is read
// (a pull request could otherwise point it at /etc or a home folder).
func TestConfigIncludeDirsStayInTheProject(t *testing.T) {
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	outside := filepath.Join(base, "outside")
	for dir, files := range map[string]map[string]string{
		repo:    {".git/HEAD": "x\n", "k.cu": "#include \"lib.cuh\"\n", ".cudalint.yaml": "include-dirs: [../outside]\n"},
		outside: {"lib.cuh": "__global__ void from_outside(float* p) { p[8 * threadIdx.x] = 0; }\n"},
	} {
		for name, text := range files {
			p := filepath.Join(dir, name)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Chdir(repo)
	code, out, errs := runCLI("--format", "json", ".")
	if code != exitError || strings.Contains(out, "from_outside") || !strings.Contains(errs+out, "include-dirs: ") || !strings.Contains(errs+out, "-I ") {
		t.Errorf("exit %d:\n%s%s", code, out, errs)
	}
}
