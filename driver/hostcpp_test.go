package driver

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/sources"
)

// runCu is a CUDA file whose host function run() launches its kernel
// with sizes only its caller knows.
const runCu = `__global__ void scale(float* d, int n, int stride) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i * stride] *= 2.0f;
}
extern "C" void run(float* d, int n, int stride) {
    scale<<<(n + 255) / 256, 256>>>(d, n, stride);
}
`

// A C++ file that calls a launching host function of the run is read for
// its host code: the values its main() passes reach the launch. One that
// calls nothing of ours is not read, and one that fails to parse leaves
// the CUDA file's results as without it, with a line for --stats.
func TestHostCppContext(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		opts  func(*Options)
		// want: the files read, and per prediction of the load
		// "grid sectors" (0 grid: assumed).
		host     []string
		want     string
		problems []string
	}{
		{name: "main.cpp passes n and the stride",
			files: map[string]string{"main.cpp": "#include <cstdio>\nextern \"C\" void run(float* d, int n, int stride);\nint main() {\n    float* d = 0;\n    int n = 1 << 20;\n    run(d, n, 1);\n    return 0;\n}\n"},
			host:  []string{"main.cpp"}, want: "grid 4096: 4 sectors"},
		{name: "without it (--no-host-cpp) the sizes are assumed",
			files: map[string]string{"main.cpp": "extern \"C\" void run(float* d, int n, int stride);\nint main() { run(0, 1 << 20, 1); }\n"},
			opts:  func(o *Options) { o.NoHostCpp = true }, want: "grid assumed: 32 sectors"},
		{name: "host-cpp: false in the configuration",
			files: map[string]string{"main.cpp": "extern \"C\" void run(float* d, int n, int stride);\nint main() { run(0, 1 << 20, 1); }\n",
				".cudalint.yaml": "host-cpp: false\n"},
			want: "grid assumed: 32 sectors"},
		{name: "an excluded file is not read",
			files: map[string]string{"main.cpp": "extern \"C\" void run(float* d, int n, int stride);\nint main() { run(0, 1 << 20, 1); }\n",
				".cudalint.yaml": "exclude: [main.cpp]\n"},
			want: "grid assumed: 32 sectors"},
		{name: "a .cpp that calls nothing of ours is not read",
			files: map[string]string{"other.cpp": "// run(d, n, 1) is in a comment\nvoid run2(int);\nint main() { run2(3); const char* s = \"run(0, 1, 1)\"; }\n"},
			want:  "grid assumed: 32 sectors"},
		{name: "a .cpp defining its own run() is not ours",
			files: map[string]string{"cpu.c": "void run(float* d, int n, int s) { for (int i = 0; i < n; i++) d[i*s] *= 2; }\nint main() { run(0, 16, 1); }\n"},
			want:  "grid assumed: 32 sectors"},
		{name: "a template call counts, through a helper of the .cpp",
			files: map[string]string{"main.cc": "extern \"C\" void run(float* d, int n, int stride);\nstatic void go(int n) { run(0, n, 1); }\nint main() { go(1 << 20); }\n"},
			host:  []string{"main.cc"}, want: "grid 4096: 4 sectors"},
		{name: "a .cpp in an unrelated folder calling a run() is not read",
			files: map[string]string{"other/main.cpp": "extern \"C\" void run(float* d, int n, int stride);\nint main() { run(0, 1 << 20, 1); }\n"},
			want:  "grid assumed: 32 sectors"},
		{name: "a global the .cpp assigns elsewhere is not its initial value",
			files: map[string]string{"main.cpp": "extern \"C\" void run(float* d, int n, int stride);\nstatic int n = 0;\nvoid init() { n = 1 << 20; }\nvoid go() { run(0, n, 1); }\nint main() { init(); go(); }\n"},
			host:  []string{"main.cpp"}, want: "grid assumed: 4 sectors"},
		{name: "a .cpp that fails to parse costs nothing else",
			files: map[string]string{"main.cpp": "extern \"C\" void run(float* d, int n, int stride);\nint main() { run(0, 1 << 20, 1); }\nclass X { int f( { ] ;\n"},
			host:  []string{"main.cpp"}, want: "grid 4096: 4 sectors",
			problems: []string{"main.cpp: "}},
		{name: "a .cpp whose main fails to parse: the .cu's results as without it",
			files: map[string]string{"main.cpp": "extern \"C\" void run(float* d, int n, int stride);\nint main( { run(0, 1 << 20, 1) ] ;\n"},
			host:  []string{"main.cpp"}, want: "grid assumed: 32 sectors",
			problems: []string{"main.cpp: "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{".git/HEAD": "ref: refs/heads/main\n", "k/k.cu": runCu}
			for name, src := range tt.files {
				if name == ".cudalint.yaml" {
					files[name] = src
					continue
				}
				if !strings.HasPrefix(name, "other/") {
					name = "k/" + name
				}
				files[name] = src
			}
			write(t, dir, files)
			opts := Options{Paths: []string{filepath.Join(dir, "k")}, Root: dir, ModelOnly: true}
			if tt.opts != nil {
				tt.opts(&opts)
			}
			rep := Run(opts)
			if len(rep.Errors) > 0 {
				t.Fatalf("errors: %v", rep.Errors)
			}
			var host []string
			for _, f := range rep.HostFiles {
				rel, _ := filepath.Rel(filepath.Join(dir, "k"), f)
				host = append(host, rel)
			}
			if !reflect.DeepEqual(host, tt.host) {
				t.Errorf("host files %q, want %q", host, tt.host)
			}
			var got []string
			for _, p := range rep.Result.Analysis.Predictions {
				if p.Access.Op != interp.Load {
					continue
				}
				grid := "assumed"
				if p.Config.GridKnown[0] {
					grid = fmt.Sprint(p.Config.Grid[0])
				}
				got = append(got, fmt.Sprintf("grid %s: %g sectors", grid, p.Sectors))
			}
			if strings.Join(got, "; ") != tt.want {
				t.Errorf("load predicted %q, want %q", got, tt.want)
			}
			if len(rep.HostProblems) != len(tt.problems) {
				t.Fatalf("problems %q, want %d", rep.HostProblems, len(tt.problems))
			}
			for i, p := range tt.problems {
				if !strings.Contains(rep.HostProblems[i], p) {
					t.Errorf("problem %q, want it to say %q", rep.HostProblems[i], p)
				}
			}
			// Never reported: no note of its own, not counted as a file.
			for _, n := range rep.Notes {
				if !strings.HasSuffix(n.Pos.File, ".cu") {
					t.Errorf("note of a host file: %v", n)
				}
			}
			if rep.Reported != nil {
				for _, f := range rep.HostFiles {
					if rep.Reported(f) {
						t.Errorf("%s reported", f)
					}
				}
			}
		})
	}
}

