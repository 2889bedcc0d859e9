package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/driver"
)

// A 2D kernel with swapped axes under a square launch: --fix rewrites it.
const swappedKernel = `__global__ void sw(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[x * w + y] = in[x * w + y];
}
void host(float* a, float* b) { sw<<<dim3(64, 64), dim3(16, 16)>>>(a, b, 1024); }
`

const swappedKernelFixed = `__global__ void sw(const float* in, float* out, int w) {
    int x = blockIdx.y * blockDim.y + threadIdx.y;
    int y = blockIdx.x * blockDim.x + threadIdx.x;
    out[x * w + y] = in[x * w + y];
}
void host(float* a, float* b) { sw<<<dim3(64, 64), dim3(16, 16)>>>(a, b, 1024); }
`

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// --fix leaves alone what it cannot swap safely, and the finding says why.
func TestFixDeclines(t *testing.T) {
	tests := []struct {
		name, src, why string
	}{
		{"an index macro a 1D kernel uses too", `#define TILE_IDX (blockIdx.x * blockDim.x + threadIdx.x)
__global__ void rows(float* v, int w) {
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    v[TILE_IDX * w + col] = 0;
}
__global__ void flat(float* v) { v[TILE_IDX] = 1; }
void host(float* v) {
    rows<<<dim3(64, 64), dim3(16, 16)>>>(v, 1024);
    flat<<<64, 256>>>(v);
}
`, "--fix leaves it: blockIdx.x comes from macro TILE_IDX"},
		{"a 1920x1080 image grid", `__global__ void bright(unsigned char* img, int width) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    img[row * width + col] += 40;
}
void host(unsigned char* img) {
    dim3 block(16, 16);
    bright<<<dim3(1080 / 16, 1920 / 16), block>>>(img, 1920);
}
`, "--fix leaves it: the launch at k.cu:8 uses grid 67x120, not square"},
		{"a grid the host computes at run time", `__global__ void bright(unsigned char* img, int width) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    img[row * width + col] += 40;
}
void host(unsigned char* img, int width, int height) {
    bright<<<dim3(height / 16, width / 16), dim3(16, 16)>>>(img, width);
}
`, "--fix leaves it: the launch at k.cu:7 gives no constant grid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"k.cu": tt.src})
			t.Chdir(dir)
			code, out, errs := runCLI("--fix", "k.cu")
			if got := readFile(t, "k.cu"); got != tt.src {
				t.Errorf("--fix changed the file:\n%s", got)
			}
			if code != exitFindings || !strings.Contains(out, tt.why) {
				t.Errorf("exit %d, want %d; output lacks %q:\n%s%s", code, exitFindings, tt.why, out, errs)
			}
		})
	}
}

// A header reached through ../ or a symbolic link is not written; a
// kernel inside the root still is.
func TestFixStaysInsideTheRoot(t *testing.T) {
	base := writeFiles(t, map[string]string{
		"root/main.cu":         "#include \"../shared/k.cuh\"\nvoid h2(float* a, float* b) { ext<<<dim3(8, 8), dim3(16, 16)>>>(a, b, 1024); }\n",
		"root/own.cu":          swappedKernel,
		"root/linked.cu":       "#include \"link.cuh\"\nvoid h3(float* a, float* b) { lnk<<<dim3(8, 8), dim3(16, 16)>>>(a, b, 1024); }\n",
		"shared/k.cuh":         strings.ReplaceAll(swappedKernel[:strings.Index(swappedKernel, "void host")], "sw(", "ext("),
		"shared/l.cuh":         strings.ReplaceAll(swappedKernel[:strings.Index(swappedKernel, "void host")], "sw(", "lnk("),
		"root/.git/HEAD":       "ref: refs/heads/main\n",
		"root/sub/placeholder": "",
	})
	root := filepath.Join(base, "root")
	if err := os.Symlink(filepath.Join(base, "shared", "l.cuh"), filepath.Join(root, "link.cuh")); err != nil {
		t.Fatal(err)
	}
	before := map[string]string{"k.cuh": readFile(t, filepath.Join(base, "shared/k.cuh")), "l.cuh": readFile(t, filepath.Join(base, "shared/l.cuh"))}
	t.Chdir(filepath.Join(root, "sub")) // the root is the repository's, above the working directory
	// -I lets the run read the headers, so that the fix itself must refuse them.
	_, _, errs := runCLI("--fix", "-I", filepath.Join(base, "shared"), root)
	for name, text := range before {
		if got := readFile(t, filepath.Join(base, "shared", name)); got != text {
			t.Errorf("%s, outside the root, was written:\n%s", name, got)
		}
	}
	if got := readFile(t, filepath.Join(root, "own.cu")); got != swappedKernelFixed {
		t.Errorf("own.cu, inside the root, was not fixed:\n%s\n%s", got, errs)
	}
	for _, want := range []string{"k.cuh: it is outside the root", "link.cuh: it is a symbolic link"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
}

// A file that cannot be written is reported (exit 2); the other files
// are still fixed, their original text is never left truncated, and the
// findings are still printed.
func TestFixWriteError(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.cu": swappedKernel, "b.cu": strings.ReplaceAll(swappedKernel, "sw", "sw2")})
	t.Chdir(dir)
	saved := writeFixed
	defer func() { writeFixed = saved }()
	writeFixed = func(path string, data []byte) error {
		if filepath.Base(path) == "a.cu" {
			return errors.New("no space left on device")
		}
		return driver.WriteFileAtomic(path, data)
	}
	code, out, errs := runCLI("--fix", ".")
	if code != exitError {
		t.Errorf("exit %d, want %d", code, exitError)
	}
	if !strings.Contains(errs, "a.cu: no space left on device") {
		t.Errorf("stderr lacks the write error:\n%s", errs)
	}
	if got := readFile(t, "a.cu"); got != swappedKernel {
		t.Errorf("a.cu changed:\n%s", got)
	}
	if got := readFile(t, "b.cu"); got != strings.ReplaceAll(swappedKernelFixed, "sw", "sw2") {
		t.Errorf("b.cu was not fixed:\n%s", got)
	}
	if !strings.Contains(out, "a.cu:4:5: warning: store out[x * w + y]") || strings.Contains(out, "b.cu") {
		t.Errorf("findings printed:\n%s", out)
	}
}

// A folder that refuses new files (no temporary file can be made there)
// leaves the file as it was. Root writes anyway, so this needs a user.
func TestFixReadOnlyFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores folder permissions")
	}
	dir := writeFiles(t, map[string]string{"ro/a.cu": swappedKernel})
	t.Chdir(dir)
	if err := os.Chmod("ro", 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod("ro", 0o755)
	code, _, errs := runCLI("--fix", "ro")
	if code != exitError || !strings.Contains(errs, "permission denied") || readFile(t, "ro/a.cu") != swappedKernel {
		t.Errorf("exit %d, stderr %s", code, errs)
	}
}

