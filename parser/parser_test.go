package parser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/parser/lex"
)

func parse(t *testing.T, src string) *File {
	t.Helper()
	return Parse("t.cu", []byte(src), Config{})
}

func funcNamed(f *File, name string) *Func {
	for _, fn := range f.Funcs {
		if fn.Name == name {
			return fn
		}
	}
	return nil
}

func TestParseItems(t *testing.T) {
	f := parse(t, `
#define BS 128
typedef unsigned int uint32;
typedef struct { float x, y; } Vec2;
struct __align__(16) Cell { float v[3]; int id : 8; int pad; };
union U { int i; float f; };
using Real = double;
__constant__ float coeffs[16];
namespace sim { namespace inner {
template <typename T, int N = 4>
__global__ void __launch_bounds__(BS) step(const T* __restrict__ in, T* out, int n) { out[0] = in[0]; }
} }
extern "C" {
__global__ void
plain(float *a) { a[threadIdx.x] = 0; }
}
__device__ __forceinline__ float twice(float v) { return 2 * v; }
__host__ __device__ inline int both(int x) { return x; }
static void host_fn(float* d) { plain<<<1, 32>>>(d); }
`)
	if len(f.Notes) != 0 {
		t.Errorf("unexpected notes: %v", f.Notes)
	}
	tests := []struct {
		name                 string
		global, device, host bool
		params               int
		ns                   string
		template             int
	}{
		{"step", true, false, false, 3, "sim::inner", 2},
		{"plain", true, false, false, 1, "", 0},
		{"twice", false, true, false, 1, "", 0},
		{"both", false, true, true, 1, "", 0},
		{"host_fn", false, false, true, 1, "", 0},
	}
	for _, tt := range tests {
		fn := funcNamed(f, tt.name)
		if fn == nil {
			t.Errorf("%s not found", tt.name)
			continue
		}
		if fn.Global != tt.global || fn.Device != tt.device || fn.Host != tt.host || len(fn.Params) != tt.params || fn.Namespace != tt.ns || len(fn.Template) != tt.template {
			t.Errorf("%s = global %v device %v host %v params %d ns %q template %d", tt.name, fn.Global, fn.Device, fn.Host, len(fn.Params), fn.Namespace, len(fn.Template))
		}
	}
	step := funcNamed(f, "step")
	if p := step.Params[0]; p.Name != "in" || FormatType(p.Type) != "const T*" {
		t.Errorf("step param 0 = %s %s", FormatType(p.Type), p.Name)
	}
	if tp := step.Template[1]; tp.Name != "N" || tp.IsType || texts(tp.Default) != "4" {
		t.Errorf("template param = %+v", tp)
	}
	if plain := funcNamed(f, "plain"); plain.P.Line != 15 {
		t.Errorf("plain's name is on line 15, got %v", plain.P)
	}
	structs := map[string]int{}
	for _, s := range f.Structs {
		structs[s.Name] = len(s.Fields)
	}
	if structs["Vec2"] != 2 || structs["Cell"] != 3 || structs["U"] != 2 {
		t.Errorf("structs = %v", structs)
	}
	for _, s := range f.Structs {
		if s.Name == "Cell" && s.Align != 16 {
			t.Errorf("Cell align = %d", s.Align)
		}
	}
	typedefs := map[string]string{}
	for _, td := range f.Typedefs {
		typedefs[td.Name] = FormatType(td.Type)
	}
	if typedefs["uint32"] != "unsigned int" || typedefs["Real"] != "double" {
		t.Errorf("typedefs = %v", typedefs)
	}
	if len(f.Globals) != 1 || !f.Globals[0].HasSpec("__constant__") {
		t.Errorf("globals = %v", f.Globals)
	}
}

