package warp

import (
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/parser"
)

// Predicated copies: nvcc compiles a short body under a condition that
// differs by lane (if (threadIdx.x == 0) out[b] = s;) as instructions
// that every warp reaching the condition issues, each lane performing it
// or not by a predicate, rather than as a branch around it. Nsight
// Compute counts such an instruction once per warp that issues it, so
// its sectors per instruction are those of the requests that run spread
// over every issuing warp: 0.125 for one lane of a 256-thread block
// (measured, testdata/truth/probes8.cu and the llm.c, Rodinia and
// cuda-samples suites), where a request that runs costs 1. The
// per-request figure is what the user pays and what findings grade; the
// per-instruction one is what Nsight reports (Prediction.PerInstruction).

// maxPredicatedBody is the most statements a guarded body may hold for
// nvcc to predicate it rather than branch around it. Measured: one to
// three (a load and a store; three loads of one element each); a body
// with a loop or a condition of its own is a branch.
const maxPredicatedBody = 3

// PerInstruction is what Nsight Compute reports for a predicated access:
// the averages over every warp-level instruction issued, those whose
// lanes are all off counting 0.
type PerInstruction struct {
	Sectors, Ideal, IdealNcu float64
}

// predicatedGuard reports whether nvcc predicates the if statement that
// holds a (in the kernel's body or an inlined helper's): its condition
// differs by lane (a's innermost guard mentions the thread), the branch
// holding a is a few plain statements calling no helper of the kernel's
// accesses (kernel: the kernel's accesses), and code follows the if before
// the kernel ends. Where nothing follows, nvcc ends the threads that fail
// the condition (@P EXIT) and warps with no lane left issue nothing:
// measured, an if (threadIdx.x == 0) store at a kernel's end costs 1 per
// instruction, the same store followed by __syncthreads() 1/16 under 512
// threads. An access in an arm of a conditional expression (c ? x[i] :
// 0), c differing by lane, is predicated whatever surrounds it.
func predicatedGuard(a *interp.Access, kernel []*interp.Access) bool {
	n := len(a.Guards)
	if n == 0 || a.Kernel == nil {
		return false
	}
	byLane := mentionsThread(a.Guards[n-1])
	// The bodies from the kernel's to the function holding the access:
	// bodies[i+1] is the function a.Via[i] calls in bodies[i].
	bodies := []*parser.Block{a.Kernel.Body}
	for _, c := range a.Via {
		if c.Func == nil {
			return false
		}
		bodies = append(bodies, c.Func.Body)
	}
	for _, b := range bodies {
		if b == nil {
			return false
		}
	}
	path := stmtPath(bodies[len(bodies)-1], nil, -1, a.Pos)
	if len(path) > 0 && inTernaryArm(path[len(path)-1].stmt, a.Pos) {
		// c ? in[i] : 0: a select, whatever surrounds it; every warp
		// reaching the expression issues the load, lanes on or off by c
		// (measured: convolutionSeparable's halo loads, 3.83 sectors per
		// instruction where a request that runs costs 4). A condition
		// the same for the whole block is a select too where every lane
		// loads one address (probes10: @!P0 LDG of lim[blockIdx.x + 1]
		// at the top level and under if (threadIdx.x == 0), as in
		// mergeSort's d_LimitsA[blockIdx.x + 1]: 0.938 sectors per
		// instruction, one block in 16 off), and a branch where the
		// address varies by lane (probes9's q_tern_uni: @!P0 BRA around
		// the load of in[x]).
		return byLane || !mentionsThread(a.Addr)
	}
	if !byLane {
		return false
	}
	// The innermost statement that decides whether the access runs must
	// be an if, and the access in one of its branches' plain statements.
	k := len(path) - 1
	for ; k >= 0; k-- {
		switch path[k].stmt.(type) {
		case *parser.If:
		case *parser.For, *parser.While, *parser.Switch:
			return false
		default:
			continue
		}
		break
	}
	if k < 0 || k == len(path)-1 {
		return false
	}
	ifs := path[k].stmt.(*parser.If)
	branch := path[k+1].stmt
	body := []parser.Stmt{branch}
	if b, ok := branch.(*parser.Block); ok {
		body = b.Stmts
	}
	if len(body) > maxPredicatedBody || ifs.Else != nil && branch == ifs.Then && !plain(ifs.Else) {
		return false
	}
	for _, st := range body {
		if !plain(st) {
			return false
		}
	}
	// A call in the branch that the model inlined (a helper with memory
	// accesses of its own, and perhaps loops) is a branch too.
	depth := len(a.Via)
	for _, b := range kernel {
		if len(b.Via) > depth && holds(branch, b.Via[depth].Pos) {
			return false
		}
	}
	// Something runs after the if: in the function holding it, or after
	// the call of that function in its caller, and so on out to the
	// kernel's body.
	if follows(path, k) {
		return true
	}
	for i := depth - 1; i >= 0; i-- {
		p := stmtPath(bodies[i], nil, -1, a.Via[i].Pos)
		if p == nil {
			return false
		}
		if follows(p, len(p)-1) {
			return true
		}
	}
	return false
}

// inTernaryArm reports whether the expression starting at pos lies in an
// arm of a conditional expression of statement st (not in its
// condition): the access the ternary's condition guards.
func inTernaryArm(st parser.Stmt, pos parser.Pos) bool {
	var exprs []parser.Expr
	switch s := st.(type) {
	case *parser.ExprStmt:
		exprs = append(exprs, s.X)
	case *parser.DeclStmt:
		for _, dc := range s.Decl.Declarators {
			if dc.Init != nil {
				exprs = append(exprs, dc.Init)
			}
		}
	case *parser.Return:
		if s.X != nil {
			exprs = append(exprs, s.X)
		}
	}
	found := false
	for _, x := range exprs {
		parser.WalkExpr(x, func(e parser.Expr) {
			t, ok := e.(*parser.Ternary)
			if !ok || found {
				return
			}
			for _, arm := range []parser.Expr{t.Then, t.Else} {
				parser.WalkExpr(arm, func(e parser.Expr) {
					if e.Start() == pos {
						found = true
					}
				})
			}
		})
	}
	return found
}