// --diff prints what --fix would write and writes nothing; the diff is
// exactly what --fix then does, and a second --fix changes nothing.
func TestDiffThenFix(t *testing.T) {
	dir := writeFiles(t, map[string]string{"src/k.cu": swappedKernel})
	t.Chdir(dir)
	code, out, errs := runCLI("--diff", "src")
	want := `--- a/src/k.cu
+++ b/src/k.cu
@@ -1,6 +1,6 @@
 __global__ void sw(const float* in, float* out, int w) {
-    int x = blockIdx.x * blockDim.x + threadIdx.x;
-    int y = blockIdx.y * blockDim.y + threadIdx.y;
+    int x = blockIdx.y * blockDim.y + threadIdx.y;
+    int y = blockIdx.x * blockDim.x + threadIdx.x;
     out[x * w + y] = in[x * w + y];
 }
 void host(float* a, float* b) { sw<<<dim3(64, 64), dim3(16, 16)>>>(a, b, 1024); }
`
	if code != exitFindings || out != want {
		t.Errorf("--diff: exit %d\n%s\nwant:\n%s\n%s", code, out, want, errs)
	}
	if got := readFile(t, "src/k.cu"); got != swappedKernel {
		t.Errorf("--diff wrote the file:\n%s", got)
	}
	runCLI("--fix", "src")
	if got := readFile(t, "src/k.cu"); got != swappedKernelFixed {
		t.Errorf("--fix:\n%s", got)
	}
	info, _ := os.Stat("src/k.cu")
	if info.Mode().Perm() != 0o644 {
		t.Errorf("mode %v after --fix, want 0644", info.Mode())
	}
	if entries, _ := os.ReadDir("src"); len(entries) != 1 {
		t.Errorf("files left in src: %v", entries)
	}
	code, out, _ = runCLI("--fix", "src")
	if got := readFile(t, "src/k.cu"); got != swappedKernelFixed || code != exitOK || out != "no findings in 1 file\n" {
		t.Errorf("a second --fix: exit %d, %q, file:\n%s", code, out, got)
	}
	if code, out, _ := runCLI("--diff", "src"); code != exitOK || out != "" {
		t.Errorf("--diff after --fix: exit %d, %q", code, out)
	}
}

func TestDiffFlagConflicts(t *testing.T) {
	dir := writeFiles(t, map[string]string{"k.cu": swappedKernel})
	path := filepath.Join(dir, "k.cu")
	for _, args := range [][]string{{"--diff", "--fix", path}, {"--diff", "--format", "json", path}, {"--diff", "--accesses", path}} {
		if code, _, errs := runCLI(args...); code != exitError || !strings.Contains(errs, "--diff") {
			t.Errorf("%v: exit %d, %s", args, code, errs)
		}
	}
	if got := readFile(t, path); got != swappedKernel {
		t.Errorf("the file changed:\n%s", got)
	}
}
