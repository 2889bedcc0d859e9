package warp

import (
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/symbolic"
)

// A value loaded at an address every lane of a warp shares is the same
// in every lane, whatever the data: a gather whose row index is loaded
// once per row (dst[t] = src[index[t / cols] * cols + t % cols], apex's
// index_mul_2d, every embedding lookup through a 2-D thread mapping)
// moves its lanes together, coalesced for any index. The interpreter
// cannot tell (t / cols is a lane value until the launch gives cols);
// the model can, per launch: such a value is warp-uniform there, and the
// access is priced as the warp-uniform loads are (predictResidues: the
// mean over the residues the index can give the base).

// warpSharedLoads is a with each value its address loads at an address
// the same in every lane of each warp of cfg made warp-uniform; ok is
// false when its address depends on no such value, or on data of
// another kind.
//
// A size no launch gives takes the value the rest of the prediction
// assumes (AssumedValue, saying so): under it, n = t / N is the same in
// every lane of a warp, as it is for any N of 32 or more.
func warpSharedLoads(a *interp.Access, cfg *launch.Config, params map[symbolic.SymID]bool, kernel []*interp.Access) (*interp.Access, []Assumption, bool) {
	if symbolic.ClassOf(a.Addr) != symbolic.Data {
		return a, nil, false
	}
	bind := launchBind(cfg)
	sub := map[symbolic.SymID]symbolic.Expr{}
	var notes []Assumption
	ok := true
	symbolic.Symbols(a.Addr, func(v *symbolic.Var) {
		if v.Class != symbolic.Data || !ok {
			return
		}
		if _, done := sub[v.Key()]; done {
			return
		}
		src := loadOf(kernel, v)
		if src == nil || !sharedSpace(src.Space) {
			ok = false
			return
		}
		addr, assumed := assumeParams(symbolic.Subst(src.Addr, bind), params)
		if !sameInWarps(addr, cfg) {
			ok = false
			return
		}
		for _, n := range assumed {
			notes = appendNew(notes, n)
		}
		w := *v
		w.Class = symbolic.Uniform
		sub[v.Key()] = symbolic.NewSym(w)
		notes = append(notes, Assumption{Kind: SharedIndex, Name: v.Of, Site: v.Site})
	})
	if !ok || len(sub) == 0 {
		return a, nil, false
	}
	b := *a
	b.Addr = symbolic.Subst(a.Addr, sub)
	if symbolic.ClassOf(b.Addr) == symbolic.Data {
		return a, nil, false
	}
	return &b, notes, true
}

// sharedSpace: memory every thread reads alike at one address (a
// thread's own local array is not: each lane's holds its own values).
func sharedSpace(s interp.Space) bool {
	return s == interp.Global || s == interp.Shared || s == interp.Constant
}

// loadOf is the load of kernel whose value v is: at v's site, one
// address wherever it is recorded; nil when there is none or they
// differ.
func loadOf(kernel []*interp.Access, v *symbolic.Var) *interp.Access {
	if v.Kind != symbolic.KindUnknown || v.Cause != symbolic.CauseLoadedValue || !v.Site.IsValid() {
		return nil
	}
	var found *interp.Access
	for _, k := range kernel {
		if k.Op != interp.Load || k.Pos.File != v.Site.File || k.Pos.Line != v.Site.Line || k.Pos.Col != v.Site.Col || k.Expr != v.Of {
			continue
		}
		if found != nil && symbolic.Key(found.Addr) != symbolic.Key(k.Addr) {
			return nil
		}
		found = k
	}
	return found
}

// sameInWarps reports whether e, which reads nothing but the thread and
// block indices, is the same in every lane of each warp of the first 64
// blocks and the last (a row of 1000 threads fails in its fourth block
// of 256, where a warp straddles two rows).
func sameInWarps(e symbolic.Expr, cfg *launch.Config) bool {
	if symbolic.ClassOf(e) == symbolic.Data {
		return false
	}
	// What the indices do not decide (the array's base, a value every
	// lane loaded alike) is the same in every lane: 0 changes no
	// difference between them.
	e, _ = indicesOnly(e)
	ev := newThreadEval(e, cfg)
	threads := min(cfg.Block.Threads(), tailThreads)
	const sampleWarps, sampleBlocks = 32, 64
	blocks := []int64{max(cfg.Grid.Threads()-1, 0)}
	for b := int64(0); b < min(cfg.Grid.Threads(), sampleBlocks); b++ {
		blocks = append(blocks, b)
	}
	for _, b := range blocks {
		ev.setBlock(b)
		for w := int64(0); w < sampleWarps && w*32 < threads; w++ {
			var first int64
			for lane := int64(0); lane < 32 && w*32+lane < threads; lane++ {
				v, ok := ev.at(w*32 + lane)
				if !ok || lane > 0 && v != first {
					return false
				}
				first = v
			}
		}
	}
	return true
}
