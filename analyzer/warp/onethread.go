package warp

import (
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/symbolic"
)

// A guard that compares a thread index with a value every thread of the
// block shares (if (t == len - 1) with len loaded from lens[blockIdx.x],
// the last thread of a row writing its total) lets at most one thread of
// each block through, whatever the value: the thread side takes a
// distinct value in every thread. Taken as true, as a guard on a value
// the model cannot evaluate otherwise is, it would put every lane on the
// access (a store 256 bytes a lane priced at 32 sectors where one thread
// writes one). It stands for the block's first thread instead: one
// thread's request, once per block, whichever thread it is.

// firstThreadFor returns, for guard g, the block's first thread's condition
// when g lets at most one thread of each block of cfg through; ok is
// false for any other guard.
func firstThreadFor(g symbolic.Expr, cfg *launch.Config) (symbolic.Expr, bool) {
	op, ok := symbolic.AsOp(g)
	if !ok || op.Kind != symbolic.OpEq {
		return nil, false
	}
	// x == y as x - y == 0: what the thread index does not decide (a value
	// loaded at an address the block shares, a parameter) is the same in
	// every thread, so set to 0 it changes no difference between threads.
	diff := symbolic.Sub(op.X, op.Y)
	if !mentionsThread(diff) || symbolic.ClassOf(diff) == symbolic.Data {
		return nil, false
	}
	indices, shared := indicesOnly(diff)
	// A guard of constants and indices (threadIdx.x == 0) the model
	// evaluates as it stands.
	if shared == 0 || !distinctInBlock(indices, cfg) {
		return nil, false
	}
	first := symbolic.Const(1)
	for d := range 3 {
		if cfg.Block[d] > 1 {
			first = symbolic.Binary(symbolic.OpLAnd, first, symbolic.Binary(symbolic.OpEq, symbolicThread(d), symbolic.Const(0)))
		}
	}
	return first, true
}

// firstThreadIn is guard g with each part of its && that lets at most
// one thread of a block through (firstThreadFor) made the block's first
// thread's condition; ok reports whether one was.
func firstThreadIn(g symbolic.Expr, cfg *launch.Config) (symbolic.Expr, bool) {
	if op, isOp := symbolic.AsOp(g); isOp && op.Kind == symbolic.OpLAnd {
		x, okX := firstThreadIn(op.X, cfg)
		y, okY := firstThreadIn(op.Y, cfg)
		if !okX && !okY {
			return g, false
		}
		return symbolic.Binary(symbolic.OpLAnd, x, y), true
	}
	if first, ok := firstThreadFor(g, cfg); ok {
		return first, true
	}
	return g, false
}

func symbolicThread(d int) symbolic.Expr { return symbolic.ThreadIdx(symbolic.Axes[d]).Sym() }

// distinctInBlock reports whether e, which reads the thread and block
// indices and nothing the launch leaves unknown, takes a distinct value
// in every thread of a block (the first block's, up to tailThreads).
func distinctInBlock(e symbolic.Expr, cfg *launch.Config) bool {
	ev := newThreadEval(e, cfg)
	ev.setBlock(0)
	threads := min(cfg.Block.Threads(), tailThreads)
	seen := make(map[int64]bool, threads)
	for tid := int64(0); tid < threads; tid++ {
		v, ok := ev.at(tid)
		if !ok || seen[v] {
			return false
		}
		seen[v] = true
	}
	return threads > 1
}
