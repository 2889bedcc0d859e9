package interp

import (
	"testing"

	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/symbolic"
)

// TestAccessAddress checks, one interpreter rule per row, the access a
// kernel's expression becomes: its operation, space, element type and
// byte address from the start of the allocation. Every address is
// derived from C's layout rules: a float is 4 bytes, a double 8, a
// float4 16, a struct's members sit at their aligned offsets, and a
// pointer parameter p starts base(p) bytes into its allocation.
func TestAccessAddress(t *testing.T) {
	tx, ty := tid(0), tid(1)
	tests := []struct {
		name  string
		src   string
		expr  string
		op    Op
		space Space
		typ   string
		addr  symbolic.Expr
		strct string // the struct whose member is accessed, "" for none
		field string
	}{
		{"indexing a float pointer scales by 4", `
__global__ void k(float* out) { out[threadIdx.x] = 0; }`,
			"out[threadIdx.x]", Store, Global, "float", sum(base("out"), mul(c(4), tx)), "", ""},
		{"pointer arithmetic then dereference: in + 128*bx + tx floats", `
__global__ void k(const float* in, float* out) {
  const float* p = in + blockIdx.x * 128 + threadIdx.x;
  out[0] = *p;
}`, "*p", Load, Global, "float", sum(base("in"), mul(c(512), bid(0)), mul(c(4), tx)), "", ""},
		{"a 2D index row*n + col, scaled by 4", `
__global__ void k(const float* in, float* out, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  out[0] = in[row * n + col];
}`, "in[row * n + col]", Load, Global, "float",
			sum(base("in"), mul(c(4), sum(mul(sum(mul(bid(1), bdim(1)), ty), param("n")), globalX()))), "", ""},
		{"a double index scales by 8: d[2*tx] is 16*tx", `
__global__ void k(double* d) { d[threadIdx.x * 2] = 0; }`,
			"d[threadIdx.x * 2]", Store, Global, "double", sum(base("d"), mul(c(16), tx)), "", ""},
		{"array of structs: {float x, y, z} is 12 bytes, y at 4", `
struct P { float x, y, z; };
__global__ void k(P* ps) { ps[threadIdx.x].y = 1; }`,
			"ps[threadIdx.x].y", Store, Global, "float", sum(base("ps"), mul(c(12), tx), c(4)), "P", "y"},
		{"struct padding: {char; double} puts the double at 8 in 16 bytes", `
struct Rec { char tag; double value; };
__global__ void k(const Rec* r, double* out) { out[0] = r[threadIdx.x].value; }`,
			"r[threadIdx.x].value", Load, Global, "double", sum(base("r"), mul(c(16), tx), c(8)), "Rec", "value"},
		{"arrow through a pointer moved by tx: {float x,y,z,m}, m at 12", `
struct Body { float x, y, z, m; };
__global__ void k(Body* b) { Body* me = b + threadIdx.x; me->m = 1; }`,
			"me->m", Store, Global, "float", sum(base("b"), mul(c(16), tx), c(12)), "Body", "m"},
		{"a cast to float4* indexes 16-byte elements", `
__global__ void k(const float* in, float4* out) {
  float4 q = reinterpret_cast<const float4*>(in)[threadIdx.x];
  out[threadIdx.x] = q;
}`, "reinterpret_cast<const float4*>(in)[threadIdx.x]", Load, Global, "float4", sum(base("in"), mul(c(16), tx)), "", ""},
		{"a shared 2D array tile[32][33]: rows of 33 floats, 132 bytes", `
__global__ void k(const float* in) {
  __shared__ float tile[32][33];
  tile[threadIdx.y][threadIdx.x] = in[0];
}`, "tile[threadIdx.y][threadIdx.x]", Store, Shared, "float", sum(mul(c(132), ty), mul(c(4), tx)), "", ""},
		{"the transposed shared read tile[tx][ty]: tx walks rows", `
__global__ void k(float* out) {
  __shared__ float tile[32][33];
  out[0] = tile[threadIdx.x][threadIdx.y];
}`, "tile[threadIdx.x][threadIdx.y]", Load, Shared, "float", sum(mul(c(132), tx), mul(c(4), ty)), "", ""},
		{"__ldg of &in[2*i] is a load of in at 8*i", `
__global__ void k(const float* in, float* out) { int i = threadIdx.x; out[i] = __ldg(&in[2 * i]); }`,
			"__ldg(&in[2 * i])", Load, Global, "float", sum(base("in"), mul(c(8), tx)), "", ""},
		{"atomicAdd is an atomic at its pointer argument", `
__global__ void k(float* out) { atomicAdd(&out[threadIdx.x], 1.0f); }`,
			"atomicAdd(&out[threadIdx.x], 1.0f)", Atomic, Global, "float", sum(base("out"), mul(c(4), tx)), "", ""},
		{"a compound assignment loads ...", `
__global__ void k(float* a) { a[threadIdx.x * 2] += 1.0f; }`,
			"a[threadIdx.x * 2]", Load, Global, "float", sum(base("a"), mul(c(8), tx)), "", ""},
		{"... and stores the same place", `
__global__ void k(float* a) { a[threadIdx.x * 2] += 1.0f; }`,
			"a[threadIdx.x * 2]", Store, Global, "float", sum(base("a"), mul(c(8), tx)), "", ""},
		{"a member of a float4 element: y at 4 of 16", `
__global__ void k(const float4* v, float* out) { out[0] = v[threadIdx.x].y; }`,
			"v[threadIdx.x].y", Load, Global, "float", sum(base("v"), mul(c(16), tx), c(4)), "float4", "y"},
		{"a C cast to float2* then a member: 8-byte elements, y at 4", `
__global__ void k(const float* in, float* out) { const float2* p = (const float2*)in; out[0] = p[threadIdx.x].y; }`,
			"p[threadIdx.x].y", Load, Global, "float", sum(base("in"), mul(c(8), tx), c(4)), "float2", "y"},
		{"__constant__ memory is its own space, from its start", `
__constant__ float coef[16];
__global__ void k(float* out) { out[0] = coef[threadIdx.x / 2]; }`,
			"coef[threadIdx.x / 2]", Load, Constant, "float", mul(c(4), symbolic.Binary(symbolic.OpDiv, tx, c(2))), "", ""},
		{"a local array is local memory", `
__global__ void k(float* out, int n) { float buf[4]; buf[n % 4] = 1; out[0] = buf[0]; }`,
			"buf[n % 4]", Store, Local, "float", mul(c(4), symbolic.Binary(symbolic.OpRem, param("n"), c(4))), "", ""},
		{"dynamic shared memory: extern __shared__ float s[]", `
__global__ void k(float* out) { extern __shared__ float s[]; s[threadIdx.x + 1] = 0; }`,
			"s[threadIdx.x + 1]", Store, Shared, "float", sum(mul(c(4), tx), c(4)), "", ""},
		{"a shared 2D array of doubles: rows of 32 doubles, 256 bytes", `
__global__ void k() { __shared__ double sd[8][32]; sd[threadIdx.y][threadIdx.x] = 2; }`,
			"sd[threadIdx.y][threadIdx.x]", Store, Shared, "double", sum(mul(c(256), ty), mul(c(8), tx)), "", ""},
		{"atomicCAS through a cast pointer is an int atomic", `
__global__ void k(float* in) { atomicCAS((int*)in + threadIdx.x, 0, 1); }`,
			"atomicCAS((int*)in + threadIdx.x, 0, 1)", Atomic, Global, "int", sum(base("in"), mul(c(4), tx)), "", ""},
		{"a struct copied by value is one access of the struct's type", `
struct P { float x, y, z; };
__global__ void k(const P* ps, float* out) { P q = ps[threadIdx.x]; out[0] = q.x; }`,
			"ps[threadIdx.x]", Load, Global, "P", sum(base("ps"), mul(c(12), tx)), "", ""},
		{"a union's members share offset 0; its size is its double's, 8", `
union U { float f; int i; double d; };
__global__ void k(const U* us, float* out) { out[0] = us[threadIdx.x].f; }`,
			"us[threadIdx.x].f", Load, Global, "float", sum(base("us"), mul(c(8), tx)), "U", "f"},
		{"a struct member in a shared array: z at 8 of 12", `
struct P { float x, y, z; };
__global__ void k() { __shared__ P sp[64]; sp[threadIdx.x].z = 1; }`,
			"sp[threadIdx.x].z", Store, Shared, "float", sum(mul(c(12), tx), c(8)), "P", "z"},
		{"an int4 cast of &in[4*tx]: 16 bytes from 16*tx", `
__global__ void k(const float* in, int* out) { int4 v = reinterpret_cast<const int4*>(&in[4 * threadIdx.x])[0]; out[0] = v.x; }`,
			"reinterpret_cast<const int4*>(&in[4 * threadIdx.x])[0]", Load, Global, "int4", sum(base("in"), mul(c(16), tx)), "", ""},
		{"an int parameter stride: in[i*s] is 4*s*i", `
__global__ void k(const float* in, float* out, int s) { int i = threadIdx.x; out[i] = in[i * s]; }`,
			"in[i * s]", Load, Global, "float", sum(base("in"), mul(c(4), param("s"), tx)), "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := accessOf(t, runKernel(t, tt.src), tt.expr, tt.op)
			if a.Space != tt.space {
				t.Errorf("space = %v, want %v", a.Space, tt.space)
			}
			if a.Type == nil || a.Type.Name != tt.typ {
				t.Errorf("type = %v, want %s", a.Type, tt.typ)
			}
			if tt.addr != nil {
				sameExpr(t, "address", a, a.Addr, tt.addr)
			}
			gotStruct := ""
			if a.Struct != nil {
				gotStruct = a.Struct.Name
			}
			if gotStruct != tt.strct || a.Field != tt.field {
				t.Errorf("member = %s.%s, want %s.%s", gotStruct, a.Field, tt.strct, tt.field)
			}
		})
	}
}

