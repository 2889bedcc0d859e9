package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// hostileKernel hides, in a comment inside an index expression, GitHub
// workflow commands on lines of their own, terminal escapes, NUL, a
// bidirectional override and the runner's old command syntax.
const hostileKernel = "__global__ void k(float* a) {\n" +
	"    a[threadIdx.x /*\n::error file=README.md,line=1::pwned\n::add-mask::secret\n" +
	"\x1b[31mred\a\x00\r##[add-mask]old\u202eevil */ * 2] = 0;\n}\n"

// ghCommand is the only shape a line starting with :: may have: a
// command cudalint wrote for a finding.
var ghCommand = regexp.MustCompile(`^::(error|warning|notice) file=[^:,\n]*,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=[a-z-]+::[^\n]*$`)

// Text quoted from the source cannot break a line, colour the terminal,
// reverse text or issue a workflow command, in any format.
func TestHostileSourceTextInEveryFormat(t *testing.T) {
	path := filepath.Join(writeFiles(t, map[string]string{"k.cu": hostileKernel}), "k.cu")
	tests := []struct {
		name     string
		args     []string
		commands int // lines that are workflow commands
		texts    func(t *testing.T, out string) []string
	}{
		{"text", []string{"--format", "text"}, 0, wholeOutput},
		{"github", []string{"--format", "github"}, 1, wholeOutput},
		{"json", []string{"--format", "json"}, 0, jsonStrings("findings", "message")},
		{"sarif", []string{"--format", "sarif"}, 0, sarifMessages},
		{"html", []string{"--format", "html"}, 0, wholeOutput},
		{"accesses text", []string{"--accesses"}, 0, wholeOutput},
		{"accesses json", []string{"--accesses", "--format", "json"}, 0, jsonStrings("accesses", "expr")},
		{"stats", []string{"--stats"}, 0, wholeOutput},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, out, errs := runCLI(append(tt.args, path)...)
			if strings.Contains(errs, "cudalint: flag") {
				t.Fatal(errs)
			}
			if n := commandLines(t, out); n != tt.commands {
				t.Errorf("%d workflow command lines, want %d:\n%s", n, tt.commands, out)
			}
			for _, s := range tt.texts(t, out) {
				assertInert(t, s)
			}
		})
	}
}

// commandLines counts the lines a GitHub runner would obey, and fails on
// any that cudalint did not write as a command.
func commandLines(t *testing.T, out string) int {
	t.Helper()
	n := 0
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "##[") {
			t.Errorf("line holds the runner's old command prefix: %q", line)
		}
		if !strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::") {
			continue
		}
		n++
		if !ghCommand.MatchString(line) {
			t.Errorf("line starts with :: but is no command of cudalint's: %q", line)
		}
	}
	return n
}

// assertInert fails on characters that act on a terminal or a log.
func assertInert(t *testing.T, s string) {
	t.Helper()
	for _, r := range s {
		if (r < 0x20 && r != '\n') || r == 0x7f || r == 0x202e {
			t.Errorf("output holds %U: %q", r, s)
			return
		}
	}
	if !strings.Contains(s, "::") && strings.Contains(s, "a[threadIdx.x") {
		t.Errorf("the expression lost its text: %q", s)
	}
}

func wholeOutput(t *testing.T, out string) []string { return []string{out} }

// jsonStrings decodes out and returns the field of each element of list.
func jsonStrings(list, field string) func(*testing.T, string) []string {
	return func(t *testing.T, out string) []string {
		var doc map[string][]map[string]any
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range doc[list] {
			s, _ := e[field].(string)
			got = append(got, s)
		}
		if len(got) == 0 {
			t.Fatalf("no %s in %s", list, out)
		}
		return got
	}
}

