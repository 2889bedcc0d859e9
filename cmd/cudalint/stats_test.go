package main

import (
	"regexp"
	"strings"
	"testing"
)

// --stats counts what a code base's analysis reached, by cause.
func TestStats(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.cu": `template <int MODE> __global__ void k(const float* in, const int* idx, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (MODE == 0) out[i] = in[i];       // performed
  else out[i] = in[idx[i]];            // performed by no lane of k<0>
}
__global__ void skipped(float* out) {
  asm volatile("membar.gl;");
  out[threadIdx.x] = 0;
}
void h(float* a, int* b, float* c) { k<0><<<4, 256>>>(a, b, c); skipped<<<1, 32>>>(c); }
`,
		"b.cuh": "__global__ void unused(float* p) { p[threadIdx.x] = 1; }\n",
	})
	code, out, errs := runCLI("--stats", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := map[string]string{
		"files":                                   "2",
		"__global__ definitions in the source":    "3",
		"kernels found":                           "3",
		"kernels fully analyzed":                  "2  66.7%",
		"statements skipped in kernels":           "1",
		"global accesses":                         "7",
		"performed by no lane under their launch": "3", // k<0>'s else branch: idx[i], in[idx[i]], out[i]
		"modelled with a number":                  "4  100.0% of those performed",
	}
	for label, value := range want {
		re := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(label) + `\s+(.*?)\s*$`)
		m := re.FindStringSubmatch(out)
		if m == nil || m[1] != value {
			t.Errorf("%s: got %q, want %q\n%s", label, m, value, out)
		}
	}
	// The gather in the branch k<0> never takes is not an unknown.
	if strings.Contains(out, "unknown:") {
		t.Errorf("an access no lane performs counted as unknown:\n%s", out)
	}
}

// A kernel with no memory access is counted, and named when nothing
// says why: a kernel that only computes, or one the model lost without a
// word. A call cudalint does not follow, given a pointer to global
// memory (a library's curand_init), is a note, so its kernel is not
// silent.
func TestStatsKernelsWithNoAccess(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.cu": `__global__ void compute(int n) { int x = n * 2; (void)x; }
__global__ void init(curandState* states, unsigned seed) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, tid, 0, &states[tid]);
}
__global__ void copy(const float* in, float* out) { out[threadIdx.x] = in[threadIdx.x]; }
`,
	})
	code, out, errs := runCLI("--stats", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		`(?m)^kernels with no memory access\s+2$`,
		`(?m)^  fully analyzed, with no note\s+1\s+compute \(.*a\.cu:1\)$`,
		`(?m)^  call to curand_init, which cudalint does not follow, with a pointer to global memory .*\s+1$`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("no line matching %s:\n%s", want, out)
		}
	}
}
