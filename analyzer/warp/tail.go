package warp

import (
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/symbolic"
)

// Guards on a size no launch gives are not evaluated: taken as true, a
// bounds check (i < n, a grid-stride i < n) passes for full warps, which
// is what large sizes make of it. The opposite direction is a remainder:
// code that only the lanes past a bound run (llm.c's
//
//	int i = (V + 7) / 8 + threadIdx.x - blockDim.x;
//	if ((i + 1) * 8 > V) ... x[i * 8] ...
//
// where one lane of a block handles the last, partial chunk of V). Taken
// as true it would put every lane on the access. A tail is found by
// evaluating the guard with the assumed size and two more (so that no
// divisibility decides) and a huge one: it is false for nearly every
// lane under all of them, where a bounds check lets every lane through
// at a size larger than the grid.

// tailSizes are the values a tail guard's parameters are tried at, all
// of them together: the assumed one, one past it (a chunk that does not
// divide it) and about twice it.
var tailSizes = [...]int64{AssumedValue, AssumedValue + 1, 2*AssumedValue + 3}

// tailHuge checks the direction: each parameter in turn is set to it,
// the others left at AssumedValue. A bounds check on a fixed grid (i < n
// over 1024 blocks), or on a ratio of sizes (i < C / NH, which equal
// sizes make 1), lets every lane through at a size that large; a
// remainder still almost none. It is larger than any grid's thread
// count, and its multiples by small chunk sizes stay far from overflow.
const tailHuge = 1<<40 + 5

const (
	// A guard is a tail when at most one sampled thread in tailShare
	// passes it.
	tailShare = 32
	// tailBlocks is how many blocks are sampled for a guard that
	// depends on the block index (the first, the last, the rest at
	// random).
	tailBlocks = 16
	// tailThreads caps the threads evaluated per block.
	tailThreads = 1024
)

// tail is what the model makes of the tail guards of one access: the
// size each of their parameters is given, and the assumptions that say so.
type tail struct {
	values map[string]int64 // parameter -> the size its tail guards run at
	parts  []symbolic.Expr  // the tail guards (parts of an &&, loop conditions)
	notes  []Assumption
}

// findTails looks through the access's guards (each part of an &&) and
// its loops' conditions at the first iteration for tails. params are the
// parameters no launch gives; a tail's parameters are then given the
// tried size that lets the most lanes through (the assumed one when it
// lets any), so that the access is priced with the lanes that run it.
func findTails(a *interp.Access, cfg *launch.Config, params map[symbolic.SymID]bool, guards, loops []symbolic.Expr) tail {
	t := tail{values: map[string]int64{}}
	// A guard is judged as it stands: one that depends on a loop's
	// iteration (index + i >= len in a loop over i) may let whole warps
	// through at later iterations, and is left alone. A loop's condition
	// is judged at the loop's first iteration (its outer loops' must not
	// matter).
	type candidate struct{ part, judged symbolic.Expr }
	var parts []candidate
	for _, g := range guards {
		for _, c := range conjuncts(g) {
			parts = append(parts, candidate{c, c})
		}
	}
	for i, l := range loops {
		if l == nil {
			continue
		}
		first := map[symbolic.SymID]symbolic.Expr{a.Loops[i].Iter: symbolic.Const(0)}
		for _, c := range conjuncts(l) {
			parts = append(parts, candidate{c, symbolic.Subst(c, first)})
		}
	}
	for _, c := range parts {
		names, ok := tailCandidate(c.judged, cfg, params)
		if !ok || slices.ContainsFunc(names, func(n string) bool { _, set := t.values[n]; return set }) {
			continue
		}
		counts, ok := tailCounts(c.judged, cfg, names)
		if !ok || !isTail(counts) {
			continue
		}
		best := 0
		for i, k := range counts[:len(tailSizes)] { // not the huge ones
			if k.pass > counts[best].pass {
				best = i
			}
		}
		value := tailSizes[best]
		if counts[best].pass == 0 {
			value = 0 // no lane at any size tried: the guard stays unevaluated
		}
		if value != 0 {
			t.parts = append(t.parts, c.part)
		}
		for _, n := range names {
			if value != 0 {
				t.values[n] = value
			}
			t.notes = appendNew(t.notes, Assumption{Kind: TailGuard, Name: n, Value: value})
		}
	}
	return t
}

// isTail: at most one thread in tailShare passes under every size tried,
// the huge ones included.
func isTail(counts []tailCount) bool {
	for _, c := range counts {
		if c.pass*tailShare > c.of {
			return false
		}
	}
	return true
}

// tailCount is how many of the sampled threads passed a guard.
type tailCount struct{ pass, of int }

