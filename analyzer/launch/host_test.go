package launch

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/lex"
)

func program(t *testing.T, src string) *Program {
	t.Helper()
	f := parser.Parse("h.cu", []byte(src), parser.Config{})
	return NewProgram([]*parser.File{f})
}

// configsOf lists kernel name's configurations as "block grid params".
func configsOf(t *testing.T, p *Program, name string) []string {
	t.Helper()
	var out []string
	for _, f := range p.Files {
		for _, fn := range f.Funcs {
			if fn.Name != name || !fn.Global {
				continue
			}
			cfgs, _ := p.Configs(f, fn, false, false, "")
			for _, c := range cfgs {
				g := "?"
				if c.GridKnown[0] {
					g = fmt.Sprint(c.Grid[0])
				}
				out = append(out, fmt.Sprintf("%s %s %s %s", c.BlockSource, c.Block, g, sortedPairs(c.Params)))
			}
		}
	}
	return out
}

const kernels = `
__global__ void k(float* p, int n) { p[threadIdx.x * n] = 0; }
`

func TestHostValues(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"a dim3 initialised by a brace list", `
void h(float* a, int n) {
  dim3 block = {4, 8, (unsigned)n / 32};
  dim3 grid = {16};
  k<<<grid, block>>>(a, 2);
}`, []string{"launch-unresolved 4x8x8 16 n=2,"}},
		{"a cooperative launch through the runtime API", `
int main() {
  float* a; int n = 3;
  void* args[] = {&a, &n};
  dim3 grid(132, 1, 1), block(512, 1, 1);
  check(cudaLaunchCooperativeKernel((void*)k, grid, block, args, 0, NULL));
}`, []string{"launch 512 132 "}},
		{"a variable counted in a host loop with constant bounds", `
int main() {
  float* a;
  int count = 0;
  for (int j = 0; j < 6; j++) { if (j % 2 == 0) count++; }
  int blocks = 0;
  for (int j = 0; j < 8; j++) blocks += 512;
  k<<<blocks, 256>>>(a, count);
}`, []string{"launch 256 4096 n=3,"}},
		{"a launcher handed to the function that runs it", `
typedef void (*Launcher)(float*, int, int);
void launch_1(float* a, int n, int bs) { k<<<n / bs, bs>>>(a, n); }
void run(float* a, int n, Launcher l, int bs) { l(a, n, bs); }
int main() {
  float* a;
  run(a, 1024, launch_1, 128);
}`, []string{"launch 128 8 n=1024,"}},
		{"sizes through floating-point arithmetic of constants", `
int main() {
  float* a;
  int N = 1000; const int Bc = 32;
  const int Tc = ceil((float) N / Bc);
  int blocks = ceilf(N / 256.0f);
  int half = (int)(N * 0.5);
  k<<<blocks, 256>>>(a, Tc + half);
}`, []string{"launch 256 4 n=532,"}},
		{"integer division inside ceil truncates first", `
int main() { float* a; int N = 1000; k<<<ceil(N / 256), 256>>>(a, 1); }`, []string{"launch 256 3 n=1,"}},
		{"a host loop without constant bounds leaves its variables unknown", `
int main(int argc, char** argv) {
  float* a;
  int count = 0, m = atoi(argv[1]);
  for (int j = 0; j < m; j++) count++;
  k<<<64, 256>>>(a, count);
}`, []string{"launch 256 64 "}},
		{"a loop on the argument count runs as the program run without arguments", `
int main(int argc, char** argv) {
  float* a;
  int count = 0;
  for (int j = 0; j < argc; j++) count++;
  k<<<64, 256>>>(a, count);
}`, []string{"launch 256 64 n=1,"}},
		{"a flag scanned from argv is unset in the program run without arguments", `
inline bool flag(int argc, const char** argv, const char* ref) {
  bool found = false;
  for (int i = 1; i < argc; i++) { if (!strcmp(argv[i], ref)) { found = true; continue; } }
  return found;
}
int main(int argc, char** argv) {
  float* a;
  unsigned n = 1 << 20, mult = 1;
  if (flag(argc, (const char**)argv, "sizemult")) { mult = atoi(argv[2]); mult = mult > 10 ? 10 : mult < 1 ? 1 : mult; n *= mult; }
  k<<<(n % 4032 != 0) ? n / 4032 + 1 : n / 4032, 256>>>(a, 1);
}`, []string{"launch 256 261 n=1,"}},
		{"a block picked from a local array of candidates", `
int main() {
  float* a;
  int maxThreads = 128, pick = 64;
  const int cands[4] = {64, 128, 256, 512};
  for (int j = 0; j < 4; j++) { if (cands[j] <= maxThreads) pick = cands[j]; }
  k<<<(1 << 20) / pick, pick>>>(a, 1);
}`, []string{"launch 128 8192 n=1,"}},
		{"a host helper in the grid", `
static int iDivUp(int a, int b) { return (a + b - 1) / b; }
int main() { float* a; k<<<iDivUp(40, 16), 256>>>(a, 2); }`, []string{"launch 256 3 n=2,"}},
		{"a host function template in the grid, its type deduced", `
template <class T> __host__ __device__ T ceil_div(T a, T b) { return (a + b - 1) / b; }
static void run(float* a, int n, const int bs) { k<<<ceil_div(n, bs), bs>>>(a, 1); }
int main() { float* a; run(a, 1000, 128); }`, []string{"launch 128 8 n=1,"}},
		{"sizes through two host functions", `
static void inner(float* a, int n, int s) { k<<<n / 256, 256>>>(a, s); }
static void outer(float* a, int n, int s) { inner(a, n, s); }
int main() { float* a; int n = 1 << 20; int s = 5; outer(a, n, s); }`, []string{"launch 256 4096 n=5,"}},
		{"a launch through a function pointer", `
__global__ void k2(float* p, int n) { p[threadIdx.x] = 0; }
int main() {
  float* a;
  void (*kern)(float*, int) = &k;
  kern<<<16384, 64>>>(a, 7);
}`, []string{"launch 64 16384 n=7,"}},
		{"a launch whose block is not known keeps its grid and arguments", `
int main(int argc, char** argv) {
  float* a;
  int bs = atoi(argv[1]);
  k<<<100, bs>>>(a, 3);
}`, []string{"launch-unresolved 256 100 n=3,"}},
		{"sizes main sets unless its arguments change them are the bare run's", `
int main(int argc, char** argv) {
  float* a;
  int bx = 8, n = 2;
  if (argc >= 3) { bx = atoi(argv[1]); n = atoi(argv[2]); }
  k<<<(4096 + bx - 1) / bx, bx>>>(a, n);
}`, []string{"launch 8 512 n=2,"}},
		{"a usage check that exits without arguments hides no launch, and no value takes the bare run", `
int main(int argc, char** argv) {
  float* a;
  if (argc < 2) { return 1; }
  int bs = atoi(argv[1]);
  k<<<100, 64>>>(a, argc > 2 ? bs : 4);
}`, []string{"launch 64 100 "}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := program(t, kernels+tc.src)
			got := configsOf(t, p, "k")
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("configs of k = %q, want %q", got, tc.want)
			}
		})
	}
}

