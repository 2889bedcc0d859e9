//go:build unix

package driver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const fakeKey = "AKIAFAKESECRETKEY0123"

// reportText is everything a run could print: errors, notes, findings.
func reportText(rep *Report) string {
	var b strings.Builder
	fmt.Fprintln(&b, rep.Errors)
	for _, n := range rep.Notes {
		fmt.Fprintln(&b, n.Msg)
	}
	for _, f := range rep.Findings {
		fmt.Fprintln(&b, f.Message)
	}
	return b.String()
}

// leak is a kernel that would bring an included file's text into a note
// through a stringizing macro.
const leak = "#define S(x) #x\n__global__ void k(float* p) {\n  p[threadIdx.x] = 1 S(\n#include \"credentials\"\n  );\n}\n"

// An include-dirs entry that is, or passes through, a hidden folder below
// the root is a configuration error, and nothing in it is read: the CI
// token in .git, ~/.aws when a downloaded project sits under the home
// folder (the root outside a repository).
func TestIncludeDirsNeverHidden(t *testing.T) {
	tests := []struct {
		name, dirs, hidden string
	}{
		{"the hidden folder itself", "[../.aws]", ".aws"},
		{"through a hidden folder", "[../.aws/sub]", ".aws"},
		{"a hidden folder inside the project", "[.git]", ".git"},
		{"a hidden folder deeper inside", "[vendor/.cache]", ".cache"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			write(t, home, map[string]string{
				".aws/credentials": "aws_secret_access_key = " + fakeKey + "\n", ".aws/sub/credentials": fakeKey + "\n",
				"proj/.git/credentials": fakeKey + "\n", "proj/vendor/.cache/credentials": fakeKey + "\n",
				"proj/k.cu": leak, "proj/.cudalint.yaml": "include-dirs: " + tt.dirs + "\n",
			})
			t.Chdir(filepath.Join(home, "proj"))
			rep := Run(Options{Paths: []string{"."}, Root: home, ModelOnly: true})
			text := reportText(rep)
			if strings.Contains(text, fakeKey) {
				t.Errorf("the key came through:\n%s", text)
			}
			if !strings.Contains(fmt.Sprint(rep.Errors), ".cudalint.yaml:1:16: include-dirs: ") || !strings.Contains(fmt.Sprint(rep.Errors), "hidden folder "+tt.hidden) {
				t.Errorf("errors %v: want include-dirs refused for %s at its entry", rep.Errors, tt.hidden)
			}
		})
	}
}

// A discovered .cudalint.yaml is read through the same rule as the rest:
// a link is followed only to a file inside the project with no hidden
// folder or name on the way, and a refused or malformed one is not
// quoted back.
func TestConfigLinksAndContent(t *testing.T) {
	secretYAML := "aws_access_key_id: " + fakeKey + "\n"
	tests := []struct {
		name   string
		files  map[string]string
		link   string // what .cudalint.yaml links to, if it is a link
		errors string // what the errors say ("" for none)
	}{
		{"link to .env", map[string]string{".env": secretYAML}, ".env", "a link into .env, which is hidden; not read"},
		{"link into a hidden folder", map[string]string{".secrets/ci.yaml": secretYAML}, ".secrets/ci.yaml", "a link into .secrets"},
		{"link to a visible file", map[string]string{"conf/cudalint.yaml": "disable: [strided-access]\n"}, "conf/cudalint.yaml", ""},
		{"not a mapping", map[string]string{".cudalint.yaml": "TOKEN=" + fakeKey + "\n"}, "", "got a single value"},
		{"a list", map[string]string{".cudalint.yaml": "- " + fakeKey + "\n"}, "", "got a list"},
		{"secrets-shaped", map[string]string{".cudalint.yaml": "aws_access_key_id: x\n"}, "", ":1:1: unknown key; the keys are"},
		{"link to a visible secrets file", map[string]string{"secrets.yaml": secretYAML}, "secrets.yaml", ":1:1: unknown key; the keys are"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.files[".git/HEAD"] = "x\n"
			tt.files["k.cu"] = strided
			write(t, dir, tt.files)
			if tt.link != "" {
				if err := os.Symlink(tt.link, filepath.Join(dir, ConfigName)); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(dir)
			rep := Run(Options{Paths: []string{"."}})
			text := reportText(rep)
			if strings.Contains(text, fakeKey) || strings.Contains(text, "aws_access_key_id") {
				t.Errorf("the secret came through:\n%s", text)
			}
			got := fmt.Sprint(rep.Errors)
			if tt.errors == "" && len(rep.Errors) > 0 || !strings.Contains(got, tt.errors) {
				t.Errorf("errors %s; want %q", got, tt.errors)
			}
			if tt.errors == "" && strings.Contains(rulesOf(rep.Findings), "strided-access") {
				t.Errorf("the linked configuration was not applied: %s", rulesOf(rep.Findings))
			}
		})
	}
}

// Every mistake in a configuration has a line and a column, those yaml.v3
// gives no position for (or only a line) included.
func TestEveryYAMLErrorHasALineAndColumn(t *testing.T) {
	tests := []struct {
		src       string
		line, col int
	}{
		{"enable: b: c\n", 1, 10},
		{"enable: [a, b\n", 1, 1},
		{"enable:\n\t- x\n", 2, 1},
		{"enable: [\x01]\n", 1, 10},
		{"disable: [\xff]\n", 1, 11},
		{"exclude: 'unterminated\n", 2, 1},
		{"enable: [a]\ndisable: *nope\n", 2, 10},
		{"%YAML 9.9\n---\nenable: []\n", 1, 1},
		{"enable: @x\n", 1, 9},
		{"params: {n: 1.5}\n", 1, 13},
		{"min-severity: [x]\n", 1, 15},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q", tt.src), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ConfigName)
			if err := os.WriteFile(path, []byte(tt.src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadConfig(path)
			if err == nil {
				t.Fatal("no error")
			}
			for _, e := range splitErrors(err) {
				ce, ok := e.(*ConfigError)
				if !ok || ce.Line != tt.line || ce.Col != tt.col {
					t.Errorf("%v: want line %d, column %d", e, tt.line, tt.col)
				}
			}
		})
	}
}
