package warp

import (
	"fmt"
	"testing"

	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/parser/lex"
	"github.com/cudalint/cudalint/symbolic"
)

// TestChunks covers adjacent elements with the instructions nvcc emits
// (probes7): the elements of one aligned window share one, as narrow as
// holds them; a lone element stays scalar; over global memory no
// instruction reads bytes no element asks for.
func TestChunks(t *testing.T) {
	tests := []struct {
		name   string
		pos    []int64
		d      int64
		shared bool
		want   string // start/width/members per instruction
	}{
		{"8 floats, 16-aligned: two LDS.128", []int64{0, 4, 8, 12, 16, 20, 24, 28}, 16, true, "[0/16/4 16/16/4]"},
		{"2 floats, 8-aligned: an LDS.64", []int64{0, 4}, 8, true, "[0/8/2]"},
		{"2 floats in a 16-byte window: an LDS.64", []int64{8, 12}, 16, true, "[8/8/2]"},
		{"4 floats from offset 4: LDS.128 over the first three, LDS", []int64{4, 8, 12, 16}, 16, true, "[0/16/3 16/4/1]"},
		{"the same over global memory: scalars", []int64{4, 8, 12, 16}, 16, false, "[4/4/1 8/4/1 12/4/1 16/4/1]"},
		{"4-byte alignment only: scalars", []int64{0, 4, 8, 12}, 4, true, "[0/4/1 4/4/1 8/4/1 12/4/1]"},
		{"4 floats, 8-aligned: two LDS.64", []int64{0, 4, 8, 12}, 8, true, "[0/8/2 8/8/2]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, c := range chunks(tt.pos, 4, tt.d, tt.shared) {
				got = append(got, fmt.Sprintf("%d/%d/%d", c.start, c.width, len(c.members)))
			}
			if s := fmt.Sprint(got); s != tt.want {
				t.Errorf("chunks %s, want %s", s, tt.want)
			}
		})
	}
}

// TestResidue is what the compiler proves of an address: a __shared__
// array is 16-byte aligned, a global pointer only as promised; thread
// indices and parameters may be odd.
func TestResidue(t *testing.T) {
	tx := tid(0)
	f := typ(t, "float")
	hinted := access(f, mul(c(8), tx))
	hinted.AlignHint = 8
	tests := []struct {
		name string
		a    *interp.Access
		r, d int64
	}{
		{"s[4t]", shared(f, mul(c(16), tx)), 0, 16},
		{"s[4t + 1]", shared(f, sum(mul(c(16), tx), c(4))), 4, 16},
		{"s[2t + 1]", shared(f, sum(mul(c(8), tx), c(4))), 4, 8},
		{"s[4t + k]", shared(f, sum(mul(c(16), tx), mul(c(4), param("k")))), 0, 4},
		{"s[t]", shared(f, mul(c(4), tx)), 0, 4},
		{"x[4t] through a plain pointer", access(f, mul(c(16), tx)), 0, 4},
		{"x[2t] promised 8 bytes", hinted, 0, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if r, d := residue(tt.a, tt.a.Addr); r != tt.r || d != tt.d {
				t.Errorf("residue %d mod %d, want %d mod %d", r, d, tt.r, tt.d)
			}
		})
	}
}

// TestPredictInMerges predicts accesses among their kernel's: adjacent
// elements nvcc merges are priced as the instruction it emits, carried by
// the first load or the last store; the others issue none of their own.
func TestPredictInMerges(t *testing.T) {
	tx := tid(0)
	f := typ(t, "float")
	cfg := config(dim(1, 1), dim(32, 1), nil)
	load := func(addr symbolic.Expr) *interp.Access { return shared(f, addr) }
	store := func(addr symbolic.Expr) *interp.Access {
		a := shared(f, addr)
		a.Op = interp.Store
		return a
	}
	tests := []struct {
		name   string
		kernel []*interp.Access
		// per access: instruction bytes (0: not merged), index of the
		// access it is merged into (-1: none), wavefronts, ideal
		want []string
	}{
		{"s[2t], s[2t+1]: one LDS.64",
			[]*interp.Access{load(mul(c(8), tx)), load(sum(mul(c(8), tx), c(4)))},
			[]string{"8 -1 2 2", "8 0 2 2"}},
		{"two stores: one STS.64, on the last",
			[]*interp.Access{store(mul(c(8), tx)), store(sum(mul(c(8), tx), c(4)))},
			[]string{"8 1 2 2", "8 -1 2 2"}},
		{"a store between that may alias: two LDS",
			[]*interp.Access{load(mul(c(8), tx)), store(mul(c(4), param("j"))), load(sum(mul(c(8), tx), c(4)))},
			[]string{"0 -1 2 1", "0 -1 1 1", "0 -1 2 1"}},
		{"an offset the compiler cannot know: two LDS",
			[]*interp.Access{load(sum(mul(c(8), tx), mul(c(4), param("k")))), load(sum(mul(c(8), tx), mul(c(4), param("k")), c(4)))},
			[]string{"0 -1 2 1", "0 -1 2 1"}},
		{"global, no promise: two LDG",
			[]*interp.Access{access(f, mul(c(8), tx)), access(f, sum(mul(c(8), tx), c(4)))},
			[]string{"0 -1 8 4", "0 -1 8 4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			params := map[symbolic.SymID]bool{keyOf(param("j")): true, keyOf(param("k")): true} // assumed large
			for i, a := range tt.kernel {
				p := PredictIn(a, tt.kernel, cfg, params)
				bytes, into := int64(0), -1
				if m := p.Merged; m != nil {
					bytes = m.Bytes
					for j, q := range tt.kernel {
						if q == m.Into {
							into = j
						}
					}
					if (into >= 0) != (p.Pieces == 0) {
						t.Errorf("access %d: merged into %d, yet %d instructions of its own", i, into, p.Pieces)
					}
				}
				if got := fmt.Sprintf("%d %d %g %g", bytes, into, p.Sectors, p.Ideal); got != tt.want[i] {
					t.Errorf("access %d: %s, want %s", i, got, tt.want[i])
				}
			}
		})
	}
}

