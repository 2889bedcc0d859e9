package ctype

import "testing"

// One type spelled two ways is the same (at::Half is c10::Half, half
// is __half); types alike in size but not in name are not.
func TestSame(t *testing.T) {
	ts := NewTypes()
	named := func(n string) *Type { return ts.named([]string{n}) }
	tests := []struct {
		a, b string
		want bool
	}{
		{"at::Half", "c10::Half", true},
		{"at::BFloat16", "c10::BFloat16", true},
		{"half", "__half", true},
		{"nv_bfloat16", "__nv_bfloat16", true},
		{"c10::Half", "__half", false}, // a class of PyTorch's, not CUDA's
		{"c10::Half", "c10::BFloat16", false},
		{"float", "int", false},
		{"int", "int", true},
	}
	for _, tt := range tests {
		if got := Same(named(tt.a), named(tt.b)); got != tt.want {
			t.Errorf("Same(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	if !Same(PointerTo(named("at::Half")), PointerTo(named("c10::Half"))) {
		t.Errorf("pointers to one type spelled two ways differ")
	}
}