// Recovery: C++ the grammar does not cover costs a statement or an item,
// never the kernels around it.
func TestParseRecovery(t *testing.T) {
	f := parse(t, `
#include <vector>
namespace app {
class Pool {
 public:
  Pool() : items_() {}
  template <class F> void each(F f) { for (auto& x : items_) f(x); }
  Pool& operator=(const Pool&) = default;
 private:
  std::vector<int> items_;
};
}
auto square = [](int v) { return v * v; };
__global__ void first(float* a) {
  int i = threadIdx.x;
  apply(a, [&](int k) { return a[k]; });
  asm volatile("wgmma.fence.sync.aligned;");
  a[i] = 1.0f;
}
template <typename T> struct Traits { static constexpr int size = sizeof(T); };
__global__ void second(float* b) { b[blockIdx.x] = 2.0f; }
`)
	for _, name := range []string{"first", "second"} {
		if funcNamed(f, name) == nil {
			t.Errorf("kernel %s lost; funcs: %v", name, f.Funcs)
		}
	}
	first := funcNamed(f, "first")
	var bad []*BadStmt
	for _, s := range first.Body.Stmts {
		if b, ok := s.(*BadStmt); ok {
			bad = append(bad, b)
		}
	}
	if len(bad) != 1 || bad[0].P.Line != 17 {
		t.Errorf("bad statements %v, want the asm (line 17) alone: the call with a lambda argument is read", bad)
	}
	if last, ok := first.Body.Stmts[len(first.Body.Stmts)-1].(*ExprStmt); !ok || Format(last.X) != "a[i] = 1.0f" {
		t.Errorf("the statement after the skipped ones is %#v", first.Body.Stmts[len(first.Body.Stmts)-1])
	}
	notes := map[int32]bool{}
	for _, n := range f.Notes {
		notes[n.Pos.Line] = true
	}
	if notes[16] || !notes[17] {
		t.Errorf("notes %v: want a note at line 17 and none at line 16", f.Notes)
	}
}

// A lambda written in an expression is read with its parameters, body
// and default capture; one that is not whole is a skipped statement.
func TestParseLambdaExpressions(t *testing.T) {
	f := parse(t, `__global__ void k(const float* in, float* out, int n) {
  apply(in, out, 0, [](float v) { return v * 2.0f; });
  for_each_k(n, [&](int k){ out[k] = 0; });
  float s = reduce([=](int a, int b) mutable -> float { return in[a] + in[b]; }, 3);
  run([&] { out[0] = [](int q) { return q; }(1); });
  apply(in, [&](int k) { return in[k];
}
`)
	k := funcNamed(f, "k")
	if k == nil || len(k.Body.Stmts) != 5 {
		t.Fatalf("kernel body %v", k)
	}
	lambdaArg := func(i, arg int) *Lambda {
		t.Helper()
		var call *Call
		switch s := k.Body.Stmts[i].(type) {
		case *ExprStmt:
			call, _ = s.X.(*Call)
		case *DeclStmt:
			call, _ = s.Decl.Declarators[0].Init.(*Call)
		}
		if call == nil || len(call.Args) <= arg {
			t.Fatalf("statement %d: %#v is no call with %d arguments", i, k.Body.Stmts[i], arg+1)
		}
		l, ok := call.Args[arg].(*Lambda)
		if !ok {
			t.Fatalf("statement %d argument %d: %#v, want a lambda", i, arg, call.Args[arg])
		}
		return l
	}
	tests := []struct {
		stmt, arg int
		params    []string
		byRef     bool
		body      int // statements
	}{
		{0, 3, []string{"v"}, false, 1},
		{1, 1, []string{"k"}, true, 1},
		{2, 0, []string{"a", "b"}, false, 1},
		{3, 0, nil, true, 1},
	}
	for _, tt := range tests {
		l := lambdaArg(tt.stmt, tt.arg)
		var params []string
		for _, p := range l.Fn.Params {
			params = append(params, p.Name)
		}
		if fmt.Sprint(params) != fmt.Sprint(tt.params) || l.ByRef != tt.byRef || l.Fn.Name != "" || len(l.Fn.Body.Stmts) != tt.body {
			t.Errorf("statement %d: lambda params %v byRef %v name %q body %d, want %v %v \"\" %d",
				tt.stmt, params, l.ByRef, l.Fn.Name, len(l.Fn.Body.Stmts), tt.params, tt.byRef, tt.body)
		}
	}
	// A lambda's body is walked with the statement that holds it.
	var idents []string
	WalkStmt(k.Body.Stmts[1], func(e Expr) {
		if id, ok := e.(*Ident); ok {
			idents = append(idents, id.Name)
		}
	})
	if fmt.Sprint(idents) != "[for_each_k n out k]" {
		t.Errorf("walked identifiers %v", idents)
	}
	if _, ok := k.Body.Stmts[4].(*BadStmt); !ok {
		t.Errorf("an unclosed lambda: %#v, want a skipped statement", k.Body.Stmts[4])
	}
}