// TestTemplateTypeArgument: a template kernel run with T bound to double
// indexes 8-byte elements; run generically, T is unknown and so is the
// element's type.
func TestTemplateTypeArgument(t *testing.T) {
	src := `
template <typename T>
__global__ void k(T* out) { out[threadIdx.x] = 0; }`
	f := parser.Parse("k.cu", []byte(src), parser.Config{})
	p := NewProgram([]*parser.File{f})
	d, _ := ctype.Builtin("double")
	a := accessOf(t, p.RunKernel(f, p.Kernels[0], map[string]*ctype.Type{"T": d}), "out[threadIdx.x]", Store)
	if a.Type != d {
		t.Errorf("type %v, want double", a.Type)
	}
	sameExpr(t, "address", a, a.Addr, sum(base("out"), mul(c(8), tid(0))))
	g := accessOf(t, p.RunKernel(f, p.Kernels[0], nil), "out[threadIdx.x]", Store)
	if g.Type == nil || g.Type.LayoutKnown() {
		t.Errorf("generic run: type %v, want one of unknown layout", g.Type)
	}
}

// TestPointerSelect: p = n > 0 ? a : b points into one of two
// allocations: the access names both, and its address is a's when the
// condition holds (tx floats in: 4*tx) and not in a's otherwise.
func TestPointerSelect(t *testing.T) {
	a := accessOf(t, runKernel(t, `
__global__ void k(const float* a, const float* b, float* out, int n) {
  const float* r = n > 0 ? a : b;
  out[0] = r[threadIdx.x];
}`), "r[threadIdx.x]", Load)
	if a.Base.String() != "a or b" {
		t.Errorf("base %q, want both allocations", a.Base)
	}
	at := func(n int64) int64 {
		v, ok := symbolic.Eval(a.Addr, map[symbolic.SymID]int64{key(tid(0)): 3, key(param("n")): n, key(base("a")): 0, key(base("b")): 0})
		if !ok {
			t.Fatalf("address %v cannot be evaluated", a.Addr)
		}
		return v
	}
	if got := at(1); got != 12 {
		t.Errorf("n = 1: address %d, want 12 (a's element 3)", got)
	}
	if got := at(0); got == 12 {
		t.Errorf("n = 0: address %d is a's, want b's", got)
	}
}

