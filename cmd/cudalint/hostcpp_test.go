package main

import (
	"strings"
	"testing"
)

// --stats counts the C++ files read for launch values and says which
// could not be read; the findings and the file count are the CUDA
// files' alone, and --no-host-cpp reads none.
func TestStatsHostCpp(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"k.cu": `__global__ void scale(float* d, int n, int stride) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i * stride] *= 2.0f;
}
extern "C" void run(float* d, int n, int stride) { scale<<<(n + 255) / 256, 256>>>(d, n, stride); }
`,
		"main.cpp":   "extern \"C\" void run(float* d, int n, int stride);\nint main() { run(0, 1 << 20, 32); }\n",
		"broken.cpp": "extern \"C\" void run(float* d, int n, int stride);\nvoid f() { run(0, 64, 1); }\nclass X { int g( { ] ;\n",
		"other.cpp":  "int main() { return 0; }\n",
	})
	tests := []struct {
		args []string
		want []string
		not  []string
	}{
		{args: []string{"--stats", "--root", dir, dir},
			want: []string{"C++ host files read for launch values  2", "broken.cpp: ", "parse notes, the first at 3:"},
			not:  []string{"other.cpp", "main.cpp"}},
		{args: []string{"--stats", "--no-host-cpp", "--root", dir, dir},
			not: []string{"C++ host files", "broken.cpp"}},
	}
	for _, tt := range tests {
		code, out, errs := runCLI(tt.args...)
		if code != exitOK || errs != "" {
			t.Fatalf("%v: exit %d: %s", tt.args, code, errs)
		}
		for _, w := range tt.want {
			if !strings.Contains(squeeze(out), w) {
				t.Errorf("%v: want %q in\n%s", tt.args, w, out)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(out, n) {
				t.Errorf("%v: %q in\n%s", tt.args, n, out)
			}
		}
	}
	// The findings: main.cpp's stride of 32 floats makes the access
	// strided; the count of files is the CUDA file's.
	code, out, _ := runCLI("--root", dir, "--no-snippet", dir)
	if code != exitFindings || !strings.Contains(out, "strided-access") || !strings.Contains(out, "in 1 file") || strings.Contains(out, ".cpp") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// squeeze writes every run of spaces as two, as the tab writer aligns.
func squeeze(s string) string {
	for strings.Contains(s, "   ") {
		s = strings.ReplaceAll(s, "   ", "  ")
	}
	return s
}
