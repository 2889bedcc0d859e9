package warp

import (
	"testing"

	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/symbolic"
)

// TestBankConflicts predicts shared-memory accesses, whose cost is
// wavefronts: 32 banks of 4-byte words (word w in bank w mod 32), each
// serving one word per wavefront, lanes of one word sharing it; wider
// accesses go in phases of 128 bytes (16 lanes of 8 bytes).
func TestBankConflicts(t *testing.T) {
	tx, ty := tid(0), tid(1)
	block := dim(32, 32)
	tests := []struct {
		name       string
		addr       symbolic.Expr
		elem       string
		block      launch.Dim3
		wavefronts float64
		ideal      float64
	}{
		// tile[ty][tx], 32 columns: a warp is one row, words 32ty + tx,
		// banks tx: all distinct.
		{"tile[ty][tx] of 32 columns", sum(mul(c(128), ty), mul(c(4), tx)), "float", block, 1, 1},
		// tile[tx][ty], 32 columns: words 32tx + ty, bank ty for all 32
		// lanes, 32 distinct words: 32-way.
		{"tile[tx][ty] of 32 columns", sum(mul(c(128), tx), mul(c(4), ty)), "float", block, 32, 1},
		// tile[tx][ty], 33 columns: words 33tx + ty, bank (tx + ty) mod 32:
		// distinct across the warp's tx.
		{"tile[tx][ty] of 33 columns", sum(mul(c(132), tx), mul(c(4), ty)), "float", block, 1, 1},
		// tile[ty][tx], 33 columns: words 33ty + tx, consecutive.
		{"tile[ty][tx] of 33 columns", sum(mul(c(132), ty), mul(c(4), tx)), "float", block, 1, 1},
		// Every lane reads word ty: one word, broadcast.
		{"a broadcast", mul(c(4), ty), "float", block, 1, 1},
		// s[2*tx]: words 0, 2, ..., 62; banks 0, 2, ..., 30 each hold two
		// (tx and tx + 16): 2-way.
		{"stride 2 floats", mul(c(8), tx), "float", dim(32, 1), 2, 1},
		// Contiguous doubles: two phases of 16 lanes x 8 bytes, each 32
		// distinct banks: 1 wavefront each, 2 in all.
		{"contiguous doubles", mul(c(8), tx), "double", dim(32, 1), 2, 2},
		// Doubles two apart: a phase's 16 lanes span 64 words; lane tx
		// holds words 4tx, 4tx+1, banks 4tx mod 32 (+1) repeating every 8
		// lanes: 2 words per bank, 2 wavefronts per phase, 4 in all.
		{"doubles two apart", mul(c(16), tx), "double", dim(32, 1), 4, 2},
		// A 16x16 block: a warp is rows ty and ty+1, tx 0..15. With 32
		// columns the rows' words 32ty + tx and 32ty + 32 + tx share
		// banks 0..15: 2-way.
		{"tile[ty][tx] of 32 columns, 16x16 block", sum(mul(c(128), ty), mul(c(4), tx)), "float", dim(16, 16), 2, 1},
		// With 33 columns the second row shifts by one bank: banks
		// ty..ty+15 and ty+1..ty+16 overlap in 15, still 2-way. Padding
		// only helps a warp that spans one row.
		{"tile[ty][tx] of 33 columns, 16x16 block", sum(mul(c(132), ty), mul(c(4), tx)), "float", dim(16, 16), 2, 1},
		// Contiguous float4s: phases of 8 lanes x 16 bytes, 32 distinct
		// banks each: 4 phases, 4 wavefronts, all needed.
		{"contiguous float4s", mul(c(16), tx), "float4", dim(32, 1), 4, 4},
		// Contiguous halves: lanes 2j and 2j+1 share word j: 16 words,
		// one wavefront.
		{"contiguous halves", mul(c(2), tx), "half", dim(32, 1), 1, 1},
		// float3: three 4-byte instructions, lane tx's word 3tx + k, banks
		// 3tx mod 32 distinct (3 and 32 coprime): 1 each.
		{"float3 elements", mul(c(12), tx), "float3", dim(32, 1), 1, 1},
		// A stride of 32 words: every lane in bank 0, 32 words: 32-way.
		{"a column of a 32-float row", mul(c(128), tx), "float", dim(32, 1), 32, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Predict(shared(typ(t, tt.elem), tt.addr), config(dim(1, 1), tt.block, nil), nil)
			if !p.Known {
				t.Fatalf("unknown: %s", p.Reason())
			}
			if !near(p.Sectors, tt.wavefronts) || !near(p.Ideal, tt.ideal) {
				t.Errorf("wavefronts %v, ideal %v; want %v, %v", p.Sectors, p.Ideal, tt.wavefronts, tt.ideal)
			}
			if p.Facts.Space != interp.Shared {
				t.Errorf("facts say %v memory, want shared", p.Facts.Space)
			}
		})
	}
}
