package warp

import (
	"testing"

	"github.com/cudalint/cudalint/symbolic"
)

// TestResidueDistribution: how many (block, iteration) tuples put the
// base address at each residue mod the period. Each row lists the
// residues k*u (+ c0) takes for u in [0, n), worked out by hand.
func TestResidueDistribution(t *testing.T) {
	tests := []struct {
		name   string
		c0     int64
		terms  []uniformTerm
		period int64
		want   map[int64]float64 // residue -> count; the rest 0
	}{
		// 4 + 12u for u = 0..7: 4, 16, 28, 40=8, 52=20, 64=0, 76=12, 88=24.
		{"a 12-byte step visits every multiple of 4 once", 4, []uniformTerm{{k: 12, n: 8}}, 32,
			map[int64]float64{0: 1, 4: 1, 8: 1, 12: 1, 16: 1, 20: 1, 24: 1, 28: 1}},
		// A 32-byte step never leaves c0's residue.
		{"a step of a whole sector", 36, []uniformTerm{{k: 32, n: 5}}, 32, map[int64]float64{4: 5}},
		// 4u for u = 0..9 wraps after 8: residues 0 and 4 twice.
		{"a step that wraps", 0, []uniformTerm{{k: 4, n: 10}}, 32,
			map[int64]float64{0: 2, 4: 2, 8: 1, 12: 1, 16: 1, 20: 1, 24: 1, 28: 1}},
		// {0, 4} + {0, 8}: 0, 8, 4, 12 once each.
		{"two terms convolve", 0, []uniformTerm{{k: 4, n: 2}, {k: 8, n: 2}}, 32, map[int64]float64{0: 1, 4: 1, 8: 1, 12: 1}},
		// A negative step: -4u for u = 0..2 is 0, 28, 24.
		{"a negative step", 0, []uniformTerm{{k: -4, n: 3}}, 32, map[int64]float64{0: 1, 28: 1, 24: 1}},
		// Shared memory's period is 128 bytes: 132u is 0, 4, 8, 12.
		{"rows of 33 floats mod 128", 0, []uniformTerm{{k: 132, n: 4}}, 128, map[int64]float64{0: 1, 4: 1, 8: 1, 12: 1}},
		// A loop given by its counts (carried values) is taken as counted.
		{"a term given by counts", 0, []uniformTerm{{n: 3, counts: countsAt(32, map[int64]float64{8: 2, 16: 1})}}, 32, map[int64]float64{8: 2, 16: 1}},
	}
	for _, tt := range tests {
		got := residueDistribution(tt.c0, tt.terms, tt.period)
		for r := int64(0); r < tt.period; r++ {
			if got[r] != tt.want[r] {
				t.Errorf("%s: residue %d has %v tuples, want %v", tt.name, r, got[r], tt.want[r])
			}
		}
	}
}

func countsAt(period int64, m map[int64]float64) []float64 {
	out := make([]float64, period)
	for r, n := range m {
		out[r] = n
	}
	return out
}

func TestGcd(t *testing.T) {
	for _, tt := range []struct{ a, b, want int64 }{{0, 32, 32}, {12, 32, 4}, {32, 32, 32}, {7, 32, 1}, {48, 32, 16}} {
		if got := gcd(tt.a, tt.b); got != tt.want {
			t.Errorf("gcd(%d, %d) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestClosedFormPitch: rows of 33 floats (132 bytes) read by warps of 32
// lanes: row r starts at 132r = 4r mod 32, so rows 0..3 cost 4, 5, 5, 5
// sectors, and blockIdx.y over 4 rows averages 19/4 = 4.75, exactly,
// with no request evaluated one by one.
func TestClosedFormPitch(t *testing.T) {
	a := access(typ(t, "float"), mul(c(4), sum(mul(c(33), bid(1)), tid(0))))
	p := Predict(a, config(dim(1, 4), dim(32, 1), nil), nil)
	if !p.Known || !near(p.Sectors, 4.75) || !near(p.Ideal, 4) || !p.Exact || p.BlocksEvaluated != 0 {
		t.Errorf("sectors %v, ideal %v, exact %v, blocks evaluated %d; want 4.75, 4, exact in closed form", p.Sectors, p.Ideal, p.Exact, p.BlocksEvaluated)
	}
	// 4 blocks of 1 warp: the closed form counts every request.
	if p.Requests != 4 {
		t.Errorf("%d requests, want 4", p.Requests)
	}
}

// TestUniformResidue: an address that adds a warp-uniform loaded value
// (a base read from boxes[blockIdx.x].offset) has no residue the model
// knows: it averages over those the value can have.
func TestUniformResidue(t *testing.T) {
	u := loaded("boxes[blockIdx.x].offset", symbolic.Uniform)
	tests := []struct {
		name     string
		elem     string
		addr     symbolic.Expr
		sectors  float64
		residues int64 // 0: one residue suffices, no averaging
		step     int64
		lo, hi   float64
	}{
		// 4u: residues 0, 4, ..., 28 (8 of them); 128 bytes from r cost 4
		// sectors at r = 0 and 5 at the other 7: (4 + 35) / 8.
		{"floats from a float offset", "float", sum(mul(c(4), u), mul(c(4), tid(0))), 39.0 / 8, 8, 4, 4, 5},
		// 8u with doubles: residues 0, 8, 16, 24; 256 bytes cost 8
		// sectors at 0 and 9 elsewhere: (8 + 27) / 4.
		{"doubles from a double offset", "double", sum(mul(c(8), u), mul(c(8), tid(0))), 35.0 / 4, 4, 8, 8, 9},
		// 128u is a multiple of 32: the one residue 0 stands for all.
		{"an offset in whole rows of 32 floats", "float", sum(mul(c(128), u), mul(c(4), tid(0))), 4, 0, 0, 0, 0},
		// Lanes 4096 bytes apart cost 32 at every residue: no averaging.
		{"a column walk from any offset", "float", sum(mul(c(4), u), mul(c(4096), tid(0))), 32, 0, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Predict(access(typ(t, tt.elem), tt.addr), config(dim(1, 1), dim(32, 1), nil), nil)
			if !p.Known || !near(p.Sectors, tt.sectors) {
				t.Fatalf("known %v, sectors %v; want %v", p.Known, p.Sectors, tt.sectors)
			}
			a, ok := hasAssumption(p, UniformResidue, "boxes[blockIdx.x].offset")
			if tt.residues == 0 {
				if ok || p.BaseResidue != nil {
					t.Errorf("assumption %+v, base residue %v; want none", a, p.BaseResidue)
				}
				return
			}
			if !ok || a.Value != tt.residues || a.Step != tt.step || a.Lo != tt.lo || a.Hi != tt.hi || a.Cause != symbolic.CauseLoadedValue {
				t.Errorf("assumption %+v, want %d residues %d apart, %v to %v sectors", a, tt.residues, tt.step, tt.lo, tt.hi)
			}
			if p.BaseResidue == nil || p.BaseResidue.Name != "boxes[blockIdx.x].offset" {
				t.Errorf("base residue %v, want the load", p.BaseResidue)
			}
		})
	}
}