// TestMergedCopies: the copies of a fully unrolled loop stepping one
// float at a time are merged into LDS.128s where the index is aligned
// (s[8t + i], i < 8: two, 8 wavefronts against 4), and kept apart in a
// rolled loop or when another store stands in the loop.
func TestMergedCopies(t *testing.T) {
	tx, i := tid(0), loopIter("i")
	f := typ(t, "float")
	cfg := config(dim(1, 1), dim(32, 1), nil)
	mk := func(unroll lex.Unroll) *interp.Access {
		return inLoop(shared(f, sum(mul(c(32), tx), mul(c(4), i))), i, lt(i, c(8)), 8, unroll)
	}
	full := mk(lex.UnrollFull)
	p := PredictIn(full, []*interp.Access{full}, cfg, nil)
	if p.Merged == nil || p.Merged.Bytes != 16 || p.Unrolled == nil || len(p.Unrolled.Copies) != 2 || !near(p.Sectors, 8) || !near(p.Ideal, 4) {
		t.Fatalf("unrolled: merged %+v, %v copies, %v wavefronts, ideal %v; want two 16-byte instructions, 8 and 4", p.Merged, p.Unrolled, p.Sectors, p.Ideal)
	}
	for _, c := range p.Unrolled.Copies {
		if c.Bytes != 16 {
			t.Errorf("copy %v: %d bytes, want 16", c.First, c.Bytes)
		}
	}
	rolled := mk(lex.UnrollCount(1))
	if p := PredictIn(rolled, []*interp.Access{rolled}, cfg, nil); p.Merged != nil || !near(p.Sectors, 8) || !near(p.Ideal, 1) {
		t.Errorf("rolled: merged %+v, %v wavefronts, ideal %v; want scalars, 8-way", p.Merged, p.Sectors, p.Ideal)
	}
	aliased := mk(lex.UnrollFull)
	st := shared(f, mul(c(4), param("j")))
	st.Op, st.Loops = interp.Store, aliased.Loops
	if p := PredictIn(aliased, []*interp.Access{aliased, st}, cfg, nil); p.Merged != nil {
		t.Errorf("a store in the loop: merged %+v, want scalars", p.Merged)
	}
}

// BenchmarkPredictInKernel predicts every access of a kernel of 2048
// shared loads, pairs of them adjacent: the merge search looks at a
// window of the kernel around each, so the cost per access stays flat.
func BenchmarkPredictInKernel(b *testing.B) {
	tx := tid(0)
	ty, _ := ctype.Builtin("float")
	var kernel []*interp.Access
	for k := int64(0); k < 1024; k++ {
		base := sum(mul(c(8), tx), c(1024*k))
		kernel = append(kernel, shared(ty, base), shared(ty, sum(base, c(4))))
	}
	cfg := config(dim(1, 1), dim(32, 1), nil)
	b.ResetTimer()
	for range b.N {
		for _, a := range kernel {
			PredictIn(a, kernel, cfg, nil)
		}
	}
}

// TestMergeBrokenPromise: a launch that passes a pointer off the
// alignment __builtin_assume_aligned promised gets the scalars priced as
// written, not a misaligned vector.
func TestMergeBrokenPromise(t *testing.T) {
	tx := tid(0)
	f := typ(t, "float")
	base := symbolic.BaseSym("x")
	mk := func(off int64) *interp.Access {
		a := access(f, sum(base, mul(c(8), tx), c(off)))
		a.AlignHint = 8
		return a
	}
	kernel := []*interp.Access{mk(0), mk(4)}
	for _, tt := range []struct {
		offset int64
		merged bool
	}{{0, true}, {4, false}} {
		cfg := config(dim(1, 1), dim(32, 1), nil)
		cfg.Bases["x"] = tt.offset
		p := PredictIn(kernel[0], kernel, cfg, nil)
		if (p.Merged != nil) != tt.merged || p.Misaligned != 0 {
			t.Errorf("base offset %d: merged %v, misaligned %v; want merged %v, aligned", tt.offset, p.Merged != nil, p.Misaligned, tt.merged)
		}
	}
}
