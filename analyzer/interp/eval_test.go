package interp

import (
	"testing"

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

// TestStructParamField: a struct parameter's fields are parameters too.
// The address is 4*tx*stride from the data pointer's base: affine in tx
// with a coefficient that is 4 times a uniform symbol for v.stride, and
// nothing in it is data (the model needs the stride as a launch value).
func TestStructParamField(t *testing.T) {
	a := accessOf(t, runKernel(t, `
struct View { float* data; int stride; };
__global__ void k(View v) { v.data[threadIdx.x * v.stride] = 0; }`), "v.data[threadIdx.x * v.stride]", Store)
	if a.Base != "v.data" {
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
		got, ok := symbolic.Eval(a.Addr, map[string]int64{key(tid(0)): x, key(base("out")): 0})
		if !ok || got != want {
			t.Errorf("address %v at threadIdx.x = %d is %d (%v), want %d", a.Addr, x, got, ok, want)
		}
	}
}
