package warp

import (
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/symbolic"
)

// threadEval evaluates an expression that reads nothing but the thread
// and block indices at one thread of one block of a launch: what the
// tail-guard counts, the one-thread guards and the warp-shared indices
// walk the threads of a block with.
type threadEval struct {
	f             symbolic.Func
	vals          *symbolic.Values
	thread, block [3]int
	cfg           *launch.Config
}

func newThreadEval(e symbolic.Expr, cfg *launch.Config) *threadEval {
	env := symbolic.NewEnv()
	t := &threadEval{cfg: cfg}
	for d := range 3 {
		t.thread[d], t.block[d] = env.Slot(threadSyms[d]), env.Slot(blockSyms[d])
	}
	t.f = symbolic.Compile(e, env)
	t.vals = env.NewValues()
	return t
}

// setBlock makes b, a block's index in the flattened grid, the block.
func (t *threadEval) setBlock(b int64) {
	gx, gy := t.cfg.Grid[0], t.cfg.Grid[1]
	t.vals.Set(t.block[0], b%gx)
	t.vals.Set(t.block[1], (b/gx)%gy)
	t.vals.Set(t.block[2], b/(gx*gy))
}

// at is the expression's value at thread tid of the block, flattened
// (x fastest).
func (t *threadEval) at(tid int64) (int64, bool) {
	bx, by := t.cfg.Block[0], t.cfg.Block[1]
	t.vals.Set(t.thread[0], tid%bx)
	t.vals.Set(t.thread[1], (tid/bx)%by)
	t.vals.Set(t.thread[2], tid/(bx*by))
	return t.f(t.vals)
}

// indicesOnly is e with every symbol but the thread and block indices
// set to 0, and how many there were: for an e whose other symbols are
// the same in every thread (a base, a parameter, a value the block
// shares), what tells threads apart is left as it was.
func indicesOnly(e symbolic.Expr) (symbolic.Expr, int) {
	rest := map[symbolic.SymID]symbolic.Expr{}
	symbolic.Symbols(e, func(v *symbolic.Var) {
		if !v.IsLaneOrBlockIndex() {
			rest[v.Key()] = symbolic.Const(0)
		}
	})
	return symbolic.Subst(e, rest), len(rest)
}
