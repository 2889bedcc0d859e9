package warp

import (
	"testing"

	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/parser/lex"
	"github.com/cudalint/cudalint/symbolic"
)

// pitchLoop is out[r*33 + tx] over r < 4, one warp: row r of 33 floats
// starts at 132r = 4r mod 32 bytes, so iterations cost 4, 5, 5, 5
// sectors (128 bytes from offset 0, 4, 8, 12), 4.75 on average.
func pitchLoop(t *testing.T, unroll lex.Unroll) *interp.Access {
	r := loopIter("r")
	a := access(typ(t, "float"), mul(c(4), sum(mul(c(33), r), tid(0))))
	return inLoop(a, r, lt(r, c(4)), 4, unroll)
}

// TestUnrolledCopies: a loop the compiler unrolls is one instruction per
// copy of its body, each with its own cost; the prediction is their
// average, with the copies listed.
func TestUnrolledCopies(t *testing.T) {
	tests := []struct {
		name   string
		unroll lex.Unroll
		copies []float64 // nil: kept rolled
	}{
		{"#pragma unroll: a copy per iteration", lex.UnrollFull, []float64{4, 5, 5, 5}},
		{"no pragma, a constant trip of 4: unrolled fully", lex.UnrollNone, []float64{4, 5, 5, 5}},
		// Copy j runs iterations j and j + 2: copy 0 offsets 0 and 8 (4
		// and 5 sectors), copy 1 offsets 4 and 12 (5 and 5).
		{"#pragma unroll 2: two copies of two iterations", lex.UnrollCount(2), []float64{4.5, 5}},
		{"#pragma unroll 1: rolled, the average over iterations", lex.UnrollCount(1), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Predict(pitchLoop(t, tt.unroll), config(dim(1, 1), dim(32, 1), nil), nil)
			if !p.Known || !near(p.Sectors, 4.75) || !near(p.Ideal, 4) || !p.Exact {
				t.Fatalf("known %v, sectors %v, ideal %v, exact %v; want 4.75 for 4, exact", p.Known, p.Sectors, p.Ideal, p.Exact)
			}
			if tt.copies == nil {
				if p.Unrolled != nil {
					t.Errorf("unrolled %+v, want a rolled loop", p.Unrolled)
				}
				return
			}
			if p.Unrolled == nil || len(p.Unrolled.Copies) != len(tt.copies) {
				t.Fatalf("unrolled %+v, want %d copies", p.Unrolled, len(tt.copies))
			}
			for i, cp := range p.Unrolled.Copies {
				if !cp.Known || !near(cp.Sectors, tt.copies[i]) {
					t.Errorf("copy %d: %v sectors (known %v), want %v", i, cp.Sectors, cp.Known, tt.copies[i])
				}
			}
			if !p.Unrolled.Differ() {
				t.Errorf("copies %+v said to cost the same", p.Unrolled.Copies)
			}
		})
	}
}

// TestUnrollCopies: the compiler's unrolling as measured (loops.go's
// comment): a bare pragma or a count at least the trip unrolls fully, a
// count dividing the trip makes that many copies, no pragma unrolls
// fully up to 64 instructions, and a loop that may leave early is kept.
func TestUnrollCopies(t *testing.T) {
	tests := []struct {
		name     string
		unroll   lex.Unroll
		trip     int64
		inner    int64 // copies already made of inner loops
		accesses int
		leaves   bool
		want     int64 // 0: kept rolled
	}{
		{"bare pragma", lex.UnrollFull, 8, 1, 1, false, 8},
		{"count above the trip", lex.UnrollCount(16), 8, 1, 1, false, 8},
		{"count dividing the trip", lex.UnrollCount(4), 8, 1, 1, false, 4},
		{"count not dividing the trip", lex.UnrollCount(3), 8, 1, 1, false, 0},
		{"count 1 keeps it", lex.UnrollCount(1), 8, 1, 1, false, 0},
		{"no pragma, 16 trips of 4 accesses: 64", lex.UnrollNone, 16, 1, 4, false, 16},
		{"no pragma, 65 instructions: kept", lex.UnrollNone, 65, 1, 1, false, 0},
		{"no pragma inside 8 inner copies: 8 x 16 > 64", lex.UnrollNone, 16, 8, 1, false, 0},
		{"a break keeps it", lex.UnrollFull, 8, 1, 1, true, 0},
		{"no constant trip", lex.UnrollFull, 0, 1, 1, false, 0},
	}
	for _, tt := range tests {
		l := &interp.Loop{Unroll: tt.unroll, Accesses: tt.accesses, Leaves: tt.leaves}
		n, ok := unrollCopies(l, tt.trip, tt.inner)
		if (tt.want == 0 && ok) || (tt.want != 0 && (!ok || n != tt.want)) {
			t.Errorf("%s: %d copies (%v), want %d", tt.name, n, ok, tt.want)
		}
	}
}

