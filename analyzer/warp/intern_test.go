package warp

import (
	"slices"
	"testing"
)

func lanesOf(base, stride int64) []int64 {
	w := make([]int64, 32)
	for i := range w {
		w[i] = base + int64(i)*stride
	}
	return w
}

// Equal warps end up as one slice; different ones, and the warps of
// predictions that have none or a partial one, are left as they were.
func TestLanesShare(t *testing.T) {
	a1, a2, b := lanesOf(0, 4), lanesOf(0, 4), lanesOf(0, 8)
	off := lanesOf(0, 4)
	off[31] = -1 // one inactive lane: a different warp
	short := []int64{0, 4}
	ps := []*Prediction{{Warp: a1}, {Warp: a2}, {Warp: b}, {Warp: off}, {Warp: short}, {}}
	var l Lanes
	l.Share(ps[:2])
	l.Share(ps[2:]) // a later kernel's predictions meet the earlier ones' warps
	tests := []struct {
		name   string
		i, j   int
		shared bool
	}{
		{"equal warps", 0, 1, true},
		{"another stride", 0, 2, false},
		{"an inactive lane", 0, 3, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			same := &ps[tt.i].Warp[0] == &ps[tt.j].Warp[0]
			if same != tt.shared {
				t.Errorf("shared %v, want %v", same, tt.shared)
			}
		})
	}
	if !slices.Equal(ps[1].Warp, lanesOf(0, 4)) || !slices.Equal(ps[3].Warp, off) {
		t.Errorf("contents changed: %v, %v", ps[1].Warp, ps[3].Warp)
	}
	if &ps[4].Warp[0] != &short[0] || ps[5].Warp != nil {
		t.Errorf("a warp not of 32 lanes was replaced")
	}
	var none *Lanes
	none.Share(ps) // a nil Lanes shares nothing and does not panic
}
