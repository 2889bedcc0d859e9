package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
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

func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

const copyKernel = "__global__ void copy(const float* a, float* b) { int i = blockIdx.x * blockDim.x + threadIdx.x; b[i] = a[2 * i]; }\n"

// A path that is missing or unusable is an error on stderr with exit
// status 2, and every other file is still analyzed.
func TestBadPathsDoNotStopTheRun(t *testing.T) {
	dir := writeFiles(t, map[string]string{"ok.cu": copyKernel})
	missing := filepath.Join(dir, "missing.cu")
	code, out, errs := runCLI("--accesses", missing, "/dev/null", filepath.Join(dir, "ok.cu"))
	if code != exitError {
		t.Errorf("exit %d, want %d", code, exitError)
	}
	for _, want := range []string{missing + ": no such file or directory", "/dev/null: not a regular file"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr %q lacks %q", errs, want)
		}
	}
	if !strings.Contains(out, "a[2 * i]") {
		t.Errorf("ok.cu was not analyzed:\n%s", out)
	}
}

func TestWalk(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"k/a.cu":            copyKernel,
		"k/b.cuh":           strings.ReplaceAll(copyKernel, "copy", "copy_h"),
		"k/notes.txt":       copyKernel,
		"k/.hidden/c.cu":    strings.ReplaceAll(copyKernel, "copy", "copy_hidden"),
		"k/sub/d.CU":        strings.ReplaceAll(copyKernel, "copy", "copy_upper"),
		"k/inc/main.cu":     "#include \"part.cuh\"\n",
		"k/inc/part.cuh":    strings.ReplaceAll(copyKernel, "copy", "copy_part"),
		"k/binary.cu":       "\x00\x01\x02\xff\xfe garbage \x00",
		"k/crlf.cu":         strings.ReplaceAll(strings.ReplaceAll(copyKernel, "copy", "copy_crlf"), "\n", "\r\n"),
		"k/unterminated.cu": "__global__ void broken(float* a) { a[threadIdx.x] = 0;\n",
	})
	doc := runAccesses(t, "--accesses", "--format", "json", filepath.Join(dir, "k"))
	kernels := map[string]int{}
	for _, a := range doc.Accesses {
		kernels[a.Kernel]++
	}
	for _, k := range []string{"copy", "copy_h", "copy_upper", "copy_part", "copy_crlf", "broken"} {
		if kernels[k] == 0 {
			t.Errorf("kernel %s missing; got %v", k, kernels)
		}
	}
	if kernels["copy_hidden"] != 0 {
		t.Error("a hidden folder was searched")
	}
	if kernels["copy_part"] != 2 {
		t.Errorf("copy_part analyzed %d times: an included file must be analyzed once, with its includer", kernels["copy_part"]/2)
	}
	var sawBinary, sawUnmatched bool
	for _, n := range doc.Notes {
		sawBinary = sawBinary || strings.HasSuffix(n.File, "binary.cu")
		sawUnmatched = sawUnmatched || (strings.HasSuffix(n.File, "unterminated.cu") && n.Line == 1 && strings.Contains(n.Message, "unmatched"))
	}
	if !sawBinary || !sawUnmatched {
		t.Errorf("notes %+v: want notes for binary.cu and the unmatched brace", doc.Notes)
	}
}

func TestAccessJSONFields(t *testing.T) {
	dir := writeFiles(t, map[string]string{"k.cu": copyKernel + "void h(float* a, float* b) { copy<<<64, 128>>>(a, b); }\n"})
	code, out, errs := runCLI("--format", "json", "--accesses", filepath.Join(dir, "k.cu"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Accesses []map[string]any `json:"accesses"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Accesses) != 2 {
		t.Fatalf("%d accesses", len(doc.Accesses))
	}
	load := doc.Accesses[1]
	want := map[string]any{
		"line": 1.0, "column": 104.0, "kernel": "copy", "op": "load", "expr": "a[2 * i]", "elementBytes": 4.0,
		"sectorsPerRequest": 8.0, "idealSectorsPerRequest": 4.0, "laneStrideBytes": 8.0, "blockSource": "launch",
	}
	for k, v := range want {
		if load[k] != v {
			t.Errorf("%s = %v, want %v", k, load[k], v)
		}
	}
	if b, ok := load["block"].([]any); !ok || len(b) != 3 || b[0] != 128.0 {
		t.Errorf("block = %v", load["block"])
	}
}

func TestFlags(t *testing.T) {
	dir := writeFiles(t, map[string]string{"k.cu": `
#ifdef WIDE
#define STRIDE 8
#else
#define STRIDE 1
#endif
__global__ void s(const float* a, float* b, int n) { b[threadIdx.x] = a[threadIdx.x * STRIDE * n]; }
`})
	path := filepath.Join(dir, "k.cu")
	rows := accessTable(t, "--accesses", "--format", "json", path, "-D", "WIDE", "--param", "s.n=1", "--block", "s=32")
	for _, r := range rows {
		if r.Op == "load" && (r.SectorsPerRequest == nil || *r.SectorsPerRequest != 32 || r.BlockSource != "config") {
			t.Errorf("load: %+v", r)
		}
	}
	for _, bad := range [][]string{{"--format", "xml", path}, {"--block", "s=0x4", path}, {"--param", "n", path}, {}} {
		if code, _, errs := runCLI(bad...); code != exitError || errs == "" {
			t.Errorf("%v: exit %d, stderr %q", bad, code, errs)
		}
	}
}

// TestUnrolledJSON: an access in an unrolled loop carries the cost of
// each copy of the body in --accesses JSON, and says they differ.
func TestUnrolledJSON(t *testing.T) {
	dir := writeFiles(t, map[string]string{"k.cu": `
__global__ void k(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
#pragma unroll
    for (int r = 0; r < 4; r++) acc += in[r * w + x];
    out[x] = acc;
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b, 1001); }
`})
	rows := accessTable(t, "--accesses", "--format", "json", filepath.Join(dir, "k.cu"))
	for _, r := range rows {
		if r.Op != "load" {
			if r.Unrolled != nil {
				t.Errorf("store after the loop has copies: %+v", r.Unrolled)
			}
			continue
		}
		u := r.Unrolled
		if u == nil || len(u.Loops) != 1 || u.Loops[0].Var != "r" || u.Loops[0].Trip != 4 || u.Loops[0].Copies != 4 || len(u.Copies) != 4 {
			t.Fatalf("load: unrolled %+v", u)
		}
		var got []float64
		for _, c := range u.Copies {
			got = append(got, *c.SectorsPerRequest)
		}
		if !slices.Equal(got, []float64{4, 5, 5, 5}) || u.Note != "iterations cost 4, 5, 5, 5 sectors (r = 0: 4; r = 1..3: 5)" {
			t.Errorf("copies %v, note %q", got, u.Note)
		}
	}
}