// A launch whose constant block or grid CUDA would refuse is a note at
// the launch, never a configuration: no product of its dimensions can
// overflow (256x1x2^63-1 once wrapped negative, passed the thread check
// and panicked), and no such launch is dropped in silence. (A dimension
// of 0 or less is what host code the model could not follow leaves, a
// device property read as 0: it counts as not known, as before.)
func TestLaunchesCUDAWouldRefuse(t *testing.T) {
	for _, tt := range []struct{ launch, why string }{
		{"dim3 b(256, 1, 9223372036854775807); k<<<1, b>>>(a);", "block z is 9223372036854775807; CUDA allows at most 64"},
		{"dim3 b(65536, 65536, 1); k<<<1, b>>>(a);", "block x is 65536; CUDA allows at most 1024"},
		{"dim3 b(64, 64, 1); k<<<1, b>>>(a);", "block 64x64 has 4096 threads; CUDA allows at most 1024"},
		{"dim3 g(1, 70000, 1); k<<<g, 32>>>(a);", "grid y is 70000; CUDA allows at most 65535"},
	} {
		p := program(t, "__global__ void k(float* a) { a[threadIdx.x] = 0; }\nvoid h(float* a) { "+tt.launch+" }\n")
		f := p.Files[0]
		for _, fn := range f.Funcs {
			if fn.Name != "k" {
				continue
			}
			cfgs, notes := p.Configs(f, fn, false, false, "")
			if len(notes) != 1 || notes[0].Kind != lex.NoteInvalidLaunch || !strings.Contains(notes[0].Msg, tt.why) || notes[0].Pos.Line != 2 {
				t.Errorf("%s: notes %v, want one at line 2 saying %q", tt.launch, notes, tt.why)
			}
			for _, c := range cfgs {
				if c.BlockSource == FromLaunch {
					t.Errorf("%s: a configuration from the refused launch: %v", tt.launch, c.Block)
				}
			}
		}
	}
}