func TestParseStatements(t *testing.T) {
	f := parse(t, `__global__ void k(float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, j;
  if (i >= n) return;
  for (int s = 0; s < n; s += 2) { a[s] += 1; }
  while (i < n) i <<= 1;
  do { --i; } while (i > 0);
  switch (i & 3) { case 0: a[0] = 0; break; default: break; }
  float v = i < 4 ? a[i] : (float)i;
  __shared__ float tile[32][33];
  tile[threadIdx.y][threadIdx.x] = reinterpret_cast<const float4*>(a)[i].x;
  label: continue_here();
}`)
	k := funcNamed(f, "k")
	var kinds []string
	for _, s := range k.Body.Stmts {
		kinds = append(kinds, strings.TrimPrefix(strings.TrimPrefix(typeName(s), "*parser."), "parser."))
	}
	want := "DeclStmt If For While While Switch DeclStmt DeclStmt ExprStmt Empty ExprStmt"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("statements:\n got %s\nwant %s\nnotes %v", got, want, f.Notes)
	}
	d := k.Body.Stmts[0].(*DeclStmt).Decl
	if len(d.Declarators) != 2 || Format(d.Declarators[0].Init) != "blockIdx.x * blockDim.x + threadIdx.x" {
		t.Errorf("declaration = %+v", d.Declarators)
	}
	tile := k.Body.Stmts[7].(*DeclStmt).Decl
	if !tile.HasSpec("__shared__") || len(tile.Declarators[0].Dims) != 2 {
		t.Errorf("tile = %+v", tile)
	}
}

func typeName(s Stmt) string {
	switch s.(type) {
	case *DeclStmt:
		return "DeclStmt"
	case *If:
		return "If"
	case *For:
		return "For"
	case *While:
		return "While"
	case *Switch:
		return "Switch"
	case *ExprStmt:
		return "ExprStmt"
	case *Empty:
		return "Empty"
	case *BadStmt:
		return "BadStmt"
	case *Return:
		return "Return"
	}
	return "?"
}

// Expressions re-associate by C precedence; Format prints the tree with
// the parentheses it needs, so a round trip shows the structure.
func TestParseExpressions(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a + b * c", "a + b * c"},
		{"(a + b) * c", "(a + b) * c"},
		{"a - b - c", "a - b - c"},
		{"a - (b - c)", "a - (b - c)"},
		{"a = b = c", "a = b = c"},
		{"x = c ? a : b ? d : e", "x = c ? a : b ? d : e"},
		{"a < b == c < d", "a < b == c < d"},
		{"a & b | c ^ d", "a & b | c ^ d"},
		{"i % 8 * w + i / 8", "i % 8 * w + i / 8"},
		{"(i % 8) * w", "i % 8 * w"},
		{"a << 2 + 1", "a << 2 + 1"},
		{"-a[i].x->y++", "-a[i].x->y++"},
		{"*(float4*)(p + 4)", "*(float4*)(p + 4)"},
		{"(const float*)((const char*)in + y * pitch)", "(const float*)((const char*)in + y * pitch)"},
		{"static_cast<int>(f) + sizeof(float4) + sizeof x", "(int)f + sizeof(float4) + sizeof x"},
		{"k<<<dim3(8, 8), 256, 0, s>>>(a, n)", "k<<<dim3(8, 8), 256, 0, s>>>(a, n)"},
		{"std::min(a, b)", "std::min(a, b)"},
		{"x += y, z++", "x += y, z++"},
		{"!a && ~b || c", "!a && ~b || c"},
		{"float4{1, 2, 3, 4}", "float4(1, 2, 3, 4)"},
	}
	for _, tt := range tests {
		f := parse(t, "__device__ void h() { "+tt.in+"; }")
		h := funcNamed(f, "h")
		if h == nil || len(h.Body.Stmts) != 1 {
			t.Errorf("%s: not parsed; notes %v", tt.in, f.Notes)
			continue
		}
		es, ok := h.Body.Stmts[0].(*ExprStmt)
		if !ok {
			t.Errorf("%s: parsed as %T (%v)", tt.in, h.Body.Stmts[0], h.Body.Stmts[0])
			continue
		}
		if got := Format(es.X); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.in, got, tt.want)
		}
	}
}