// TestUnrollPlanSkipsUnusedLoops: a copy that reads what the one before
// read is the same load; a loop whose iteration the address does not
// read is not taken apart.
func TestUnrollPlanSkipsUnusedLoops(t *testing.T) {
	r := loopIter("r")
	a := inLoop(access(typ(t, "float"), mul(c(4), tid(0))), r, lt(r, c(4)), 4, lex.UnrollFull)
	if plan, ok := unrollPlan(a, nil); ok {
		t.Errorf("plan %+v for a loop the address does not read", plan)
	}
}

// TestGridStrideLoop: for (i = gx; i < n; i += 2048) over 8 blocks of
// 256. Lanes are consecutive floats in every iteration: 4 sectors.
func TestGridStrideLoop(t *testing.T) {
	it := loopIter("i")
	stride := mul(bdim(0), gdim(0))
	i := sum(globalX(), mul(it, stride))
	mk := func() *interp.Access {
		return inLoop(access(typ(t, "float"), mul(c(4), i)), it, lt(i, param("n")), 0, lex.UnrollNone)
	}
	cfg := dim(8, 1)

	// n unknown: the condition is per lane and never evaluable, so the
	// trip count is unknown: 8 iterations averaged, as it says.
	p := Predict(mk(), config(cfg, dim(256, 1), nil), map[symbolic.SymID]bool{symbolic.ParamID("n"): true})
	if !p.Known || !near(p.Sectors, 4) {
		t.Errorf("n unknown: sectors %v, want 4", p.Sectors)
	}
	if a, ok := hasAssumption(p, TripUnknown, ""); !ok || a.Value != assumedTrips {
		t.Errorf("n unknown: assumptions %v, want the trip count assumed", p.Assumptions)
	}

	// n = 8192: 4 trips, every lane in. Exact, nothing assumed.
	p = Predict(mk(), config(cfg, dim(256, 1), map[string]int64{"n": 8192}), nil)
	if !p.Known || !near(p.Sectors, 4) || !p.Exact || len(p.Assumptions) != 0 {
		t.Errorf("n = 8192: sectors %v, exact %v, assumptions %v; want 4, exact, none", p.Sectors, p.Exact, p.Assumptions)
	}

	// n = 8176: at i's last trip (6144 + gx < 8176, gx < 2032) the
	// last warp of block 7 (gx 2016..2047) keeps 16 lanes, 2 sectors.
	// 8 blocks x 8 warps x 4 trips = 256 requests: (255*4 + 2) / 256.
	p = Predict(mk(), config(cfg, dim(256, 1), map[string]int64{"n": 8176}), nil)
	if !p.Known || !near(p.Sectors, 1022.0/256) || !near(p.Ideal, 1022.0/256) || !p.Exact || p.Requests != 256 {
		t.Errorf("n = 8176: sectors %v, ideal %v, exact %v, %d requests; want %v, exact, 256", p.Sectors, p.Ideal, p.Exact, p.Requests, 1022.0/256)
	}
}