// TestStructParamField: a struct parameter's fields are parameters too.
// The address is 4*tx*stride from the data pointer's base: affine in tx
// with a coefficient that is 4 times a uniform symbol for v.stride, and
// nothing in it is data (the model needs the stride as a launch value).
func TestStructParamField(t *testing.T) {
	a := accessOf(t, runKernel(t, `
struct View { float* data; int stride; };
__global__ void k(View v) { v.data[threadIdx.x * v.stride] = 0; }`), "v.data[threadIdx.x * v.stride]", Store)
	if a.Base.String() != "v.data" {
		t.Errorf("base = %q, want v.data", a.Base)
	}
	coeff, ok := symbolic.Coefficient(a.Addr, key(tid(0)))
	if !ok {
		t.Fatalf("address %v is not affine in threadIdx.x", a.Addr)
	}
	if symbolic.ClassOf(a.Addr) != symbolic.Lane {
		t.Errorf("address %v is of class %v, want lane (uniform sizes times the lane index)", a.Addr, symbolic.ClassOf(a.Addr))
	}
	var stride *symbolic.Var
	symbolic.Symbols(coeff, func(v *symbolic.Var) { stride = v })
	if stride == nil || stride.Kind != symbolic.KindParam || symbolic.Key(coeff) != symbolic.Key(mul(c(4), symbolic.NewSym(*stride))) {
		t.Errorf("coefficient of threadIdx.x = %v, want 4 times v.stride's parameter symbol", coeff)
	}
}

// TestTernaryAddress: a ternary in an index is a selection in the
// address, which must pick tx's float for tx > 5 and element 0 else.
func TestTernaryAddress(t *testing.T) {
	a := accessOf(t, runKernel(t, `
__global__ void k(float* out) { out[threadIdx.x > 5 ? threadIdx.x : 0] = 3; }`), "out[threadIdx.x > 5 ? threadIdx.x : 0]", Store)
	for _, x := range []int64{0, 5, 6, 31} {
		want := int64(0)
		if x > 5 {
			want = 4 * x
		}
		got, ok := symbolic.Eval(a.Addr, map[symbolic.SymID]int64{key(tid(0)): x, key(base("out")): 0})
		if !ok || got != want {
			t.Errorf("address %v at threadIdx.x = %d is %d (%v), want %d", a.Addr, x, got, ok, want)
		}
	}
}

// TestAccessExprText: an access's Expr is the access as written, for
// messages, with a parenthesised pointer expression's opening
// parenthesis: (in + 1)[threadIdx.x] was once recorded as
// "in + 1)[threadIdx.x]", the Index starting where its base's inner
// expression does (the parser has no node for parentheses).
func TestAccessExprText(t *testing.T) {
	for _, expr := range []string{"(in + 1)[threadIdx.x]", "((const float2*)in)[threadIdx.x].y"} {
		run := runKernel(t, "__global__ void k(const float* in, float* out) { out[0] = "+expr+"; }")
		accessOf(t, run, expr, Load)
	}
}