// Deep nesting is an error at the statement, not a stack overflow.
func TestParseDeepNesting(t *testing.T) {
	deep := strings.Repeat("(", 5000) + "x" + strings.Repeat(")", 5000)
	blocks := strings.Repeat("{", 2000) + strings.Repeat("}", 2000)
	f := parse(t, "__global__ void k(float* a) { a[0] = "+deep+"; "+blocks+" a[1] = 0; }")
	k := funcNamed(f, "k")
	if k == nil {
		t.Fatal("kernel lost")
	}
	if len(f.Notes) < 2 {
		t.Errorf("notes %v: want the deep expression and the deep blocks reported", f.Notes)
	}
	last := k.Body.Stmts[len(k.Body.Stmts)-1]
	if es, ok := last.(*ExprStmt); !ok || Format(es.X) != "a[1] = 0" {
		t.Errorf("last statement %#v", last)
	}
}

// nvcc accepts launch chevrons written with spaces.
func TestSpacedChevrons(t *testing.T) {
	for _, src := range []string{
		"void h(float* a) { k << < 4, 32 >> > (a); }",
		"void h(float* a) { k << < dim3(4, 4), 32 > >> (a); }",
		"void h(float* a) { k<<<4, 32> > >(a); }",
		"void h(float* a) { k < < < 4, 32 >>> (a); }", // clang-format's spacing in macros
		"void h(float* a) { k < << dim3(4), 32 >>> (a); }",
	} {
		f := parse(t, src)
		h := funcNamed(f, "h")
		if h == nil || len(h.Body.Stmts) != 1 {
			t.Errorf("%s: not parsed (%v)", src, f.Notes)
			continue
		}
		es, ok := h.Body.Stmts[0].(*ExprStmt)
		if _, isLaunch := es.X.(*Launch); !ok || !isLaunch {
			t.Errorf("%s: parsed as %#v", src, h.Body.Stmts[0])
		}
	}
	// Shifts are still shifts.
	f := parse(t, "__device__ int s(int a) { return (a << 2) >> 1; }")
	if len(f.Notes) != 0 {
		t.Errorf("shifts: %v", f.Notes)
	}
	// So are comparisons with a shift after them.
	f = parse(t, "__device__ int s(int a, int b) { return a < (b << 2); }")
	if len(f.Notes) != 0 {
		t.Errorf("shifts: %v", f.Notes)
	}
}

// Qualified and template types, and calls with template arguments, as in
// cooperative groups, WMMA and texture code.
func TestTemplateAndQualifiedNames(t *testing.T) {
	f := parse(t, `__global__ void k(float* a, int i, int n, int j, int w) {
  cooperative_groups::thread_block cta = cooperative_groups::this_thread_block();
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  SharedMemory<float> smem;
  float* s = SharedMemory<float>();
  unsigned char p = tex2D<unsigned char>(tex, 1.0f, 2.0f);
  if (i < n && j > (w)) a[i] = 0;
  a[i < n] = 1;
}`)
	if len(f.Notes) != 0 {
		t.Errorf("notes: %v", f.Notes)
	}
	k := funcNamed(f, "k")
	var kinds []string
	for _, s := range k.Body.Stmts {
		kinds = append(kinds, typeName(s))
	}
	if got := strings.Join(kinds, " "); got != "DeclStmt DeclStmt DeclStmt DeclStmt DeclStmt If ExprStmt" {
		t.Errorf("statements: %s", got)
	}
	cond := k.Body.Stmts[5].(*If).Cond
	if Format(cond) != "i < n && j > w" {
		t.Errorf("a comparison read as a template: %s", Format(cond))
	}
}