// follows reports whether code runs after path[k]: a statement after it
// (or after a statement holding it) in its block, or the next iteration
// of a loop around it.
func follows(path []frame, k int) bool {
	for j := k; j >= 0; j-- {
		f := path[j]
		switch f.stmt.(type) {
		case *parser.For, *parser.While:
			if j < k {
				return true
			}
		}
		if f.block != nil {
			for _, st := range f.block.Stmts[f.index+1:] {
				switch st.(type) {
				case *parser.Return, *parser.Empty:
				default:
					return true
				}
			}
		}
	}
	return false
}

// plain reports whether st is a statement nvcc can predicate: an
// expression or a declaration, nothing that branches or loops.
func plain(st parser.Stmt) bool {
	switch st.(type) {
	case *parser.ExprStmt, *parser.DeclStmt, *parser.Empty:
		return true
	}
	return false
}

// A frame is one statement on the way from a kernel's body to an access:
// the statement, and the block it is an element of (nil when it is a
// branch or a loop's body written without braces) with its index there.
type frame struct {
	stmt  parser.Stmt
	block *parser.Block
	index int
}

// stmtPath is the chain of statements from st down to the one holding
// the expression that starts at pos (outermost first), nil when st does
// not hold it.
func stmtPath(st parser.Stmt, block *parser.Block, index int, pos parser.Pos) []frame {
	if st == nil || !holds(st, pos) {
		return nil
	}
	here := []frame{{st, block, index}}
	var inner []frame
	switch s := st.(type) {
	case *parser.Block:
		for i, c := range s.Stmts {
			if inner = stmtPath(c, s, i, pos); inner != nil {
				break
			}
		}
	case *parser.If:
		if inner = stmtPath(s.Then, nil, -1, pos); inner == nil {
			inner = stmtPath(s.Else, nil, -1, pos)
		}
	case *parser.For:
		inner = stmtPath(s.Body, nil, -1, pos)
	case *parser.While:
		inner = stmtPath(s.Body, nil, -1, pos)
	case *parser.Switch:
		inner = stmtPath(s.Body, nil, -1, pos)
	}
	return append(here, inner...)
}

// holds reports whether a node under st starts at pos.
func holds(st parser.Stmt, pos parser.Pos) bool {
	found := false
	parser.Inspect(st, func(n parser.Node) bool {
		if found || n == nil {
			return false
		}
		if n.Start() == pos {
			found = true
		}
		return !found
	})
	return found
}

// blockRuns reports whether some warp of block b runs the access at the
// given iterations: a predicated instruction's warps with every lane off
// count where it does (a grid assumed larger than the code's sizes would
// otherwise add blocks whose warps all fail a tail guard).
func (m *warpModel) blockRuns(b int64, iters []int64) bool {
	if m.blockOff(b, iters) {
		return false
	}
	for w := int64(0); w < m.warps(); w++ {
		if m.request(b, w, iters) && m.anyActive() {
			return true
		}
	}
	return false
}

// emptyBlockIssues reports whether a block none of whose warps runs a
// predicated access still counts its warps' issues: where the launch
// gives the whole grid (every block exists), or where the last of the
// blocks evaluated runs it (the empty ones are not blocks past the code's
// sizes that an assumed grid adds, but blocks the guard leaves out:
// convolutionSeparable's first column, whose halo lies left of the
// image, measured at 23/24 of a request's sectors per instruction).
func (m *warpModel) emptyBlockIssues(blocks int64, iters []int64) bool {
	return m.gridKnown || m.blockRuns(blocks-1, iters)
}

// perInstruction sets p's per-instruction figures from the sums of run:
// requests that ran and issued, those issued with every lane off.
func (p *Prediction) setPerInstruction(sumS, sumI, sumN float64, requests, empty int, scale float64) {
	if empty == 0 {
		return
	}
	n := float64(requests + empty)
	p.PerInstruction = &PerInstruction{Sectors: sumS / n, Ideal: sumI / n, IdealNcu: sumN / n}
	p.issued = n * scale
}

// instructionFigures are p's figures per instruction issued and the
// instructions they average over: the per-request ones where every
// instruction issued runs.
func (p *Prediction) instructionFigures() (PerInstruction, float64) {
	if p.PerInstruction != nil {
		return *p.PerInstruction, p.issued
	}
	return PerInstruction{Sectors: p.Sectors, Ideal: p.Ideal, IdealNcu: p.IdealNcu}, p.active
}

// averagePerInstruction is the per-instruction view of predictions
// averaged together (copies of a loop body, accesses of one position),
// each weighted by w(q); nil when none of them is predicated.
func averagePerInstruction(ps []*Prediction, w func(q *Prediction, issued float64) float64) (*PerInstruction, float64) {
	any := false
	var sum PerInstruction
	var total float64
	for _, q := range ps {
		if q.NoLane || !q.Known {
			continue
		}
		f, issued := q.instructionFigures()
		any = any || q.PerInstruction != nil
		wq := w(q, issued)
		sum.Sectors += f.Sectors * wq
		sum.Ideal += f.Ideal * wq
		sum.IdealNcu += f.IdealNcu * wq
		total += wq
	}
	if !any || total == 0 {
		return nil, 0
	}
	return &PerInstruction{Sectors: sum.Sectors / total, Ideal: sum.Ideal / total, IdealNcu: sum.IdealNcu / total}, total
}
