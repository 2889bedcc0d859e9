package driver

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestScanContext(t *testing.T) {
	tests := []struct {
		name, src string
		kernels   []string
		launched  []string
		includes  []string
	}{
		{name: "a kernel and its launch",
			src:     "__global__ void sum(float* a) {}\nvoid run() { sum<<<1, 32>>>(a); }\n",
			kernels: []string{"sum"}, launched: []string{"sum"}},
		{name: "attributes skipped",
			src:     "__global__ void __launch_bounds__(256, 2) reduce(float* a);\n",
			kernels: []string{"reduce"}},
		{name: "a qualified, templated launch under a condition",
			src:      "void run(bool f) { if (f) { ns::fill<float><<<g, b, 0, s>>>(p); } }\n",
			launched: []string{"fill", "float", "ns"}},
		{name: "a launch in a comment or a string is none",
			src: "void run() {\n  // sum<<<1, 1>>>(a);\n  /* sum<<<1,1>>> */ puts(\"sum<<<1,1>>>\");\n}\n"},
		{name: "a kernel's name in a comment before a launch",
			src:      "void run() {\n  // the sum of the values\n  other<<<1, 32>>>(a);\n}\n",
			launched: []string{"other"}},
		{name: "a __global__ in a comment declares nothing",
			src: "// __global__ void old(float* a) was removed\n/* __global__ void older(int) */\n"},
		{name: "includes, quoted and angled",
			src:      "#include \"../common/kern.cuh\"\n  #  include <cub/cub.cuh>\n#include_next <x.h>\n",
			includes: []string{"cub.cuh", "kern.cuh"}},
		{name: "an include in a comment or a string is none",
			src: "/*\n#include \"kern.cuh\"\n*/\n// #include \"kern.cuh\"\nconst char* s = \"#include \\\"kern.cuh\\\"\";\n"},
		{name: "a name on the next line is not included",
			src: "#include\n\"kern.cuh\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := scanContext([]byte(tt.src))
			if !reflect.DeepEqual(c.kernels, tt.kernels) {
				t.Errorf("kernels %q, want %q", c.kernels, tt.kernels)
			}
			if got := keys(c.launched); !reflect.DeepEqual(got, tt.launched) {
				t.Errorf("launched %q, want %q", got, tt.launched)
			}
			if got := keys(c.includes); !reflect.DeepEqual(got, tt.includes) {
				t.Errorf("includes %q, want %q", got, tt.includes)
			}
		})
	}
}