// Statements real code writes that a strict reading rejects: qualifiers
// before the storage specifier, a type from a header that was not found,
// and a call through a template class's static member.
func TestParseRealWorldDeclarations(t *testing.T) {
	f := parse(t, `__global__ void k(int* in, int* out) {
  volatile __shared__ unsigned int s[64];
  TextureAddress addr;
  addr.x = in[threadIdx.x];
  Kernel<8, 16>::run(in, out, 3);
  out[threadIdx.x] = s[threadIdx.x];
}`)
	k := funcNamed(f, "k")
	var kinds []string
	for _, s := range k.Body.Stmts {
		kinds = append(kinds, typeName(s))
	}
	if got, want := strings.Join(kinds, " "), "DeclStmt DeclStmt ExprStmt ExprStmt ExprStmt"; got != want {
		t.Fatalf("statements:\n got %s\nwant %s\nnotes %v", got, want, f.Notes)
	}
	s := k.Body.Stmts[0].(*DeclStmt).Decl
	if !s.HasSpec("__shared__") || len(s.Declarators[0].Dims) != 1 {
		t.Errorf("volatile __shared__ array = %+v", s)
	}
	addr := k.Body.Stmts[1].(*DeclStmt).Decl
	if addr.Declarators[0].Name != "addr" {
		t.Errorf("declaration of an unknown type = %+v", addr)
	}
	call := k.Body.Stmts[3].(*ExprStmt).X
	if got := Format(call); got != "Kernel::run(in, out, 3)" {
		t.Errorf("template class member call = %s", got)
	}
}

// Specifiers after the type and alignment attributes, as the CUDA
// samples write shared arrays.
func TestParseSpecifierOrderAndAttributes(t *testing.T) {
	f := parse(t, `__global__ void k(double* in) {
  extern double __shared__ sdata[];
  __shared__ unsigned char __align__(8) s_buffer[64];
  __shared__ int __attribute__((aligned(16))) s_data[1024];
  sdata[threadIdx.x] = in[threadIdx.x];
}`)
	k := funcNamed(f, "k")
	for i, name := range []string{"sdata", "s_buffer", "s_data"} {
		ds, ok := k.Body.Stmts[i].(*DeclStmt)
		if !ok {
			t.Fatalf("statement %d is %s, want a declaration of %s; notes %v", i, typeName(k.Body.Stmts[i]), name, f.Notes)
		}
		if d := ds.Decl; !d.HasSpec("__shared__") || d.Declarators[0].Name != name {
			t.Errorf("declaration %d = %+v, want __shared__ %s", i, d, name)
		}
	}
}

// Statements from ggml's kernels: attributes, static assertions, aligned
// locals, a template function returned by name, casts to pointers of
// types whose header was not found.
func TestParseModernCUDAStatements(t *testing.T) {
	f := parse(t, `__global__ void k(const char* cx, char* cd) {
  [[maybe_unused]] int col_base = 0;
  static_assert(sizeof(int) == 4, "int");
  __align__(16) float tmp[4];
  quantize((const float *)cx, (block_q4_0 *)cd);
}
__device__ void* pick() {
  return vec_dot<64, 32>;
}
template <typename T> __device__ long long member(typename vec4<T>::Type bi, Tex obj) {
  typename vec3<T>::Type r;
  return ((cudaTextureObject_t)obj.x) | ((cudaTextureObject_t)obj.y) << 32;
}`)
	var kinds []string
	for _, s := range funcNamed(f, "k").Body.Stmts {
		kinds = append(kinds, typeName(s))
	}
	if got, want := strings.Join(kinds, " "), "DeclStmt Empty DeclStmt ExprStmt"; got != want {
		t.Errorf("statements:\n got %s\nwant %s\nnotes %v", got, want, f.Notes)
	}
	var member []string
	for _, s := range funcNamed(f, "member").Body.Stmts {
		member = append(member, typeName(s))
	}
	if got, want := strings.Join(member, " "), "DeclStmt Return"; got != want {
		t.Errorf("template member type and casts: got %s, want %s", got, want)
	}
	if r, ok := funcNamed(f, "pick").Body.Stmts[0].(*Return); !ok || r.X == nil {
		t.Errorf("return of a template function: %#v; notes %v", funcNamed(f, "pick").Body.Stmts[0], f.Notes)
	}
	for _, n := range f.Notes {
		t.Errorf("unexpected note %v", n)
	}
}

