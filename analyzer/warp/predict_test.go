package warp

import (
	"testing"

	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/symbolic"
)

// noStride marks a row whose address has no constant lane stride.
const noStride = int64(-1 << 62)

// TestGlobalSectors predicts global accesses whose cost follows from the
// hardware's rules alone: a warp is 32 consecutive linear thread indices
// (x fastest), a request is served in 32-byte sectors, and the ideal is
// the fewest sectors that hold the distinct bytes the active lanes need.
// Every number is derived in the row's comment.
func TestGlobalSectors(t *testing.T) {
	f32, f64 := typ(t, "float"), typ(t, "double")
	tx, ty := tid(0), tid(1)
	block32, grid8 := dim(32, 1), dim(8, 1)
	tests := []struct {
		name       string
		a          *interp.Access
		cfg        *launch.Config
		sectors    float64
		ideal      float64
		stride     int64 // bytes between neighbouring lanes, noStride for none
		pieces     int
		misaligned float64
	}{
		// 32 lanes x 4 bytes = 128 contiguous bytes at 128*bx: 4 sectors,
		// all of them needed.
		{"adjacent floats", access(f32, mul(c(4), globalX())), config(grid8, block32, nil), 4, 4, 4, 1, 0},
		// Lane tx reads row tx of a 1024-float matrix: 4096 bytes apart,
		// one sector each, 32 in all for 128 useful bytes (4 sectors).
		{"a column walk", access(f32, mul(c(4096), tx)), config(dim(1, 1), block32, nil), 32, 4, 4096, 1, 0},
		// Every other float: lanes span 256 bytes, 8 sectors, half of each
		// wasted: ideal 4.
		{"stride 2 floats", access(f32, mul(c(8), globalX())), config(grid8, block32, nil), 8, 4, 8, 1, 0},
		// Field y (offset 4) of a 12-byte struct: lanes at 4, 16, ..., 376,
		// bytes 4 to 379 touch sectors 0..11 (a 12-byte stride skips no
		// sector): 12 sectors for 128 bytes.
		{"an AoS field of a 12-byte struct", access(f32, sum(mul(c(12), tx), c(4))), config(dim(1, 1), block32, nil), 12, 4, 12, 1, 0},
		// One float past a sector boundary: bytes 4..131 touch sectors
		// 0..4, five, where 128 bytes need 4.
		{"misaligned by one float", access(f32, sum(c(4), mul(c(4), globalX()))), config(grid8, block32, nil), 5, 4, 4, 1, 0},
		// 32 doubles: 256 contiguous bytes, 8 sectors, all needed.
		{"adjacent doubles", access(f64, mul(c(8), globalX())), config(grid8, block32, nil), 8, 8, 8, 1, 0},
		// 32 float4s: 512 bytes in one 16-byte instruction, 16 sectors.
		{"16-byte vectors", access(typ(t, "float4"), mul(c(16), globalX())), config(grid8, block32, nil), 16, 16, 16, 1, 0},
		// float3 is 4-aligned: three 4-byte instructions, each lanes 12
		// bytes apart (12 sectors, as the AoS field), each needing 4.
		{"float3 splits in three", access(typ(t, "float3"), mul(c(12), globalX())), config(grid8, block32, nil), 12, 4, 12, 3, 0},
		// A float4 at 4 + 16*tx is not 16-byte aligned in any lane: every
		// request faults. 512 bytes from byte 4 reach sector 16: 17.
		{"a misaligned float4", access(typ(t, "float4"), sum(c(4), mul(c(16), tx))), config(dim(1, 1), block32, nil), 17, 16, 16, 1, 1},
		// A 16x16 block over rows of 1024 floats: a warp is rows ty and
		// ty+1, 16 floats (64 bytes, 64-aligned) of each: 2 + 2 sectors.
		{"a 16x16 block over rows of 1024 floats",
			access(f32, mul(c(4), sum(mul(sum(mul(bid(1), c(16)), ty), c(1024)), mul(bid(0), c(16)), tx))),
			config(dim(64, 64), dim(16, 16), nil), 4, 4, 4, 1, 0},
		// The same block with x and y swapped in the index: each of the 16
		// tx values is its own row; the two ty values are adjacent floats
		// of it, in one sector: 16 sectors for 128 bytes.
		{"the 16x16 block indexing [x][y]",
			access(f32, mul(c(4), sum(mul(sum(mul(bid(0), c(16)), tx), c(1024)), mul(bid(1), c(16)), ty))),
			config(dim(64, 64), dim(16, 16), nil), 16, 4, 4096, 1, 0},
		// A 24x2 block over rows of 1024 floats: warp 0 is row 0's 24
		// floats (96 bytes from 0: 3 sectors) and row 1's first 8 (32
		// bytes at 4096: 1); warp 1 is row 1's floats 8..23 (bytes 32..95
		// past 4096: 2). (4 + 2) / 2 = 3, and 128 + 64 bytes need 3.
		{"a 24x2 block: warps straddle rows", access(f32, mul(c(4), sum(mul(ty, c(1024)), tx))), config(dim(1, 1), dim(24, 2), nil), 3, 3, 4, 1, 0},
		// Every lane reads one float: 1 sector, 4 bytes needed, 1.
		{"a broadcast", access(f32, mul(c(4), bid(0))), config(grid8, block32, nil), 1, 1, 0, 1, 0},
		// A block of 48: warp 0 is 32 lanes (4 sectors), warp 1 the 16
		// others, 64 bytes at 128 (2 sectors). (4 + 2) / 2 = 3 each.
		{"a partial last warp", access(f32, mul(c(4), tx)), config(dim(1, 1), dim(48, 1), nil), 3, 3, 4, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Predict(tt.a, tt.cfg, nil)
			if !p.Known {
				t.Fatalf("unknown: %s", p.Reason())
			}
			if !near(p.Sectors, tt.sectors) || !near(p.Ideal, tt.ideal) {
				t.Errorf("sectors %v, ideal %v; want %v, %v", p.Sectors, p.Ideal, tt.sectors, tt.ideal)
			}
			switch {
			case tt.stride == noStride && p.LaneStride != nil:
				t.Errorf("lane stride %d, want none", *p.LaneStride)
			case tt.stride != noStride && (p.LaneStride == nil || *p.LaneStride != tt.stride):
				t.Errorf("lane stride %v, want %d", p.LaneStride, tt.stride)
			}
			if p.Pieces != tt.pieces {
				t.Errorf("%d pieces, want %d", p.Pieces, tt.pieces)
			}
			if !near(p.Misaligned, tt.misaligned) {
				t.Errorf("misaligned share %v, want %v", p.Misaligned, tt.misaligned)
			}
			if !p.Exact {
				t.Errorf("not exact: every request of these launches can be evaluated")
			}
			if len(p.Assumptions) != 0 || !p.Facts.Bounded {
				t.Errorf("assumptions %v: the launch gives every value", p.Assumptions)
			}
		})
	}
}