// A configuration whose values rest on main run without arguments says
// so where it names its block; one that does not, does not.
func TestBareRunSaid(t *testing.T) {
	for _, tc := range []struct {
		src  string
		bare bool
	}{
		{`int main(int argc, char** argv) { float* a; int b = 32; if (argc > 1) b = atoi(argv[1]); k<<<1, b>>>(a, 1); }`, true},
		{`int main(int argc, char** argv) { float* a; k<<<1, 32>>>(a, 1); }`, false},
	} {
		p := program(t, kernels+tc.src)
		fn := p.Kernels[0]
		cfgs, _ := p.Configs(p.Files[0], fn, false, false, "")
		if len(cfgs) != 1 {
			t.Fatalf("%s: %d configurations, want 1", tc.src, len(cfgs))
		}
		said := strings.Contains(cfgs[0].Describe(), "main run without arguments")
		if cfgs[0].Bare != tc.bare || said != tc.bare {
			t.Errorf("%s: Bare %v, described %q; want bare %v", tc.src, cfgs[0].Bare, cfgs[0].Describe(), tc.bare)
		}
	}
}

// A lambda without parameters passed to a function cudalint does not
// know runs once: a type dispatcher (PyTorch's AT_DISPATCH_FLOATING_TYPES,
// a macro no file defines without the torch headers) runs it, and its
// launches are the program's. A lambda that takes arguments is a
// callback whose arguments are not known, and a known function's lambda
// is run only as that function calls it.
func TestDispatchedLambdaLaunches(t *testing.T) {
	tests := []struct {
		name, host string
		want       []string
	}{
		{"AT_DISPATCH", `void h(float* a, at::Tensor x) {
  const int threads = 512;
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "k_cuda", ([&] { k<<<64, threads>>>(a, 3); }));
}`, []string{"launch 512 64 n=3,"}},
		{"a lambda with parameters", `void h(float* a) { for_each_shard(4, [&](int s) { k<<<64, 128>>>(a, s); }); }`, []string{"default 256 ? "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := configsOf(t, program(t, kernels+tt.host), "k")
			if strings.Join(got, "; ") != strings.Join(tt.want, "; ") {
				t.Errorf("configurations %q, want %q", got, tt.want)
			}
		})
	}
}

// A kernel template's instance held in a host variable launches with its
// template arguments (apex's auto f = k<...>; cudaLaunchCooperativeKernel
// (f, ...)): without them the model assumed 4096 for S.
func TestLaunchOfAHeldInstance(t *testing.T) {
	p := program(t, `
template <int S> __global__ void kt(float* p) { p[threadIdx.x * S] = 0; }
int main() {
  float* a;
  void* args[] = {&a};
  auto f = kt<8>;
  cudaLaunchCooperativeKernel((void*)f, dim3(64), dim3(256), args, 0, 0);
  void (*g)(float*) = &kt<2>;
  g<<<64, 256>>>(a);
}`)
	var got []string
	for _, l := range p.Launches {
		s := l.Kernel
		for _, a := range l.Targs {
			if a != nil && a.Int != nil {
				s += fmt.Sprintf("<%s>", a.Int)
			}
		}
		got = append(got, s)
	}
	if want := []string{"kt<8>", "kt<2>"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("launches %v, want %v", got, want)
	}
}