// tailCandidate reports whether part can be a tail: it mentions a
// parameter no launch gives and the thread or block index, and nothing
// else (a loop's iteration, a loaded value, a carried one), nor the
// block index along an axis whose grid is assumed (an assumed grid says
// nothing about where the bound falls). names are its parameters.
func tailCandidate(part symbolic.Expr, cfg *launch.Config, params map[symbolic.SymID]bool) ([]string, bool) {
	var names []string
	index, ok := false, true
	symbolic.Symbols(part, func(v *symbolic.Var) {
		switch {
		case v.IsLaneOrBlockIndex():
			index = true
			if v.Kind == symbolic.KindBlockIdx && !cfg.GridKnown[v.Axis] {
				ok = false
			}
		case params[v.Key()] && v.Class != symbolic.Data:
			if !slices.Contains(names, v.Of) {
				names = append(names, v.Of)
			}
		default:
			ok = false
		}
	})
	slices.Sort(names)
	return names, ok && index && len(names) > 0
}

// tailCounts evaluates part, its parameters at each size tried and then
// each in turn at tailHuge, over every thread of the first block (and,
// when it depends on the block, the last and some drawn at random). ok
// is false when it cannot be evaluated.
//
// The counts depend on nothing but the guard, the launch's shape and the
// names, and one guard encloses many accesses under many configurations
// that share a shape (apex's group_norm: 432 configurations, 52% of a
// 51 s run here): they are kept (tailMemo).
func tailCounts(part symbolic.Expr, cfg *launch.Config, names []string) ([]tailCount, bool) {
	key := tailKey{symbolic.Key(part), cfg.Block, cfg.Grid, strings.Join(names, "\x00")}
	if r, ok := tailMemo.get(key); ok {
		return r.counts, r.ok
	}
	counts, ok := countTails(part, cfg, names)
	tailMemo.put(key, tailResult{counts, ok})
	return counts, ok
}

// tailKey names what tailCounts evaluates.
type tailKey struct {
	part        string
	block, grid launch.Dim3
	names       string
}

type tailResult struct {
	counts []tailCount
	ok     bool
}

// tailCache keeps tailCounts' results for the runs of a process, at
// most maxTailMemo of them (emptied when full): shared by the analyses
// running at once, so behind a lock. The counts are read, never changed.
type tailCache struct {
	mu sync.Mutex
	m  map[tailKey]tailResult
}

const maxTailMemo = 1 << 14

var tailMemo tailCache

func (c *tailCache) get(k tailKey) (tailResult, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.m[k]
	return r, ok
}

func (c *tailCache) put(k tailKey, r tailResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxTailMemo {
		c.m = map[tailKey]tailResult{}
	}
	c.m[k] = r
}

// countTails is tailCounts, evaluated.
func countTails(part symbolic.Expr, cfg *launch.Config, names []string) ([]tailCount, bool) {
	var tries []map[symbolic.SymID]symbolic.Expr
	for _, size := range tailSizes {
		at := map[string]int64{}
		for _, n := range names {
			at[n] = size
		}
		tries = append(tries, bindParams(at))
	}
	for _, huge := range names {
		at := map[string]int64{}
		for _, n := range names {
			at[n] = AssumedValue
		}
		at[huge] = tailHuge
		tries = append(tries, bindParams(at))
	}
	blocks := []int64{0}
	if mentionsBlock(part) {
		n := cfg.Grid.Threads()
		rng := rand.New(rand.NewPCG(0x7a11, 0x5eed))
		blocks = append(blocks, n-1)
		for len(blocks) < tailBlocks && int64(len(blocks)) < n {
			blocks = append(blocks, rng.Int64N(n))
		}
	}
	out := make([]tailCount, len(tries))
	for i, at := range tries {
		var ok bool
		if out[i], ok = countPassing(symbolic.Subst(part, at), cfg, blocks); !ok {
			return nil, false
		}
	}
	return out, true
}

// countPassing evaluates cond, which reads nothing but the thread and
// block index, over every thread of the given blocks.
func countPassing(cond symbolic.Expr, cfg *launch.Config, blocks []int64) (tailCount, bool) {
	var c tailCount
	ev := newThreadEval(cond, cfg)
	threads := min(cfg.Block.Threads(), tailThreads)
	for _, b := range blocks {
		ev.setBlock(b)
		for tid := int64(0); tid < threads; tid++ {
			v, ok := ev.at(tid)
			if !ok {
				return c, false
			}
			c.of++
			if v != 0 {
				c.pass++
			}
		}
	}
	return c, true
}

// conjuncts are the parts of an && (c itself when it is not one).
func conjuncts(c symbolic.Expr) []symbolic.Expr {
	if op, ok := c.(*symbolic.Op); ok && op.Kind == symbolic.OpLAnd {
		return append(conjuncts(op.X), conjuncts(op.Y)...)
	}
	return []symbolic.Expr{c}
}

// give substitutes the tail sizes into c's tail parts, leaving the
// other parts of an && as they were (a bounds check beside a tail still
// passes for full warps).
func (t tail) give(c symbolic.Expr) symbolic.Expr {
	if len(t.parts) == 0 || c == nil {
		return c
	}
	if slices.Contains(t.parts, c) {
		return symbolic.Subst(c, bindParams(t.values))
	}
	if op, ok := c.(*symbolic.Op); ok && op.Kind == symbolic.OpLAnd {
		return symbolic.Binary(symbolic.OpLAnd, t.give(op.X), t.give(op.Y))
	}
	return c
}
