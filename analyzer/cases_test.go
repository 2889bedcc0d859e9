package analyzer

import (
	"testing"

	"github.com/cudalint/cudalint/analyzer/interp"
)

// Two instances of a template that interpret alike (T changes no access)
// are predicted once: the second takes the first's predictions, each
// naming its own instance's access and configuration; an instance that
// differs (U's size changes an address) is predicted on its own.
func TestCasesShareAlikeInstances(t *testing.T) {
	const src = `
template <typename T, typename U> __global__ void k(float* a, U* b) {
  a[threadIdx.x * 2] = 0;
  b[threadIdx.x] = 0;
}
void h(float* a, int* i, double* d) {
  k<int, int><<<64, 256>>>(a, i);
  k<short, int><<<64, 256>>>(a, i);
  k<int, double><<<64, 256>>>(a, (double*) d);
}`
	r := analyze(t, src, Options{})
	own := map[*interp.Access]*Kernel{}
	for _, k := range r.Kernels {
		for _, a := range k.Accesses {
			own[a] = k
		}
	}
	stores := find(r, "a[threadIdx.x * 2]", interp.Store)
	if len(stores) != 3 {
		t.Fatalf("%d predictions of a[threadIdx.x * 2], want one per instance", len(stores))
	}
	kernels := map[*Kernel]bool{}
	for _, p := range stores {
		k := own[p.Access]
		if k == nil {
			t.Fatalf("a prediction names an access of no kernel")
		}
		kernels[k] = true
		if p.Sectors != 8 || p.Config != k.Configs[0] {
			t.Errorf("%v sectors under %p, want 8 under its kernel's configuration %p", p.Sectors, p.Config, k.Configs[0])
		}
	}
	if len(kernels) != 3 {
		t.Errorf("the predictions name %d kernels' accesses, want each its own (3)", len(kernels))
	}

	// The memo itself: alike kernels compute once.
	var ks []*Kernel
	for _, k := range r.Kernels {
		ks = append(ks, k)
	}
	cs, computed := newCases(), 0
	for _, k := range ks {
		content := contentKey(k)
		ps := cs.predictions(k, content, k.Configs[0], func() []*Prediction { computed++; return predictKernel(k, k.Configs[0]) })
		for _, p := range ps {
			if own[p.Access] != k {
				t.Errorf("%s: a prediction of another kernel's access", p.Access.Expr)
			}
		}
	}
	if computed != 2 {
		t.Errorf("%d computations for 3 instances of which 2 are alike, want 2", computed)
	}
}