func sarifMessages(t *testing.T, out string) []string {
	var log struct {
		Runs []struct {
			Results []struct {
				Message struct{ Text string } `json:"message"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) == 0 {
		t.Fatalf("%v: %s", err, out)
	}
	var got []string
	for _, r := range log.Runs[0].Results {
		got = append(got, r.Message.Text)
	}
	return got
}

// A megabyte on one line is shown as a window around each caret, and a
// huge expression is quoted as an excerpt: the output stays small.
func TestLongLinesMakeShortOutput(t *testing.T) {
	var b strings.Builder
	b.WriteString("__global__ void k(float* a, float* b, float* c) {")
	for i := 0; i < 8; i++ {
		// Strides 2 to 9, and b's 10: each its own cause, so nine
		// findings stay nine.
		b.WriteString(strings.Repeat(" ", 128<<10) + "a[" + string(rune('2'+i)) + " * threadIdx.x] = 0;")
	}
	// b and c step alike on one line: one finding, c a related note
	// that quotes its huge expression only as an excerpt.
	b.WriteString(" b[10 * threadIdx.x /*" + strings.Repeat("x", 100<<10) + "*/] = 0;")
	b.WriteString(" c[10 * threadIdx.x /*" + strings.Repeat("y", 100<<10) + "*/] = 0; }\n")
	path := filepath.Join(writeFiles(t, map[string]string{"long.cu": b.String()}), "long.cu")
	for _, format := range []string{"text", "json", "sarif", "github"} {
		code, out, errs := runCLI("--format", format, path)
		if code != exitFindings {
			t.Fatalf("%s: exit %d: %s", format, code, errs)
		}
		if len(out) > 64<<10 {
			t.Errorf("%s: %d bytes of output for 9 findings", format, len(out))
		}
		if format == "text" && strings.Count(out, "^") < 9 {
			t.Errorf("text: not every finding has its snippet:\n%s", out)
		}
		for _, line := range strings.Split(out, "\n") {
			// (SARIF holds the rules' pages, long lines of JSON.)
			if n := len([]rune(line)); n > maxMessage+200 && format != "sarif" {
				t.Errorf("%s: a line of %d characters", format, n)
				break
			}
		}
	}
}

func TestEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a[i * 2]", "a[i * 2]"},
		{"a\nb\r\x00\a\x1b[0m\x7f", `a\nb\r\x00\a\x1b[0m\x7f`},
		{"tab\there", `tab\there`},
		{"rtl\u202eltr\u2066x\u2069", `rtl\u202eltr\u2066x\u2069`},
		{"nel\u0085ls\u2028", `nel\u0085ls\u2028`},
		{"bad\xffbyte", `bad\xffbyte`},
		{"##[add-mask]x", `##\x5badd-mask]x`},
		{"été · █", "été · █"},
	}
	for _, tt := range tests {
		if got := escape(tt.in); got != tt.want {
			t.Errorf("escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMessageBounds(t *testing.T) {
	long := "a[" + strings.Repeat("i + ", 1000) + "1]"
	tests := []struct {
		name, msg, quote string
		check            func(string) bool
	}{
		{"quote cut, numbers kept", "load " + long + ": 32 sectors/request", long, func(s string) bool {
			return strings.HasSuffix(s, "…: 32 sectors/request") && len([]rune(s)) < maxExcerpt+40
		}},
		{"unknown quote bounded", strings.Repeat("x", 5000), "", func(s string) bool {
			return len([]rune(s)) == maxMessage && strings.HasSuffix(s, "…")
		}},
		{"short unchanged", "store out[i]: fine", "out[i]", func(s string) bool { return s == "store out[i]: fine" }},
	}
	for _, tt := range tests {
		if got := message(tt.msg, tt.quote); !tt.check(got) {
			t.Errorf("%s: %q", tt.name, got)
		}
	}
}

func TestLineStart(t *testing.T) {
	tests := []struct{ in, want string }{
		{"k.cu:1:2", "k.cu:1:2"},
		{"::error file=x.cu:1:2", "./::error file=x.cu:1:2"},
		{"\u00a0::add-mask::x.cu", "./\u00a0::add-mask::x.cu"},
		{"/abs/::x.cu", "/abs/::x.cu"},
	}
	for _, tt := range tests {
		if got := lineStart(tt.in); got != tt.want {
			t.Errorf("lineStart(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// The caret lands under the character it means, whatever stands before
// it, and a long line is cut around it.
func TestSnippet(t *testing.T) {
	pad := strings.Repeat("x", 1000)
	tests := []struct {
		name, line       string
		from, to         int
		wantText, caret  string
		wantTextContains string
	}{
		{"plain", "  a[i] = 0;", 2, 6, "  a[i] = 0;", "  ^~~~", ""},
		{"tab", "\ta[i] = 0;", 1, 5, " a[i] = 0;", " ^~~~", ""},
		{"multibyte before", "/*é*/ a[i]", 7, 11, "/*é*/ a[i]", "      ^~~~", ""},
		{"escape before", "/*\x1b*/a[i]", 5, 9, `/*\x1b*/a[i]`, "        ^~~~", ""},
		{"span past the line", "a[i", 0, 99, "a[i", "^~~", ""},
		{"empty span", "a[i]", 1, 0, "a[i]", " ^", ""},
		{"command at line start", "::error::x; a[i]", 12, 16, `\x3a:error::x; a[i]`, "               ^~~~", ""},
		{"old command", "a[i] /* ##[add-mask] */", 0, 4, `a[i] /* ##\x5badd-mask] */`, "^~~~", ""},
		{"cut both sides", pad + "a[i]" + pad, 1000, 1004, "", strings.Repeat(" ", 61) + "^~~~", "…" + strings.Repeat("x", 60) + "a[i]"},
		{"cut right", "a[i]" + pad, 0, 4, "", "^~~~", "a[i]xxx"},
	}
	for _, tt := range tests {
		text, caret := snippet([]byte(tt.line), tt.from, tt.to)
		if tt.wantText != "" && text != tt.wantText {
			t.Errorf("%s: text %q, want %q", tt.name, text, tt.wantText)
		}
		if tt.wantTextContains != "" && !strings.HasPrefix(text, tt.wantTextContains) {
			t.Errorf("%s: text %q does not start %q", tt.name, text, tt.wantTextContains)
		}
		if caret != tt.caret {
			t.Errorf("%s: caret %q, want %q", tt.name, caret, tt.caret)
		}
		if n := len([]rune(text)); n > snippetWidth+2 {
			t.Errorf("%s: %d characters shown", tt.name, n)
		}
	}
}