// carriedOff is a warp-uniform off the loop at line 5 carries.
func carriedOff() (*symbolic.Var, symbolic.Expr) {
	e := symbolic.NewSym(symbolic.Var{Name: "off", Class: symbolic.Uniform, Kind: symbolic.KindUnknown, Cause: symbolic.CauseLoopCarried, Of: "off", Site: symbolic.Site{Line: 5, Col: 3}, ID: 9})
	v, _ := symbolic.AsVar(e)
	return v, e
}

// TestCarriedRecurrence: off = off*3 + 1 from 0 (floats) over 8 trips
// is 0, 1, 4, 13, 40, 121, 364, 1093: bytes 4*off mod 32 are 0, 4, 16,
// 20, 0, 4, 16, 20, so the warp's 128 bytes cost 4, 5, 5, 5 twice: 4.75.
// The model runs the recurrence, rolled or unrolled.
func TestCarriedRecurrence(t *testing.T) {
	for _, unroll := range []lex.Unroll{lex.UnrollCount(1), lex.UnrollNone} {
		v, off := carriedOff()
		k := loopIter("k")
		a := inLoop(access(typ(t, "float"), mul(c(4), sum(off, tid(0)))), k, lt(k, c(8)), 8, unroll)
		a.Loops[0].Carried = []interp.Carried{{Name: "off", Sym: v, Entry: c(0), Next: sum(mul(c(3), off), c(1))}}
		p := Predict(a, config(dim(1, 1), dim(32, 1), nil), nil)
		if !p.Known || !near(p.Sectors, 4.75) || p.BaseResidue != nil {
			t.Errorf("unroll %v: known %v, sectors %v, base residue %v; want 4.75, followed exactly", unroll, p.Known, p.Sectors, p.BaseResidue)
		}
	}
}

// TestCarriedUnknownStep: off += steps[k] adds loaded values: off is a
// uniform unknown, and its residue is averaged as a loaded base's:
// 4*off at 8 residues, 4 sectors at 0 and 5 at the others: 39/8.
func TestCarriedUnknownStep(t *testing.T) {
	v, off := carriedOff()
	k := loopIter("k")
	a := inLoop(access(typ(t, "float"), mul(c(4), sum(off, tid(0)))), k, lt(k, c(8)), 8, lex.UnrollCount(1))
	a.Loops[0].Carried = []interp.Carried{{Name: "off", Sym: v, Entry: c(0), Next: nil}}
	p := Predict(a, config(dim(1, 1), dim(32, 1), nil), nil)
	if !p.Known || !near(p.Sectors, 39.0/8) {
		t.Fatalf("known %v, sectors %v; want 39/8", p.Known, p.Sectors)
	}
	if got, ok := hasAssumption(p, UniformResidue, "off"); !ok || got.Cause != symbolic.CauseLoopCarried || got.Value != 8 {
		t.Errorf("assumptions %v, want the mean over 8 residues of the carried off", p.Assumptions)
	}
}

// TestBlockDependentTrips: for (k = 0; k <= blockIdx.x % 4; k++) over 4
// blocks reading rows of 33 floats: block b runs k = 0..b, so iteration
// k is made by 4 - k blocks. Rows cost 4, 5, 5, 5 sectors (as in
// pitchLoop): (4*4 + 3*5 + 2*5 + 1*5) / (4 + 3 + 2 + 1) = 46/10.
func TestBlockDependentTrips(t *testing.T) {
	k := loopIter("k")
	a := access(typ(t, "float"), mul(c(4), sum(mul(c(33), k), tid(0))))
	a = inLoop(a, k, symbolic.Binary(symbolic.OpLe, k, symbolic.Binary(symbolic.OpRem, bid(0), c(4))), 0, lex.UnrollNone)
	p := Predict(a, config(dim(4, 1), dim(32, 1), nil), nil)
	if !p.Known || !near(p.Sectors, 4.6) || !near(p.Ideal, 4) || !p.Exact {
		t.Errorf("known %v, sectors %v, ideal %v, exact %v; want 4.6, 4, exact", p.Known, p.Sectors, p.Ideal, p.Exact)
	}
	if len(p.Assumptions) != 0 {
		t.Errorf("assumptions %v: the launch gives every trip count", p.Assumptions)
	}
}
