package warp

import (
	"strings"
	"testing"

	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/symbolic"
)

// TestUnknownAddress: an address the model cannot evaluate has no
// number, and the prediction says what it depends on.
func TestUnknownAddress(t *testing.T) {
	idx := loaded("idx[tid]", symbolic.Data)
	tests := []struct {
		name   string
		addr   symbolic.Expr
		params map[symbolic.SymID]bool
		cause  symbolic.UnknownCause
		of     string
		reason string // a part of Reason()
	}{
		{"an index loaded per lane", sum(mul(c(4), idx)), nil, symbolic.CauseLoadedValue, "idx[tid]", "the value loaded by idx[tid] at 7:3"},
		// A uniform name that is no parameter of the kernel: no launch can
		// give it, and it is not assumed.
		{"a name nothing resolves", mul(c(4), sum(param("W"), tid(0))), nil, symbolic.CauseUnresolvedName, "W", "W, which cudalint cannot resolve"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Predict(access(typ(t, "float"), tt.addr), config(dim(1, 1), dim(32, 1), nil), tt.params)
			if p.Known || p.NoLane {
				t.Fatalf("known %v, no lane %v; want unknown", p.Known, p.NoLane)
			}
			if p.Unknown.Cause != tt.cause || p.Unknown.Name != tt.of {
				t.Errorf("unknown %+v, want cause %v about %s", p.Unknown, tt.cause, tt.of)
			}
			if !strings.Contains(p.Reason(), tt.reason) {
				t.Errorf("reason %q, want it to say %q", p.Reason(), tt.reason)
			}
		})
	}
}

// TestAssumedParam: a parameter no launch gives is assumed large
// (AssumedValue, a multiple of 32) and the prediction says so. in[tx*n]
// with n = 4096 floats puts lanes 16 KiB apart: 32 sectors.
func TestAssumedParam(t *testing.T) {
	p := Predict(access(typ(t, "float"), mul(c(4), tid(0), param("n"))), config(dim(1, 1), dim(32, 1), nil), map[symbolic.SymID]bool{symbolic.ParamID("n"): true})
	if !p.Known || !near(p.Sectors, 32) || !near(p.Ideal, 4) {
		t.Errorf("sectors %v, ideal %v; want 32, 4", p.Sectors, p.Ideal)
	}
	if a, ok := hasAssumption(p, AssumedParam, "n"); !ok || a.Value != AssumedValue {
		t.Errorf("assumptions %v, want n = %d", p.Assumptions, AssumedValue)
	}
	if p.Facts.Bounded {
		t.Error("bounded, though n was assumed")
	}
	// The lane stride is with n bound: 4 * 4096.
	if p.LaneStride == nil || *p.LaneStride != 4*AssumedValue || p.Facts.LaneBytes[0] != 4*AssumedValue || !p.Facts.LaneKnown[0] {
		t.Errorf("lane stride %v, facts %+v; want %d", p.LaneStride, p.Facts, 4*AssumedValue)
	}
}

// TestAssumedGrid: a grid dimension no launch gives is assumed, and an
// address on blockIdx.x says so; one the launch gives is not noted.
func TestAssumedGrid(t *testing.T) {
	cfg := config(dim(16, 1), dim(32, 1), nil)
	cfg.GridKnown[0] = false
	p := Predict(access(typ(t, "float"), mul(c(4), globalX())), cfg, nil)
	if a, ok := hasAssumption(p, AssumedGrid, "x"); !ok || a.Value != 16 || !near(p.Sectors, 4) {
		t.Errorf("sectors %v, assumptions %v; want 4 with gridDim.x = 16 assumed", p.Sectors, p.Assumptions)
	}
	// Only tx: the grid does not matter, nothing is assumed.
	p = Predict(access(typ(t, "float"), mul(c(4), tid(0))), cfg, nil)
	if len(p.Assumptions) != 0 {
		t.Errorf("assumptions %v for an address on tx alone", p.Assumptions)
	}
}

// TestMerge: two accesses at one position average per instruction: a
// float3 (3 instructions of 12 sectors) with a float (1 of 4) is
// (36 + 4) / 4 = 10 sectors, ideal (12 + 4) / 4 = 4.
func TestMerge(t *testing.T) {
	cfg := config(dim(1, 1), dim(32, 1), nil)
	p := Predict(access(typ(t, "float3"), mul(c(12), tid(0))), cfg, nil)
	q := Predict(access(typ(t, "float"), mul(c(4), tid(0))), cfg, nil)
	p.Merge(q)
	if !p.Known || !near(p.Sectors, 10) || !near(p.Ideal, 4) || p.Pieces != 4 {
		t.Errorf("sectors %v, ideal %v, pieces %d; want 10, 4, 4", p.Sectors, p.Ideal, p.Pieces)
	}
	if p.LaneStride != nil {
		t.Errorf("lane stride %d kept, though the two differ (12 and 4)", *p.LaneStride)
	}
	// Merging an unknown makes the whole unknown.
	u := Predict(access(typ(t, "float"), mul(c(4), loaded("idx[tid]", symbolic.Data))), cfg, nil)
	p.Merge(u)
	if p.Known || p.Unknown.Cause != symbolic.CauseLoadedValue {
		t.Errorf("known %v, unknown %+v after merging an unknown", p.Known, p.Unknown)
	}
}

// TestMergeNoLane: an access no lane performs under the launch (a
// branch its sizes rule out) issues no request, so merged with one at
// the same position it adds nothing: the line costs what the executed
// access costs, 4 sectors. combine (loops.go) skips such copies the
// same way. (Merge once took the NoLane prediction's Known = false for an
// unknown, in either order, and the line lost its number.)
func TestMergeNoLane(t *testing.T) {
	cfg := config(dim(1, 1), dim(32, 1), nil)
	known := func() *Prediction { return Predict(access(typ(t, "float"), mul(c(4), tid(0))), cfg, nil) }
	none := func() *Prediction { return Predict(access(typ(t, "float"), mul(c(4), tid(0)), c(0)), cfg, nil) }
	for _, order := range [][2]func() *Prediction{{known, none}, {none, known}} {
		p, q := order[0](), order[1]()
		p.Merge(q)
		if !p.Known || !near(p.Sectors, 4) {
			t.Errorf("known %v, no lane %v, sectors %v; want 4 sectors from the access that runs", p.Known, p.NoLane, p.Sectors)
		}
	}
}

// TestOneThreadDataAddress: a launch of one thread has one lane per warp,
// so an address that depends on data still touches one sector per
// request: a <<<1, 1>>> set-up kernel's out[idx[0]] is 1 sector, not
// "1 to 32". Under a guessed block (the default) it stays unknown.
func TestOneThreadDataAddress(t *testing.T) {
	idx := loaded("idx[0]", symbolic.Data)
	for _, tt := range []struct {
		name   string
		source launch.BlockSource
		block  launch.Dim3
		known  bool
	}{
		{"a launch of one thread", launch.FromLaunch, dim(1, 1), true},
		{"a launch of a warp", launch.FromLaunch, dim(32, 1), false},
		{"a default block", launch.FromDefault, dim(1, 1), false},
	} {
		cfg := config(dim(1, 1), tt.block, nil)
		cfg.BlockSource = tt.source
		p := Predict(access(typ(t, "float"), mul(c(4), idx)), cfg, nil)
		if p.Known != tt.known || (tt.known && (!near(p.Sectors, 1) || !near(p.Ideal, 1))) {
			t.Errorf("%s: known %v, sectors %v, ideal %v; want known %v at 1", tt.name, p.Known, p.Sectors, p.Ideal, tt.known)
		}
	}
}
