package html

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/driver"
	"github.com/cudalint/cudalint/rules/lint"
)

// element is a start tag of the page, with the text directly inside it.
type element struct {
	name  string
	attrs map[string]string
	text  string
}

// parse reads the page as the browser's tokenizer would, loosely: void
// elements, bare attributes and HTML entities allowed. A page it cannot
// read fails the test.
func parse(t *testing.T, page []byte) []*element {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(page))
	d.Strict, d.AutoClose, d.Entity = false, xml.HTMLAutoClose, xml.HTMLEntity
	var out, stack []*element
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("page does not parse: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			e := &element{name: tok.Name.Local, attrs: map[string]string{}}
			for _, a := range tok.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			out, stack = append(out, e), append(stack, e)
		case xml.EndElement:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(tok)
			}
		}
	}
}

func (e *element) class(c string) bool { return slices.Contains(strings.Fields(e.attrs["class"]), c) }

// analyze runs the rules over files written to a folder and writes the
// page.
func analyze(t *testing.T, files map[string]string) (*driver.Report, []byte) {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep := driver.Run(driver.Options{Paths: []string{dir}, Root: dir})
	if len(rep.Errors) > 0 {
		t.Fatalf("run: %v", rep.Errors)
	}
	return rep, write(t, rep)
}