// A file named alone pulls in the files whose tokens launch its kernels
// or include it (in turn), never one that only mentions a kernel's name
// or an include in a comment; the facts are kept per file between runs
// and read again only when the file changes.
func TestContextFilesBySyntax(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"kern.cu":   "__global__ void sum(float* a) { a[threadIdx.x] = 0; }\n",
		// Launches sum: in.
		"launcher.cu": "void run(float* a) { sum<<<1, 32>>>(a); }\n",
		// sum in a comment just before another kernel's launch: out.
		"comment.cu": "__global__ void other(float* a) {}\nvoid go(float* a) {\n  // sum the rows\n  other<<<1, 32>>>(a);\n}\n",
		// An include in a comment: out.
		"commented.cu": "// #include \"kern.cu\"\n/*\n#include \"kern.cu\"\n*/\n",
		// Includes kern.cu: in; and a file including it, in turn: in.
		"includer.cuh": "#include \"kern.cu\"\n",
		"deeper.cu":    "#include \"includer.cuh\"\n",
		// The name in a string: out.
		"string.cu": "const char* s = \"sum<<<1, 32>>>(a);\";\n",
	})
	named := filepath.Join(dir, "kern.cu")
	reads := map[string]int{}
	read := func(path string) ([]byte, error) {
		reads[filepath.Base(path)]++
		return os.ReadFile(path)
	}
	cache := NewContextCache()
	context := func() []string {
		var out []string
		for _, f := range contextFiles(dir, []string{named}, []string{named}, read, cache) {
			out = append(out, filepath.Base(f))
		}
		sort.Strings(out)
		return out
	}
	want := []string{"deeper.cu", "includer.cuh", "launcher.cu"}
	if got := context(); !reflect.DeepEqual(got, want) {
		t.Fatalf("context %q, want %q", got, want)
	}
	if reads["comment.cu"] != 1 || reads["kern.cu"] != 1 {
		t.Fatalf("reads %v, want one of each file", reads)
	}
	// Again: only the named file is read again.
	if got := context(); !reflect.DeepEqual(got, want) {
		t.Fatalf("second run: context %q, want %q", got, want)
	}
	if reads["comment.cu"] != 1 || reads["kern.cu"] != 2 {
		t.Errorf("second run reads %v, want the named file alone read again", reads)
	}
	// comment.cu now launches sum: it is read again and pulled in.
	path := filepath.Join(dir, "comment.cu")
	if err := os.WriteFile(path, []byte("void go(float* a) { sum<<<1, 32>>>(a); }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	os.Chtimes(path, later, later)
	want = []string{"comment.cu", "deeper.cu", "includer.cuh", "launcher.cu"}
	if got := context(); !reflect.DeepEqual(got, want) {
		t.Errorf("after an edit: context %q, want %q", got, want)
	}
	if reads["comment.cu"] != 2 {
		t.Errorf("after an edit, comment.cu read %d times, want 2", reads["comment.cu"])
	}
}

// A named file's kernels, read without lexing where no __global__ can be
// written, as the tokens say otherwise.
func TestKernelsOnly(t *testing.T) {
	for _, src := range []string{
		"void host() {}\n",
		"__global__ void k(float* a) {}\n",
		"__glo\\\nbal__ void spliced(float* a) {}\n",
		"// __global__ void old(float* a)\n",
		"#define X \\\n  1\n__global__ void after(int) {}\n",
	} {
		if got, want := kernelsOnly([]byte(src)).kernels, scanContext([]byte(src)).kernels; !reflect.DeepEqual(got, want) {
			t.Errorf("%q: kernels %q, want %q", src, got, want)
		}
	}
	if got := scanContext([]byte("__glo\\\nbal__ void spliced(float* a) {}\n")).kernels; len(got) != 1 {
		t.Errorf("a spliced __global__: kernels %q, want spliced", got)
	}
}

// An edit of a buffer whose kernels are known reuses them where it
// cannot change them, and gives what a scan of the new text gives
// (kernels and heads); any other edit is scanned again.
func TestKernelsAfterEdit(t *testing.T) {
	const src = "// kernels\n__global__ void __launch_bounds__(256) sum(float* a, int n) {\n" +
		"    int i = blockIdx.x * 256 + threadIdx.x;\n    a[i] = 0;\n}\n" +
		"void run(float* a) { sum<<<1, 256>>>(a, 4); }\n__global__ void tail(int* x);\n"
	tests := []struct {
		name, old, new string
		reused         bool
	}{
		{"a digit in a body", "a[i] = 0;", "a[i] = 12;", true},
		{"an identifier in a body", "int i = blockIdx.x", "int idx = blockIdx.x", true},
		{"an operator in a body", "a[i] = 0;", "a[i] = 0 - 1;", true},
		{"a sign after the edit (a number could run on)", "* 256 +", "* 256 - 1 +", false},
		{"a comment's characters", "a[i] = 0;", "a[i] = 0; /x*", false},
		{"a launch's argument", "(a, 4)", "(a, 44)", true},
		{"the kernel renamed", " sum(float", " summ(float", false},
		{"the kernel's attribute", "(256) sum", "(128) sum", false},
		{"a parameter of the head", "sum(float* a", "sum(double* a", false},
		{"a __global__ written", "void run", "__global__ void run", false},
		{"a __global__ made of two identifiers", "a[i] = 0;", "a[i] = __glo;", true},
		{"a comment opened", "a[i] = 0;", "a[i] = 0; /*", false},
		{"a line comment", "a[i] = 0;", "a[i] = 0; // x", false},
		{"a newline", "a[i] = 0;", "a[i] =\n0;", false},
		{"a string", "a[i] = 0;", "a[i] = \"0;", false},
		{"a line splice", "a[i] = 0;", "a[i] = 0; \\", false},
		{"a brace", "a[i] = 0;", "a[i] = 0; {", false},
		{"next to the last kernel", "void tail", "void tails", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(src, tt.old) {
				t.Fatalf("%q not in the source", tt.old)
			}
			next := strings.Replace(src, tt.old, tt.new, 1)
			got := kernelsAfterEdit([]byte(src), kernelsOnly([]byte(src)), []byte(next))
			if (got != nil) != tt.reused {
				t.Fatalf("reused %v, want %v", got != nil, tt.reused)
			}
			if got != nil {
				want := kernelsOnly([]byte(next))
				if !reflect.DeepEqual(got.kernels, want.kernels) || !reflect.DeepEqual(got.heads, want.heads) {
					t.Errorf("after the edit: kernels %q heads %v, a scan gives %q %v", got.kernels, got.heads, want.kernels, want.heads)
				}
			}
		})
	}
}

// Random edits of the repository's CUDA files: whenever the kernels are
// reused, they are the new text's.
func TestKernelsAfterEditRandom(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/*.cu")
	more, _ := filepath.Glob("../examples/*.cu")
	paths = append(paths, more...)
	if len(paths) == 0 {
		t.Fatal("no files")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"x", "1", " ", "+", "-", ".", "e", "_", "__global__", "__", "global", "(", ";", "{", "/", "*", "\n", "\"", "'", "\\", "#", "<", "y2", ""}
	reused := 0
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		cur := raw
		facts := kernelsOnly(cur)
		for i := 0; i < 300; i++ {
			at := rng.IntN(len(cur) + 1)
			cut := min(len(cur)-at, rng.IntN(4))
			ins := pieces[rng.IntN(len(pieces))]
			next := append(append(append([]byte(nil), cur[:at]...), ins...), cur[at+cut:]...)
			want := kernelsOnly(next)
			if got := kernelsAfterEdit(cur, facts, next); got != nil {
				reused++
				if !reflect.DeepEqual(got.kernels, want.kernels) || !reflect.DeepEqual(got.heads, want.heads) {
					t.Fatalf("%s: %q at %d (cut %d): kernels %q heads %v, a scan gives %q %v", p, ins, at, cut, got.kernels, got.heads, want.kernels, want.heads)
				}
			}
			cur, facts = next, want
		}
	}
	if reused == 0 {
		t.Error("no edit reused the kernels")
	}
}
