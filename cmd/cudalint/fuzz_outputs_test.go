package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// The output writers hold whatever a source and its file name hold: JSON
// and SARIF stay valid JSON, each GitHub annotation stays one workflow
// command, text has no control character but the newline, and the
// --output file is the report written whole.
func FuzzOutputWriters(f *testing.F) {
	for _, s := range [][2]string{
		{"k.cu", "p[32 * threadIdx.x]"},
		{"we%ird,na:me.cu", "p[8 * threadIdx.x] /* ::error::x */"},
		{"tab\tname.cu", "p[threadIdx.x * 2] // \x1b[31mred\r\n::warning::forged"},
		{"<img src=x>.cu", "p[threadIdx.x * 4]; \"\\u0000\xff\xfe\""},
		{"ok.cu", "p[threadIdx.x] /* \u202e\u2066 */"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, name, expr string) {
		name = filepath.Base(strings.Map(func(r rune) rune {
			if r == '/' || r == 0 || r == '\\' {
				return '_'
			}
			return r
		}, name))
		if name == "." || name == ".." || strings.HasPrefix(name, ".") || len(name) > 200 || !utf8.ValidString(name) {
			return
		}
		dir := t.TempDir()
		src := "__global__ void k(float* p) {\n  " + expr + " = 0;\n}\n"
		if err := os.WriteFile(filepath.Join(dir, name+".cu"), []byte(src), 0o644); err != nil {
			return // a name the file system refuses
		}
		for _, format := range []string{"json", "sarif", "github", "text"} {
			out := filepath.Join(dir, "report."+format)
			code, stdout, _ := runCLI("--exit-zero", "--severity", "info", "--no-snippet", "--format", format, "--root", dir, dir)
			if code == exitError && stdout == "" {
				continue // nothing analyzable: an error, said on stderr
			}
			switch format {
			case "json", "sarif":
				if !json.Valid([]byte(stdout)) {
					t.Fatalf("%s output is not JSON:\n%s", format, stdout)
				}
			case "github":
				for _, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
					if line != "" && !strings.HasPrefix(line, "::") || strings.ContainsAny(line, "\r") {
						t.Fatalf("annotation line %q", line)
					}
				}
			case "text":
				for _, r := range stdout {
					if r != '\n' && (unicode.IsControl(r) || r == '\u202e' || r == '\u2066') {
						t.Fatalf("text output holds %U:\n%q", r, stdout)
					}
				}
			}
			// The same report through --output: byte for byte.
			runCLI("--exit-zero", "--severity", "info", "--no-snippet", "--format", format, "--root", dir, "--output", out, dir)
			if got, err := os.ReadFile(out); err != nil || format != "sarif" && string(got) != stdout {
				t.Fatalf("--output %s: %v\n%q\nwant\n%q", format, err, got, stdout)
			}
			os.Remove(out)
		}
	})
}