// TestLaunchBase: a pointer the launch offsets by one float (k<<<..>>>(a
// + 1)) misaligns the access as a constant offset does: 5 sectors.
func TestLaunchBase(t *testing.T) {
	base := symbolic.NewSym(symbolic.Var{Name: "base(in)", Class: symbolic.Uniform, Kind: symbolic.KindBase, Of: "in"})
	cfg := config(dim(8, 1), dim(32, 1), nil)
	cfg.Bases["in"] = 4
	p := Predict(access(typ(t, "float"), sum(base, mul(c(4), globalX()))), cfg, nil)
	if !p.Known || !near(p.Sectors, 5) || !near(p.Ideal, 4) {
		t.Errorf("known %v, sectors %v, ideal %v; want 5 sectors for 4", p.Known, p.Sectors, p.Ideal)
	}
}

// TestIdealNcu: Nsight's ideal counts lanes x bytes, not distinct bytes.
// Lanes 2j and 2j+1 read the same float, pairs 32 bytes apart: 16
// sectors; the distinct bytes (16 floats, 64 bytes) fit in 2, but 32
// lanes x 4 bytes make 4 for Nsight (min(16, ceil(128/32))).
func TestIdealNcu(t *testing.T) {
	pair := symbolic.Binary(symbolic.OpDiv, tid(0), c(2))
	p := Predict(access(typ(t, "float"), mul(c(32), pair)), config(dim(1, 1), dim(32, 1), nil), nil)
	if !p.Known || !near(p.Sectors, 16) || !near(p.Ideal, 2) || !near(p.IdealNcu, 4) {
		t.Errorf("sectors %v, ideal %v, Nsight ideal %v; want 16, 2, 4", p.Sectors, p.Ideal, p.IdealNcu)
	}
	if p.LaneStride != nil {
		t.Errorf("lane stride %d, want none (the address is not affine in threadIdx.x)", *p.LaneStride)
	}
}