// A launcher method of a class launches with the class's static members
// and member aliases as template arguments and block (apex's
// NhwcBatchNorm: auto f = k<StorageType, THREADS_PER_PIXEL, ...>;
// cudaLaunchCooperativeKernel<F>(f, grid, THREADS_PER_CTA, ...)), the
// derived static seeing the statics declared before it.
func TestLaunchFromAClassMethod(t *testing.T) {
	p := program(t, `
template <typename T, int TPP, int EPL> __global__ void bn(T* p) { p[threadIdx.x * EPL] = 0; }
class Norm {
 public:
  void fwd(float* a) { launcher(a, dim3(64)); }
 protected:
  static const int THREADS_PER_CTA = 512;
  static const int THREADS_PER_PIXEL = 16;
  static const int C_ELEMENTS = 64;
  static const int ELEMENTS_PER_LDG = C_ELEMENTS / THREADS_PER_PIXEL;
  typedef unsigned short StorageType;
  void launcher(float* a, dim3 grid) {
    auto f = bn<StorageType, THREADS_PER_PIXEL, ELEMENTS_PER_LDG>;
    void* args[] = {&a};
    using F = decltype(bn<StorageType, THREADS_PER_PIXEL, ELEMENTS_PER_LDG>);
    cudaLaunchCooperativeKernel<F>(f, grid, THREADS_PER_CTA, args, 0, 0);
  }
};
int main() { Norm n; float* a; n.fwd(a); }`)
	var got []string
	for _, l := range p.Launches {
		s := l.Kernel + "<"
		for i, a := range l.Targs {
			switch {
			case a != nil && a.Int != nil:
				s += fmt.Sprintf("%s,", a.Int)
			case l.TypeArgs[i] != nil:
				s += l.TypeArgs[i].String() + ","
			default:
				s += "?,"
			}
		}
		got = append(got, fmt.Sprintf("%s> block %s", s, l.Block[0]))
	}
	if len(got) == 0 {
		t.Fatal("no launch found")
	}
	for _, g := range got {
		if want := "bn<unsigned short,16,4,> block 512"; g != want {
			t.Errorf("launch %q, want %q", g, want)
		}
	}
}

// A kernel whose only launch is in a statement cudalint cannot read says
// so where it names its made-up block, not "no launch found"; one with
// no launch at all still says that.
func TestDescribeUnreadLaunch(t *testing.T) {
	p := program(t, `__global__ void k(float* out) { out[threadIdx.x] = 0; }
__global__ void alone(float* out) { out[threadIdx.x] = 0; }
void run(float* o) {
    k<<<64, 256>>>(o) @ 3;
}`)
	want := map[string]string{
		"k":     "block 256 by default (the launch at h.cu:4 could not be read: see --stats)",
		"alone": "block 256 by default (no launch found)",
	}
	for _, fn := range p.Files[0].Funcs {
		if !fn.Global {
			continue
		}
		cfgs, _ := p.Configs(p.Files[0], fn, false, false, "")
		if len(cfgs) != 1 || cfgs[0].Describe() != want[fn.Name] {
			var got []string
			for _, c := range cfgs {
				got = append(got, c.Describe())
			}
			t.Errorf("%s: %q, want %q", fn.Name, got, want[fn.Name])
		}
	}
}

// A local lambda of host code launches what its body launches, where it
// is called: with parameters or without (auto launch = [&] { ... };).
func TestLaunchInHostLambda(t *testing.T) {
	for _, lambda := range []string{"[&] { k<<<64, 128>>>(o); }", "[&]() { k<<<64, 128>>>(o); }", "[=](int n) { k<<<n, 128>>>(o); }"} {
		call := "launch();"
		if strings.Contains(lambda, "int n") {
			call = "launch(64);"
		}
		p := program(t, "__global__ void k(float* out) { out[threadIdx.x] = 0; }\nvoid run(float* o) {\n    auto launch = "+lambda+";\n    "+call+"\n}\n")
		got := configsOf(t, p, "k")
		if len(got) != 1 || !strings.HasPrefix(got[0], "launch 128 64") {
			t.Errorf("%s: configurations %q, want one from the launch, block 128, grid 64", lambda, got)
		}
		for _, n := range p.Files[0].Notes {
			t.Errorf("%s: note %v", lambda, n)
		}
	}
}

// A lambda called where it is written ([&] { ... }();, as dispatch
// macros expand) runs there: its launch is the function's.
func TestLaunchInImmediateLambda(t *testing.T) {
	p := program(t, "__global__ void k(float* out) { out[threadIdx.x] = 0; }\nvoid run(float* o) {\n    [&] { k<<<64, 128>>>(o); }();\n}\n")
	got := configsOf(t, p, "k")
	if len(got) != 1 || !strings.HasPrefix(got[0], "launch 128 64") {
		t.Errorf("configurations %q, want one from the launch, block 128, grid 64", got)
	}
	for _, n := range p.Files[0].Notes {
		t.Errorf("note %v", n)
	}
}

