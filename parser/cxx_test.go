package parser

import "testing"

// C++ that real projects write in kernels reads without a note: each of
// these statements was skipped as not understood before.
func TestKernelCxxConstructsRead(t *testing.T) {
	tests := []struct{ name, stmt string }{
		{"member template", "load.template load<4>(a, i);"},
		{"arrow member template", "p->template get<float>(i);"},
		{"qualified template", "a[i] = T::template cast<float>(a[i]);"},
		{"member template in an index", "a[s.template off<2>(i)] = 0;"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(t, "template <typename T, typename L> __global__ void k(float *a, L load, L *p, L s, int i) {\n    "+tt.stmt+"\n}\n")
			if len(f.Notes) != 0 {
				t.Errorf("%s: notes %v", tt.stmt, f.Notes)
			}
		})
	}
}