func TestScanHost(t *testing.T) {
	tests := []struct {
		name, src string
		defs      []string // name, * when it launches itself, then its calls
	}{
		{name: "a launching host function and its caller",
			src:  "__global__ void k(float* a) { a[0] = 1; }\nvoid run(float* a) { k<<<1, 32>>>(a); }\nint main() { run(0); }\n",
			defs: []string{"run*", "main run"}},
		{name: "device functions and kernels are not host code",
			src:  "__device__ float f(float x) { return g(x); }\n__host__ __device__ float h(float x) { return x; }\n__global__ void __launch_bounds__(256) k() { f(1); }\n",
			defs: []string{"h"}},
		{name: "the runtime's launch call",
			src:  "void go(void** args) { cudaLaunchKernel((void*)k, 1, 32, args, 0, 0); }\n",
			defs: []string{"go* cudaLaunchKernel"}},
		{name: "template calls, methods, control statements",
			src:  "template <class T> void red(T* p) { if (p) { red2<T, 4>(p); } }\nstruct S { void m() const { red<float>(0); } };\n",
			defs: []string{"red red2", "m red"}},
		{name: "a macro's braces are no definition",
			src:  "#define CHECK(x) { if (!(x)) abort(); }\nvoid f() { CHECK(1); }\n",
			defs: []string{"f CHECK"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := scanHost([]byte(tt.src))
			var got []string
			for _, d := range h.defs {
				s := d.name
				if d.launches {
					s += "*"
				}
				calls := append([]string(nil), d.calls...)
				sort.Strings(calls)
				got = append(got, strings.Join(append([]string{s}, calls...), " "))
			}
			if !reflect.DeepEqual(got, tt.defs) {
				t.Errorf("defs %q, want %q", got, tt.defs)
			}
		})
	}
}

// A cache keeps each host file's call words while the file is unchanged:
// a run after the file stops (or starts) calling a launcher sees it.
func TestHostFilesCached(t *testing.T) {
	dir := t.TempDir()
	cu := filepath.Join(dir, "run.cu")
	cpp := filepath.Join(dir, "main.cpp")
	mod := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	write := func(path, text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		mod = mod.Add(time.Second)
		if err := os.Chtimes(path, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	write(cu, runCu)
	cache := NewContextCache()
	for _, step := range []struct {
		main string
		want []string
	}{
		{"extern \"C\" void run(float*, int, int);\nint main() { run(0, 1 << 20, 1); }\n", []string{cpp}},
		{"void walk(float*, int, int);\nint main() { walk(0, 1 << 20, 1); }\n", nil},
		{"extern \"C\" void run(float*, int, int);\nint main() { run(0, 1 << 10, 1); }\n", []string{cpp}},
	} {
		write(cpp, step.main)
		got, problems := hostFiles(dir, []string{cu}, sources.ReadFile, cache, func(string) bool { return false })
		if !reflect.DeepEqual(got, step.want) || len(problems) > 0 {
			t.Errorf("main %q: host files %v (%v), want %v", step.main, got, problems, step.want)
		}
	}
}
