package launch

import (
	"testing"

	"github.com/cudalint/cudalint/symbolic"
)

// Config.Values binds what a launch gives by the symbols' typed
// identities: sizes by builtin, integers by parameter, and pointers'
// null tests by NonNullID, apart from the parameters' values.
func TestConfigValues(t *testing.T) {
	p := program(t, `
__global__ void k(float* p, float* q, int n) { p[threadIdx.x * n] = q[threadIdx.x]; }
int main() { float* a; k<<<64, 256>>>(a, nullptr, 3); }`)
	f := p.Files[0]
	var cfgs []*Config
	for _, fn := range f.Funcs {
		if fn.Name == "k" {
			cfgs, _ = p.Configs(f, fn, false, false, "")
		}
	}
	if len(cfgs) != 1 {
		t.Fatalf("got %d configurations, want 1", len(cfgs))
	}
	got := cfgs[0].Values()
	tests := []struct {
		name string
		id   symbolic.SymID
		want int64
	}{
		{"blockDim.x", symbolic.BlockDim(symbolic.X).ID(), 256},
		{"blockDim.y", symbolic.BlockDim(symbolic.Y).ID(), 1},
		{"gridDim.x", symbolic.GridDim(symbolic.X).ID(), 64},
		{"an integer parameter", symbolic.ParamID("n"), 3},
		{"a pointer given an allocation is non-null", symbolic.NonNullID("p"), 1},
		{"a pointer given nullptr is null", symbolic.NonNullID("q"), 0},
	}
	for _, tt := range tests {
		if v, ok := got[tt.id]; !ok || v != tt.want {
			t.Errorf("%s = %d, %v; want %d", tt.name, v, ok, tt.want)
		}
	}
	if _, ok := cfgs[0].Params["nonnull(p)"]; ok {
		t.Error("a null test is not a parameter's value")
	}
}