// texts joins the spellings of toks with spaces.
func texts(toks []Token) string {
	parts := make([]string, len(toks))
	for i, t := range toks {
		parts[i] = t.Text
	}
	return strings.Join(parts, " ")
}

// typedef struct __align__(16) { ... } Name; is a struct with its
// alignment and its name, not a function whose body is the braces.
func TestTypedefAlignedStruct(t *testing.T) {
	for _, src := range []string{
		"typedef struct __align__(16) { float a, b, c; } Vec3A;\n",
		"typedef struct alignas(16) { float a, b, c; } Vec3A;\n",
		"typedef struct __attribute__((aligned(16))) Tag { float a, b, c; } Vec3A;\n",
	} {
		f := Parse("m.cu", []byte(src), Config{})
		if len(f.Structs) != 1 || len(f.Structs[0].Fields) != 3 {
			t.Fatalf("%q: structs %v", src, f.Structs)
		}
		s := f.Structs[0]
		named := s.Name == "Vec3A" || len(f.Typedefs) == 1 && f.Typedefs[0].Name == "Vec3A"
		if !named || (s.Align != 16 && !strings.Contains(src, "__attribute__")) {
			t.Errorf("%q: struct %q align %d, typedefs %v", src, s.Name, s.Align, f.Typedefs)
		}
	}
}

// TestUnrollPragma: a #pragma unroll reaches the loop right after it, with
// its count; loops without one, and other pragmas, have none.
func TestUnrollPragma(t *testing.T) {
	f := parse(t, `
#define UNROLL_N 4
__global__ void k(float* p, int n) {
#pragma unroll
    for (int a = 0; a < 4; a++) p[a] = 0;
#pragma unroll 2
    for (int b = 0; b < 8; b++) p[b] = 0;
#pragma unroll 1
    for (int c = 0; c < 8; c++) p[c] = 0;
#pragma unroll UNROLL_N
    for (int d = 0; d < 8; d++) p[d] = 0;
#pragma unroll (n + 1)
    for (int e = 0; e < 8; e++) p[e] = 0;
    for (int g = 0; g < 8; g++) p[g] = 0;
#pragma GCC diagnostic push
    for (int h = 0; h < 8; h++) p[h] = 0;
    int w = 0;
#pragma unroll 1000
    while (w < 3) w++;
}
`)
	fn := funcNamed(f, "k")
	if fn == nil || fn.Body == nil {
		t.Fatal("kernel k not parsed")
	}
	var got []Unroll
	for _, s := range fn.Body.Stmts {
		switch s := s.(type) {
		case *For:
			got = append(got, s.Unroll)
		case *While:
			got = append(got, s.Unroll)
		}
	}
	want := []Unroll{lex.UnrollFull, 2, 1, 4, lex.UnrollOther, lex.UnrollNone, lex.UnrollNone, lex.MaxUnrollCount}
	if len(got) != len(want) {
		t.Fatalf("loops: got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("loop %d: unroll %d, want %d", i, got[i], want[i])
		}
	}
	if n, ok := lex.Unroll(2).Count(); !ok || n != 2 {
		t.Errorf("Count of 2: %d %v", n, ok)
	}
	if _, ok := lex.UnrollFull.Count(); ok {
		t.Error("a bare #pragma unroll gives no count")
	}
}
