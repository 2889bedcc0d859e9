package lsp

import (
	"strings"
	"testing"
)

// An access in a helper is a diagnostic at the kernel's call with the
// helper's access as related information; hovering the call shows the
// accesses it reaches, hovering the helper's access every call's cost.
func TestHelperAtCallSite(t *testing.T) {
	src := `__device__ float get(const float* a, int i) { return a[i]; }
__global__ void k(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = get(in, 4 * i);
    float y = get(in, 8 * i);
    out[i] = x + y;
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }
`
	dir := t.TempDir()
	path := writeFile(t, dir, "k.cu", src)
	c := newClient(t)
	c.initialize(nil)
	uri := c.open(path, src)
	p := c.diagnostics(uri)
	var lines []int
	for _, d := range p.Diagnostics {
		lines = append(lines, d.Range.Start.Line)
		if len(d.RelatedInformation) != 2 || d.RelatedInformation[1].Location.Range.Start.Line != 0 ||
			!strings.Contains(d.RelatedInformation[1].Message, "the load a[i] is here, in get()") {
			t.Errorf("line %d: related %+v, want the launch and the helper's access", d.Range.Start.Line, d.RelatedInformation)
		}
	}
	if len(lines) != 2 || lines[0] != 3 || lines[1] != 4 {
		t.Fatalf("diagnostics on lines %v (from 0), want the calls, 3 and 4", lines)
	}
	hover := func(pos Position) string {
		var h Hover
		c.result("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": pos}, &h)
		return h.Contents.Value
	}
	atCall := hover(Position{4, 16})
	for _, want := range []string{"`a[i]`", "through get\\(in, 8 \\* i\\) at k.cu:5", "sectors/request: **32.00**"} {
		if !strings.Contains(atCall, want) {
			t.Errorf("hover at the second call lacks %q:\n%s", want, atCall)
		}
	}
	if strings.Contains(atCall, "**16.00**") {
		t.Errorf("hover at the second call shows the first call's cost:\n%s", atCall)
	}
	atHelper := hover(Position{0, 54})
	for _, want := range []string{"**16.00**", "**32.00**", "at k.cu:4", "at k.cu:5"} {
		if !strings.Contains(atHelper, want) {
			t.Errorf("hover at the helper's access lacks %q:\n%s", want, atHelper)
		}
	}
}
