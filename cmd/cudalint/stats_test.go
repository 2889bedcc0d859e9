package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/lex"
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
  asm volatile("wgmma.fence.sync.aligned;");
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
		".cu and .cuh files": "2",
		"files read, headers included (the summary's count)": "2",
		"__global__ definitions in the source":               "3",
		"kernels found":                                      "3",
		"kernels fully analyzed":                             "2  66.7%",
		"statements skipped in kernels":                      "1",
		"global accesses":                                    "7",
		"performed by no lane under their launch":            "3", // k<0>'s else branch: idx[i], in[idx[i]], out[i]
		"modelled with a number":                             "4  100.0% of those performed",
		"kernels partly analyzed":                            "1",
		"__global__ definitions not found as kernels":        "0",
	}
	for label, value := range want {
		re := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(label) + `\s+(.*?)\s*$`)
		m := re.FindStringSubmatch(out)
		if m == nil || m[1] != value {
			t.Errorf("%s: got %q, want %q\n%s", label, m, value, out)
		}
	}
	// The partly analyzed kernel is named, with its cause.
	if !regexp.MustCompile(`(?m)^  skipped \(.*a\.cu:6\)\s+1  skipped: inline assembly: wgmma\.fence\.sync\.aligned is not modelled ×1$`).MatchString(out) {
		t.Errorf("the kernel partly analyzed is not listed with its cause:\n%s", out)
	}
	// The gather in the branch k<0> never takes is not an unknown.
	if strings.Contains(out, "unknown:") {
		t.Errorf("an access no lane performs counted as unknown:\n%s", out)
	}
}

// A __global__ definition that is no kernel found is counted with its
// cause: one in a #define (its expansions are the kernels), one under an
// #if not taken.
func TestStatsDefinitionsNotFound(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.cu": `#define KERNEL(name) __global__ void name(float* p) { p[threadIdx.x] = 0; }
KERNEL(zero)
#if 0
__global__ void gone(float* p) { p[threadIdx.x] = 1; }
#endif
__global__ void __launch_bounds__(256) kept(float* p) { p[threadIdx.x] = 2; }
`,
	})
	code, out, errs := runCLI("--stats", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		`(?m)^kernels found\s+2$`,
		`(?m)^__global__ definitions not found as kernels\s+2\s+name \(.*a\.cu:1\), gone \(.*a\.cu:4\)$`,
		`(?m)^  written in a #define: the kernels it expands to are counted where it is used\s+1$`,
		`(?m)^  not in the code the preprocessor kept \(an #if not taken, or a file not read\)\s+1$`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("no line matching %s:\n%s", want, out)
		}
	}
}

// A kernel with no memory access is counted, and named when nothing
// says why: a kernel that only computes, or one the model lost without a
// word. A call cudalint does not follow, given a pointer to global
// memory (a library's rng_init), is a note, so its kernel is not
// silent.
func TestStatsKernelsWithNoAccess(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.cu": `__global__ void compute(int n) { int x = n * 2; (void)x; }
__global__ void init(rngState* states, unsigned seed) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  rng_init(seed, tid, 0, &states[tid]);
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
		`(?m)^  call to rng_init, which cudalint does not follow, with a pointer to global memory .*\s+1$`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("no line matching %s:\n%s", want, out)
		}
	}
}

// Every note the parser and preprocessor make has a kind with a --stats
// line of its own, never one folded from the message: the kinds that
// name a subject name it.
func TestEveryNoteKindHasALabel(t *testing.T) {
	sources := []string{
		"#include \"missing.h\"\n#define\n#define F(a 1) a\n#define G(a\n#if 1 +\n#endif\n#else\n#if 1\n#else\n#else\n#endif\n#endif\n",
		"__global__ void k(float *a, int n) {\n if (n ?) a[0] = 1;\n for (int i = 0 ?; i < n; i++) a[i] = 0;\n" +
			" for (int j = 0; j < 4 ?: 3; j += ?) a[j] = 0;\n switch (n) { case ?: break; }\n for (auto x : n) a[0] = x;\n}\n",
		"__global__ void *(float *a) { a[0] = 0; }\n__global__ void u(float *a) { a[0] = (1; }\n",
		"__global__ void s() { char c = 'x; }\n",
		"__global__ void s() { const char *c = \"x; }\n",
		"/* never closed",
	}
	seen := map[lex.NoteKind]bool{}
	for _, src := range sources {
		f := parser.Parse("t.cu", []byte(src), parser.Config{})
		for _, n := range f.Notes {
			seen[n.Kind] = true
			if n.Kind == lex.NoteRemark {
				t.Errorf("%q has no kind", n.Msg)
			}
			if l := noteLabel(n); l == noteLabels[lex.NoteRemark] || (n.Subject != "" && !strings.Contains(l, n.Subject)) {
				t.Errorf("%q (kind %d) counts under %q", n.Msg, n.Kind, l)
			}
		}
	}
	for _, k := range []lex.NoteKind{lex.NoteIncludeNotFound, lex.NoteDefineWithoutName, lex.NoteBadMacroParam,
		lex.NoteIfNotEvaluable, lex.NoteElseAfterElse, lex.NoteWithoutIf, lex.NoteCondition, lex.NoteForInit, lex.NoteForCondition,
		lex.NoteForStep, lex.NoteCaseValue, lex.NoteForHeader, lex.NoteNamelessFunction, lex.NoteUnterminatedComment,
		lex.NoteUnterminatedString, lex.NoteUnterminatedChar} {
		if !seen[k] {
			t.Errorf("no note of kind %d: the test sources no longer produce it", k)
		}
	}
	for k := lex.NoteRemark; k <= lex.NoteInvalidLaunch; k++ {
		_, fixed := noteLabels[k]
		_, named := subjectLabels[k]
		if fixed == named {
			t.Errorf("note kind %d has %d labels, want 1", k, map[bool]int{true: 2, false: 0}[fixed])
		}
	}
}
