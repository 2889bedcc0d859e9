package sources

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/parser"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The root is the nearest folder holding .git (a folder, or a file in a
// worktree), else the folder asked about.
func TestRepoRoot(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"repo/.git/HEAD":       "ref",
		"repo/a/b/x.cu":        "",
		"worktree/.git":        "gitdir: elsewhere",
		"worktree/src/x.cu":    "",
		"plain/src/x.cu":       "",
		"repo/nested/.git":     "gitdir: elsewhere",
		"repo/nested/src/x.cu": "",
	})
	tests := []struct{ from, want string }{
		{"repo/a/b", "repo"},
		{"repo", "repo"},
		{"worktree/src", "worktree"},
		{"repo/nested/src", "repo/nested"},
		{"plain/src", "plain/src"},
	}
	for _, tt := range tests {
		if got := repoRoot(filepath.Join(dir, tt.from)); got != filepath.Join(dir, tt.want) {
			t.Errorf("repoRoot(%s) = %s, want %s", tt.from, got, tt.want)
		}
	}
}

// An #include reads only files below the root or an include folder that
// no hidden folder holds, or files the user named; the rest is a note at
// the directive, and its text appears nowhere.
func TestIncludesStayInTheRoot(t *testing.T) {
	const secret = "SECRET-TOKEN-1234"
	dir := writeTree(t, map[string]string{
		"outside/secret.h":   "int " + secret + ";\n",
		"outside/allowed.h":  "int allowed_outside;\n",
		"repo/.git/config":   "[remote]\n\turl = https://x:" + secret + "@example.com\n",
		"repo/.env":          secret + "\n",
		"repo/inc/ok.h":      "int ok_inside;\n",
		"repo/.cache/deps.h": "int hidden_allowed;\n",
		"repo/named.h":       "int named_elsewhere;\n",
	})
	root := filepath.Join(dir, "repo")
	if err := os.Symlink(filepath.Join(dir, "outside", "secret.h"), filepath.Join(root, "inc", "link.h")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	tests := []struct {
		include string
		dirs    []string // -I
		read    string   // a token that must come through; "" when refused
		reason  string   // in the note when refused
	}{
		{`"../inc/ok.h"`, nil, "ok_inside", ""},
		{`"../.git/config"`, nil, "", ".git is hidden"},
		{`"../.env"`, nil, "", ".env is hidden"},
		{`"../../outside/secret.h"`, nil, "", "outside the root"},
		{`<../../outside/secret.h>`, nil, "", "-I " + filepath.Join(dir, "outside")},
		{`"../inc/link.h"`, nil, "", "outside the root"}, // a link inside pointing out
		{`"../../outside/allowed.h"`, []string{filepath.Join(dir, "outside")}, "allowed_outside", ""},
		{`"allowed.h"`, []string{filepath.Join(dir, "outside")}, "allowed_outside", ""},
		{`"../.cache/deps.h"`, []string{filepath.Join(root, ".cache")}, "hidden_allowed", ""},
	}
	for _, tt := range tests {
		t.Run(tt.include, func(t *testing.T) {
			main := filepath.Join(root, "src", "main.cu")
			if err := os.MkdirAll(filepath.Dir(main), 0o755); err != nil {
				t.Fatal(err)
			}
			src := "#define S(x) #x\nconst char* s = S(\n#include " + tt.include + "\n);\nint end_of_main;\n"
			if err := os.WriteFile(main, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			set, errs := Load([]string{main}, parser.Config{Root: root, IncludeDirs: tt.dirs})
			if len(errs) != 0 || len(set.Files) != 1 {
				t.Fatalf("errors %v, %d files", errs, len(set.Files))
			}
			f := set.Files[0]
			everything := dump(f)
			if strings.Contains(everything, secret) {
				t.Errorf("the secret came through:\n%s", everything)
			}
			if tt.read != "" && !strings.Contains(everything, tt.read) {
				t.Errorf("%s not read:\n%s", tt.read, everything)
			}
			if tt.reason != "" && !hasNote(f, 3, tt.reason) {
				t.Errorf("notes %v, want one at line 3 with %q", f.Notes, tt.reason)
			}
		})
	}
}

// dump is everything a file could show: its notes and every source text.
func dump(f *parser.File) string {
	var b strings.Builder
	for _, n := range f.Notes {
		b.WriteString(n.Error() + "\n")
	}
	for path, src := range f.Sources {
		b.WriteString(path + "\n" + string(src))
	}
	return b.String()
}

func hasNote(f *parser.File, line int32, text string) bool {
	for _, n := range f.Notes {
		if n.Pos.Line == line && strings.Contains(n.Msg, text) {
			return true
		}
	}
	return false
}

// Files the user names are read wherever they are, and may include each
// other, even outside the root.
func TestNamedFilesOutsideTheRoot(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"repo/.git/HEAD":  "ref",
		"elsewhere/a.cu":  "#include \"b.cuh\"\n__global__ void k(float* p) { p[threadIdx.x] = 0; }\n",
		"elsewhere/b.cuh": "int from_b;\n",
	})
	files := []string{filepath.Join(dir, "elsewhere", "a.cu"), filepath.Join(dir, "elsewhere", "b.cuh")}
	set, errs := Load(files, parser.Config{Root: filepath.Join(dir, "repo")})
	if len(errs) != 0 || len(set.Files) != 1 {
		t.Fatalf("errors %v, %d files", errs, len(set.Files))
	}
	if len(set.Files[0].Notes) != 0 || !strings.Contains(dump(set.Files[0]), "from_b") {
		t.Errorf("b.cuh not read: %s", dump(set.Files[0]))
	}
}