// Lambdas called in place inside others, as BOOL_SWITCH expands
// (return [&] { ... }(); in each branch of an outer [&] { ... }()), and
// a local lambda called from one: each launch is the function's, with
// the constexpr the branch binds as its template argument.
func TestLaunchInNestedImmediateLambdas(t *testing.T) {
	const boolSwitch = `#define BOOL_SWITCH(COND, CONST_NAME, ...)      \
  [&] {                                         \
    if (COND) {                                 \
      constexpr static bool CONST_NAME = true;  \
      return __VA_ARGS__();                     \
    } else {                                    \
      constexpr static bool CONST_NAME = false; \
      return __VA_ARGS__();                     \
    }                                           \
  }()
template <bool Even> __global__ void k(float* out) { out[threadIdx.x] = Even; }
`
	tests := []struct{ name, body string }{
		{"nested", "[&] { [&] { k<true><<<64, 128>>>(o); }(); }();"},
		{"returned", "[&] { return [&] { k<true><<<64, 128>>>(o); }(); }();"},
		{"local lambda called in one", "auto f = [&] { k<true><<<64, 128>>>(o); }; [&] { f(); }();"},
		{"BOOL_SWITCH", "BOOL_SWITCH(even, E, [&] { auto kernel = &k<E>; kernel<<<64, 128>>>(o); });"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := program(t, boolSwitch+"void run(float* o, bool even) {\n    "+tt.body+"\n}\n")
			got := configsOf(t, p, "k")
			if len(got) == 0 {
				t.Fatalf("no configuration of k, want the launch's")
			}
			for _, c := range got {
				if !strings.HasPrefix(c, "launch 128 64") {
					t.Errorf("configuration %q, want the launch's: block 128, grid 64", c)
				}
			}
		})
	}
}

// An explicit specialization of a kernel template is the kernel its
// arguments launch, and only those: k<float> runs the float one, k<int>
// the template.
func TestLaunchOfKernelSpecialization(t *testing.T) {
	p := program(t, `template <typename T> __global__ void k(T* out) { out[threadIdx.x] = 0; }
template <> __global__ void k<float>(float* out) { out[threadIdx.x * 2] = 0; }
void run(float* f, int* i) {
    k<float><<<64, 128>>>(f);
    k<int><<<32, 256>>>(i);
}
`)
	for _, fn := range p.Kernels {
		var blocks []string
		for _, l := range p.LaunchesOf("k") {
			if l.Reaches(fn) {
				blocks = append(blocks, fmt.Sprint(l.Block))
			}
		}
		want := "[[256 1 1]]"
		if fn.Specialized {
			want = "[[128 1 1]]"
		}
		if got := fmt.Sprint(blocks); got != want {
			t.Errorf("kernel k (specialized %v) is reached by launches with blocks %s, want %s", fn.Specialized, got, want)
		}
	}
	if len(p.Kernels) != 2 {
		t.Errorf("%d kernels, want the template and its specialization", len(p.Kernels))
	}
}

// A block written with a name only a conditional not taken defines
// (darknet's BLOCK under #ifdef GPU) says so, and which -D gives it.
func TestHiddenDefineExplainsUnresolvedBlock(t *testing.T) {
	tests := []struct{ name, guard, want string }{
		{"#ifdef", "#ifdef GPU", "BLOCK is defined only under #ifdef GPU, at h.cu:2: give -D GPU"},
		{"#if", "#if defined(GPU) && GPU > 1", "BLOCK is defined only under #if defined(GPU) && GPU > 1, at h.cu:2)"},
		{"nested in a branch not taken", "#ifdef A\n#ifdef GPU", "gives no constant block)"},
		{"an include guard read again", "#define GUARD_H\n#define BLOCK_H 1\n#undef BLOCK_H\n#ifndef GUARD_H", "gives no constant block)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			endifs := strings.Repeat("#endif\n", strings.Count(tt.guard, "#if"))
			p := program(t, tt.guard+"\n#define BLOCK 512\n"+endifs+
				"__global__ void k(float* x) { x[threadIdx.x] = 0; }\nvoid h(float* x) { k<<<64, BLOCK>>>(x); }\n")
			for _, f := range p.Files {
				for _, fn := range f.Funcs {
					if !fn.Global {
						continue
					}
					cfgs, _ := p.Configs(f, fn, false, false, "")
					if len(cfgs) != 1 || !strings.Contains(cfgs[0].Describe(), tt.want) {
						t.Errorf("configurations %v, want one described with %q", describeAll(cfgs), tt.want)
					}
				}
			}
		})
	}
}

func describeAll(cfgs []*Config) []string {
	var out []string
	for _, c := range cfgs {
		out = append(out, c.Describe())
	}
	return out
}