func write(t *testing.T, rep *driver.Report) []byte {
	t.Helper()
	var b bytes.Buffer
	rel := func(name string) string {
		if r, err := filepath.Rel(rep.Root, name); err == nil {
			return r
		}
		return name
	}
	if err := Write(&b, rep, Options{Path: rel, Summary: "summary line", Version: "cudalint test"}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

const strided = `__global__ void strided(const float* in, float* out, int n) {
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	out[i] = in[32 * i];
}
void launch(const float* in, float* out) { strided<<<64, 256>>>(in, out, 1 << 20); }
`

const swapped = `__global__ void swapped(const float* in, float* out, int w) {
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	int c = blockIdx.y * blockDim.y + threadIdx.y;
	out[r * 1024 + c] = in[r * 1024 + c];
}
void launch2(const float* in, float* out) { swapped<<<dim3(32, 32), dim3(32, 32)>>>(in, out, 1024); }
`

// Every finding is on the page once, as a card carrying its rule and
// severity for the filters, on a highlighted line of its file; the
// kernels with findings are ranked, and the access lines are shaded.
func TestEveryFindingOnItsLine(t *testing.T) {
	rep, page := analyze(t, map[string]string{"a.cu": strided, "b.cu": swapped})
	if len(rep.Findings) < 2 {
		t.Fatalf("want findings in both files, got %d", len(rep.Findings))
	}
	for i := 0; i < 3; i++ {
		if !bytes.Equal(write(t, rep), page) {
			t.Fatal("two pages of one report differ")
		}
	}
	els := parse(t, page)
	byID := map[string]*element{}
	for _, e := range els {
		if id := e.attrs["id"]; id != "" {
			if byID[id] != nil {
				t.Errorf("id %q twice", id)
			}
			byID[id] = e
		}
	}
	for i, f := range rep.Findings {
		pos := rep.Fset.Position(f.Pos)
		card := byID[fmt.Sprintf("f%d", i+1)]
		if card == nil || !card.class("finding") || card.attrs["data-rule"] != f.Rule.ID || card.attrs["data-severity"] != f.Severity.String() {
			t.Errorf("finding %d (%s at %s): no card with its rule and severity: %+v", i+1, f.Rule.ID, pos, card)
		}
		file := filepath.Base(pos.Filename)
		found := false
		for _, e := range els {
			if e.name == "tr" && e.class("flag") && e.attrs["data-file"] == file && e.attrs["data-line"] == fmt.Sprint(pos.Line) {
				found = true
			}
		}
		if !found {
			t.Errorf("finding %d: line %s:%d not highlighted", i+1, file, pos.Line)
		}
	}
	var ranked, shaded []string
	for _, e := range els {
		if e.name == "tr" && strings.HasPrefix(e.attrs["id"], "rank-") {
			ranked = append(ranked, e.attrs["id"])
		}
		if e.name == "tr" && e.class("line") && strings.TrimSpace(strings.TrimPrefix(e.attrs["class"], "line")) != "" {
			shaded = append(shaded, e.attrs["data-file"]+":"+e.attrs["data-line"])
		}
	}
	if len(ranked) != 2 {
		t.Errorf("ranked kernels %v, want both", ranked)
	}
	for _, want := range []string{"a.cu:3", "b.cu:4"} {
		if !slices.Contains(shaded, want) {
			t.Errorf("access line %s not shaded (shaded: %v)", want, shaded)
		}
	}
	scripts := 0
	for _, e := range els {
		switch e.name {
		case "script":
			scripts++
			if e.text != script {
				t.Errorf("the page's script is not the one its CSP hashes")
			}
		case "link", "img", "iframe":
			t.Errorf("the page loads something: <%s %v>", e.name, e.attrs)
		}
	}
	if scripts != 1 {
		t.Errorf("%d scripts, want 1", scripts)
	}
}

// A finding of no access (a suppression comment that suppresses
// nothing) sits on its line in the kernel's listing too.
func TestCommentFindingOnItsLine(t *testing.T) {
	src := strings.Replace(strided, "\tout[i] = in[32 * i];", "\t// cudalint:ignore\n\tout[i] = in[32 * i];", 1)
	rep, page := analyze(t, map[string]string{"a.cu": src})
	var comment int
	for i, f := range rep.Findings {
		if f.Prediction == nil {
			comment = i + 1
		}
	}
	if comment == 0 {
		t.Fatalf("no finding about the comment among %d", len(rep.Findings))
	}
	els := parse(t, page)
	for i, e := range els {
		if e.attrs["id"] != fmt.Sprintf("f%d", comment) {
			continue
		}
		if e.name != "tr" || !e.class("finding") {
			t.Errorf("the comment's finding is a <%s class=%q>, not a row of the listing", e.name, e.attrs["class"])
		}
		// The row before it (past the cards of the same line) is line 3.
		for j := i - 1; j >= 0; j-- {
			if els[j].name == "tr" && els[j].class("line") {
				if els[j].attrs["data-line"] != "3" || !els[j].class("flag") {
					t.Errorf("the comment's finding follows line %s (flagged %v), want line 3 flagged", els[j].attrs["data-line"], els[j].class("flag"))
				}
				break
			}
		}
		return
	}
	t.Errorf("no element f%d", comment)
}

// The ranking is the order of the findings given: reversed findings
// reverse the kernels.
func TestRankFollowsFindings(t *testing.T) {
	rep, page := analyze(t, map[string]string{"a.cu": strided, "b.cu": swapped})
	first := func(page []byte) string {
		for _, e := range parse(t, page) {
			if e.name == "a" && strings.HasPrefix(e.attrs["href"], "#k") {
				return e.text
			}
		}
		return ""
	}
	kernelOf := func(f *lint.Finding) string { return f.Prediction.Access.Kernel.Name }
	if got, want := first(page), kernelOf(rep.Findings[0]); got != want {
		t.Errorf("first ranked %q, want %q (the first finding's kernel)", got, want)
	}
	slices.Reverse(rep.Findings)
	if got, want := first(write(t, rep)), kernelOf(rep.Findings[0]); got != want {
		t.Errorf("reversed: first ranked %q, want %q", got, want)
	}
}

// Source is text, never markup: a hostile line inside the quoted access
// and beside it stays characters, and bidirectional controls are shown
// as escapes, not obeyed.
func TestHostileSourceEscaped(t *testing.T) {
	hostile := "</script><img src=x onerror=alert(1)>"
	src := strings.Replace(strided, "out[i] = in[32 * i];",
		"out[i] = in[32 * i /* "+hostile+" */]; // "+hostile+" \u202egnp.exe", 1)
	rep, page := analyze(t, map[string]string{"a.cu": src})
	if len(rep.Findings) == 0 {
		t.Fatal("no finding on the hostile line")
	}
	for _, bad := range []string{hostile, "<img", "\u202e"} {
		if bytes.Contains(page, []byte(bad)) {
			t.Errorf("page holds %q unescaped", bad)
		}
	}
	var code, msg bool
	for _, e := range parse(t, page) {
		if e.name == "td" && e.class("code") && strings.Contains(e.text, hostile) && strings.Contains(e.text, `\u202egnp.exe`) {
			code = true
		}
		if e.name == "p" && e.class("msg") && strings.Contains(e.text, hostile) {
			msg = true
		}
		if e.name == "img" || e.name == "script" && e.text != script {
			t.Errorf("markup from the source became an element: <%s>", e.name)
		}
	}
	if !code || !msg {
		t.Errorf("hostile text not shown as text: in the code %v, in the message %v", code, msg)
	}
}

// A long access is shortened where a message quotes it, and a long line
// of source is cut, as every format bounds what it quotes.
func TestLongSourceBounded(t *testing.T) {
	long := "in[32 * i /* " + strings.Repeat("x", 3000) + " */]"
	src := strings.Replace(strided, "in[32 * i]", long, 1)
	rep, page := analyze(t, map[string]string{"a.cu": src})
	if len(rep.Findings) == 0 {
		t.Fatal("no finding on the long access")
	}
	var msgs, lines int
	for _, e := range parse(t, page) {
		switch {
		case e.name == "p" && e.class("msg"):
			msgs++
			if strings.Contains(e.text, long) || !strings.Contains(e.text, "…") {
				t.Errorf("message quotes the access whole: %d bytes", len(e.text))
			}
		case e.name == "td" && e.class("code") && strings.Contains(e.text, "xxxx"):
			lines++
			if len(e.text) > maxLine+len("…") || !strings.HasSuffix(e.text, "…") {
				t.Errorf("source line not cut: %d bytes", len(e.text))
			}
		}
	}
	if msgs == 0 || lines == 0 {
		t.Errorf("%d messages, %d long lines on the page", msgs, lines)
	}
}

func TestHeat(t *testing.T) {
	for _, c := range []struct {
		ratio float64
		want  string
	}{{1, "h0"}, {1.04, "h0"}, {1.25, "h1"}, {1.5, "h2"}, {2, "h3"}, {3.9, "h3"}, {4, "h4"}, {32, "h4"}} {
		if got := heat(c.ratio); got != c.want {
			t.Errorf("heat(%v) = %s, want %s", c.ratio, got, c.want)
		}
	}
}

func TestVisible(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a[i] < b && c", "a[i] < b && c"},
		{"\tx\n", "\tx\\n"},
		{"a\r\nb", `a\r\nb`},
		{"##[add-mask]", `##\x5badd-mask]`},
		{"a\x1b[31mb", `a\x1b[31mb`},
		{"x\u202ey", `x\u202ey`},
		{"x\u2028y", `x\u2028y`},
		{"\xffz", `\xffz`},
		{"é→█", "é→█"},
	} {
		if got := visible(c.in); got != c.want {
			t.Errorf("visible(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCut(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{{"abc", 3, "abc"}, {"abcd", 3, "abc…"}, {"aé", 2, "a…"}} {
		if got := cut(c.in, c.n); got != c.want {
			t.Errorf("cut(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
