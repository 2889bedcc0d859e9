// Package warp is the warp/sector model. Predict takes an Access (interp)
// and a launch configuration (launch), forms warps from the block shape
// as the hardware does (32 consecutive linear thread indices), and counts
// the 32-byte sectors each warp-wide request touches, with its ideal, its
// misalignment and, for shared memory, its bank conflicts: in closed form
// when the address is affine with block and loop terms (residue.go), else
// by evaluating requests, exhaustively up to a limit and sampled past it.
// Guards that hold for the whole launch are dropped by interval bounds
// (bounds.go); one on an assumed size that only the lanes past the bound
// pass, a remainder, is evaluated rather than taken as true (tail.go).
// Loops the compiler unrolls and loops whose trip count
// depends on the block are predicted copy by copy (loops.go); values a
// loop carries uniformly are run as recurrences (carried.go), and uniform
// values the model does not know are averaged over their residues
// (uniform.go). A Prediction carries the number and the assumptions it
// rests on, or an Unknown saying why there is none (unknown.go).
package warp

import (
	"cmp"
	"math/rand/v2"
	"slices"

	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/symbolic"
)

// SectorBytes is the size of the unit in which global memory serves a
// warp's request.
const SectorBytes = 32

// Model constants. Each is stated in the prediction when it was used.
const (
	// AssumedValue stands for an integer parameter whose value no launch
	// gives: a large multiple of 32, so the prediction is the one that
	// holds for large sizes.
	AssumedValue = 4096
	// assumedTrips is the number of iterations averaged for a loop whose
	// trip count cannot be evaluated.
	assumedTrips = 8
	// AssumedTrips is assumedTrips for the model's users: a kernel's cost
	// counts such a loop's code as often as its accesses.
	AssumedTrips = assumedTrips
	maxTrips     = 1 << 30
	// Up to enumerateLimit warp requests (enumerateLaneLimit when lanes
	// must be evaluated one by one: addresses not affine in the thread
	// index, guards that depend on it) are evaluated exhaustively: the
	// prediction is then exact. Past that, sampleCount requests are
	// drawn at random (fixed seed), stopping early at stableAfter when
	// every sample so far cost the same.
	enumerateLimit     = 1 << 15
	enumerateLaneLimit = 1 << 10
	sampleCount        = 4096
	stableAfter        = 64
	// Where a condition may cut some warps' lanes (i < n), stopping takes
	// stableAfterCut samples of one cost: a warp so rare that they all
	// miss it moves the average by a few hundredths of a sector.
	stableAfterCut = 256
	// A predicated access draws whole blocks, as many as make
	// predicatedWarpShare * sampleCount warps (at most sampleCount
	// blocks): every warp's issue counts.
	predicatedWarpShare = 2
	// Copies of a loop body (loops.go) share an access's samples, each
	// drawing at least minCopySamples.
	minCopySamples = 512
)

// UnitStride is an access's cost with parameters Names at 1.
type UnitStride struct {
	Names          []string
	Known          bool
	Sectors, Ideal float64
}

// Prediction is the modelled cost of one access under one launch configuration.
type Prediction struct {
	Access *interp.Access
	Config *launch.Config
	// Known is false when the address depends on data or on a value the
	// model cannot resolve; Unknown then says why (Reason words it).
	Known   bool
	Unknown Unknown
	// Sectors and Ideal are averages per warp-wide request (per memory
	// instruction, when an access is split into several).
	Sectors, Ideal float64
	// IdealNcu is Nsight Compute's "L2 Theoretical Sectors Global Ideal"
	// per request, which is not the fewest sectors that hold the bytes but
	// min(sectors, ceil(active lanes x bytes / 32)): two lanes reading two
	// far-apart words count 2, where 8 bytes would fit in 1.
	IdealNcu float64
	// LaneStride is the address step, in bytes, between neighbouring lanes
	// along the block's fastest dimension, when the address is affine in it.
	LaneStride *int64
	// Requests is the number of warp requests evaluated; Exact is true when
	// they were all the launch makes (no sampling).
	Requests int
	Exact    bool
	// NoLane is set when no lane of the launch performs the access (a
	// branch the launch's template arguments or sizes rule out).
	NoLane bool
	// BlocksEvaluated is the number of blocks an exact evaluation went
	// through: all of the launch's, or one when neither the address nor a
	// condition depends on the block index (each block then costs the
	// same); 0 when the prediction is not exact or came in closed form.
	BlocksEvaluated int64
	Pieces          int // memory instructions per access (struct copies split)
	Assumptions     []Assumption
	Facts           Facts
	// Warp is the first evaluated request: each active lane's byte address
	// (-1 for inactive lanes), for pictures of the warp's sectors.
	Warp []int64
	// Count is the number of accesses this prediction stands for: more
	// than one where several share a source position.
	Count int
	// BaseResidue is set when the address adds a warp-uniform loaded
	// value whose residue mod 32 bytes matters: the numbers are then the
	// mean over the residues it can have, and it names the load.
	BaseResidue *Unknown
	// Misaligned is the share of requests in which some lane's address is
	// not a multiple of its access width: such an access faults on the GPU.
	Misaligned float64
	// Unrolled is set when the compiler unrolls loops around the access:
	// the cost of each copy of the body (one instruction each), of which
	// the figures above are the average.
	Unrolled *Unrolled
	// Merged is set when the model predicts that nvcc merges the access
	// with adjacent ones of its thread into wider instructions
	// (merge.go): the figures are those instructions'.
	Merged *Merged
	// PerInstruction is set where nvcc predicates the access (an
	// instruction every warp reaching its guard issues, predication.go):
	// the figures per instruction issued, which Nsight Compute reports;
	// the figures above are per request that runs.
	PerInstruction *PerInstruction
	// AtUnitStride, where set, is the access priced again with the
	// assumed parameters that may well be 1 (a stride, an increment: see
	// analyzer.Options.UnitStride) at 1, the others as assumed: a waste
	// that goes there rests on those being large (darknet's col2im at
	// stride 1 is 4.87 sectors a request, not 32).
	AtUnitStride *UnitStride
	// Hoisted is set where nvcc loads the value once before the access's
	// innermost loop (hoist.go): the instruction runs once, not once per
	// iteration, and Nsight may show it on another line.
	Hoisted bool
	// Promoted is set where nvcc keeps the location in a register across
	// the access's innermost loop, loading it before and storing it after
	// (hoist.go): once, not once per iteration, on the access's own line.
	Promoted bool
	// issued is the instructions issued per launch, those with every lane
	// off too, where PerInstruction is set.
	issued float64
	// BlockReuse is, for a global load, the distinct sectors the first
	// block's warps touch together at the first iteration over the sum of
	// the sectors each touches: under 1 when warps of a block read the
	// same sectors (a gather of interleaved planes, a column reduction one
	// warp per column), which the L1 then serves once. 0 when not
	// computed.
	BlockReuse float64
	// active is the number of requests with a lane on that the launch
	// makes (estimated where sampled): the weight of this prediction when
	// copies of a loop body are averaged.
	active float64
	// For shared-memory accesses, Sectors holds the wavefronts a request
	// takes (bank conflicts: 1 for a conflict-free 4-byte access, 32 when
	// every lane hits one bank), and Ideal the fewest possible.
}

// Merge folds q, an access at the same position, into p: averages per
// instruction, unknown if either is. An access no lane performs issues no
// request and adds nothing (as combine skips such copies of a loop body).
func (p *Prediction) Merge(q *Prediction) {
	switch {
	case q.Pieces == 0: // merged into another access's instruction (merge.go)
		p.Count += q.Count
		return
	case p.Pieces == 0:
		a, n := p.Access, p.Count
		*p = *q
		p.Access, p.Count = a, n+q.Count
		return
	case q.NoLane: // its instructions are there, and issue nothing
		p.Count += q.Count
		p.Pieces += q.Pieces
		return
	case p.NoLane:
		a, n, pieces := p.Access, p.Count, p.Pieces
		*p = *q
		p.Access, p.Count, p.Pieces = a, n+q.Count, pieces+q.Pieces
		return
	}
	switch {
	case !p.Known:
	case !q.Known:
		p.Known, p.Unknown = false, q.Unknown
	default:
		w1, w2 := float64(p.Pieces), float64(q.Pieces)
		avg := func(a, b float64) float64 { return (a*w1 + b*w2) / (w1 + w2) }
		p.PerInstruction, p.issued = averagePerInstruction([]*Prediction{p, q}, func(x *Prediction, issued float64) float64 {
			if x == p {
				return w1
			}
			return w2
		})
		p.Sectors, p.Ideal, p.IdealNcu = avg(p.Sectors, q.Sectors), avg(p.Ideal, q.Ideal), avg(p.IdealNcu, q.IdealNcu)
		p.Misaligned = avg(p.Misaligned, q.Misaligned)
		p.Exact = p.Exact && q.Exact
		p.Requests += q.Requests
	}
	if p.LaneStride != nil && (q.LaneStride == nil || *q.LaneStride != *p.LaneStride) {
		p.LaneStride = nil
	}
	p.Facts = p.Facts.merge(q.Facts)
	p.Unrolled = nil // the copies of one access's loops; two accesses' would mix
	p.active += q.active
	p.Pieces += q.Pieces
	p.Count += q.Count
	for _, a := range q.Assumptions {
		if !slices.Contains(p.Assumptions, a) {
			p.Assumptions = append(p.Assumptions, a)
		}
	}
}

// oneThread: the launch gives a block of one thread, so every warp is
// one lane.
func oneThread(cfg *launch.Config) bool {
	given := cfg.BlockSource == launch.FromLaunch || cfg.BlockSource == launch.FromConfig || cfg.BlockSource == launch.FromAnnotation
	return given && cfg.Block == launch.Dim3{1, 1, 1}
}

// sectorSized: every piece an access of t splits into is a naturally
// aligned chunk that a sector holds whole.
func sectorSized(t *ctype.Type) bool {
	if t == nil || t.Size <= 0 || t.Kind == ctype.TUnknown {
		return false
	}
	for _, piece := range ctype.Pieces(t) {
		if piece[1] > SectorBytes || SectorBytes%piece[1] != 0 {
			return false
		}
	}
	return true
}

// Efficiency is ideal over predicted sectors.
func (p *Prediction) Efficiency() float64 {
	if !p.Known || p.Sectors == 0 {
		return 0
	}
	return p.Ideal / p.Sectors
}

// threadSyms and blockSyms are threadIdx and blockIdx along x, y and z.
var threadSyms, blockSyms = builtinIDs(symbolic.ThreadIdx), builtinIDs(symbolic.BlockIdx)

func builtinIDs(b func(symbolic.Axis) symbolic.Builtin) (out [3]symbolic.SymID) {
	for _, a := range symbolic.Axes {
		out[a] = b(a).ID()
	}
	return out
}

// Predict models access a under configuration cfg. params are the symbols
// that stand for user-given values (they may be assumed).
func Predict(a *interp.Access, cfg *launch.Config, params map[symbolic.SymID]bool) *Prediction {
	return predict(a, cfg, params, sampling{n: sampleCount})
}

// PredictIn is Predict for an access among kernel, its kernel's accesses
// in program order: where nvcc merges it with adjacent accesses of its
// thread (merge.go), the figures are those of the instruction it emits.
func PredictIn(a *interp.Access, kernel []*interp.Access, cfg *launch.Config, params map[symbolic.SymID]bool) *Prediction {
	s := sampling{n: sampleCount, kernel: kernel}
	if predicatedGuard(a, kernel) {
		s.predicated = a.Guards[len(a.Guards)-1]
	}
	wide, members := adjacentGroup(a, kernel, templateValues(a, cfg))
	if wide == nil {
		p := predict(a, cfg, params, s)
		p.Hoisted, p.Promoted = hoistedLoad(a, kernel), promotedAccess(a, kernel)
		return p
	}
	p := predict(wide, cfg, params, s)
	if p.Misaligned > 0 {
		// The launch breaks the alignment the code promised (an offset
		// pointer through __builtin_assume_aligned): not what nvcc planned
		// for; price the access as written.
		return predict(a, cfg, params, sampling{n: sampleCount})
	}
	p.Access = a
	into := carrier(a.Op, members)
	m := &Merged{Bytes: wide.Type.Size}
	for _, q := range members {
		if q != a {
			m.With = append(m.With, q)
		}
	}
	if into != a {
		// Its element comes with into's instruction: no request of its own.
		m.Into, p.Pieces, p.active = into, 0, 0
	}
	p.Merged = m
	return p
}

// sampling is how a prediction samples requests where it must: at most n,
// from random stream stream. The copies of a loop body (loops.go) share
// the access's n and draw from streams of their own, so that together
// they see as many distinct requests as the access alone would.
type sampling struct {
	n      int
	stream uint64
	// kernel is the kernel's accesses in program order, where known: what
	// decides whether nvcc merges copies of an unrolled loop (merge.go).
	kernel []*interp.Access
	// predicated is the access's innermost guard where nvcc predicates it
	// (predication.go), decided where kernel is known and kept by copies
	// (whose guards may have more after it).
	predicated symbolic.Expr
}

// copies is the sampling of each of k copies, copy i's stream being
// (stream, i) mixed. It drops the kernel: a copy's loops are copies of
// the access's, so no merge is claimed inside them (the prediction that
// reports one is the access's own, predictUnrolled's).
func (s sampling) copies(k, i int) sampling {
	return sampling{n: max(s.n/k, min(s.n, minCopySamples)), stream: s.stream*0x9e3779b97f4a7c15 + uint64(i) + 1, predicated: s.predicated}
}

// predict is Predict sampling as s says.
func predict(a *interp.Access, cfg *launch.Config, params map[symbolic.SymID]bool, s sampling) *Prediction {
	if pinned := pinnedParams(a, params); pinned != nil {
		p := predict(withPinned(a, pinned), cfg, params, s)
		p.Access = a
		return p
	}
	if b, notes, ok := warpSharedLoads(a, cfg, params, s.kernel); ok {
		p := predict(b, cfg, params, s)
		p.Access = a
		for _, n := range notes {
			p.Assumptions = appendNew(p.Assumptions, n)
		}
		return p
	}
	if p, ok := predictUnrolled(a, cfg, params, s); ok {
		return p
	}
	recs, recNotes := recurrencesOf(a, cfg, params)
	if us := uniformUnknowns(a.Addr, recs); len(us) > 0 {
		if p, ok := predictResidues(a, cfg, params, us, s); ok {
			return p
		}
	}
	p := &Prediction{Access: a, Config: cfg, Pieces: len(ctype.Pieces(a.Type))}
	grid := cfg.Grid
	bind := launchBind(cfg)
	symbolic.Symbols(a.Addr, func(v *symbolic.Var) {
		if v.Kind == symbolic.KindBase {
			bind[v.Key()] = symbolic.Const(cfg.Bases[v.Of])
		}
	})
	addr, setNotes := assumeSet(symbolic.Subst(a.Addr, bind))
	p.Assumptions = append(p.Assumptions, setNotes...)
	guards := make([]symbolic.Expr, len(a.Guards))
	for i, g := range a.Guards {
		guards[i] = symbolic.Subst(g, bind)
		if first, ok := firstThreadIn(guards[i], cfg); ok {
			guards[i] = first
			p.Assumptions = append(p.Assumptions, Assumption{Kind: OneThread})
		}
		if v, ok := symbolic.IsConst(guards[i]); ok && v == 0 {
			// A branch the launch rules out (if constexpr (dim == 0) in
			// k<T, 1>): whatever its address, no lane gets there.
			p.Unknown, p.NoLane = Unknown{Cause: symbolic.CauseNoLane}, true
			return p
		}
	}

	// Parameters no launch gives are assumed large, for addresses and loop
	// bounds alike; guards do not see assumed values (an unknown guard is
	// taken as true: bounds checks pass for full warps), except a tail
	// guard, which only lanes past a bound pass (tail.go). The values loops
	// carry that the model evaluates are set like iterations.
	assumed := map[string]int64{} // parameter -> value
	var unresolved *symbolic.Var
	usesCarried := false
	collect := func(e symbolic.Expr) {
		symbolic.Symbols(e, func(v *symbolic.Var) {
			switch {
			case v.Class == symbolic.Data, v.IsLaneOrBlockIndex(), v.Kind == symbolic.KindLoopIter:
			case isCarried(recs, v.Key()):
				usesCarried = true
			case params[v.Key()]:
				assumed[v.Of] = AssumedValue
			case unresolved == nil:
				unresolved = v
			}
		})
	}
	collect(addr)
	if symbolic.ClassOf(addr) == symbolic.Data {
		if oneThread(cfg) && sectorSized(a.Type) {
			// One lane per warp: whatever the data says, a naturally
			// aligned element lies in one sector (a <<<1, 1>>> set-up
			// kernel's store through a loaded index).
			p.Known, p.Sectors, p.Ideal, p.IdealNcu = true, 1, 1, 1
			return p
		}
		p.Unknown = unknownOf(firstData(addr))
		return p
	}
	if unresolved != nil {
		p.Unknown = unknownOf(unresolved)
		return p
	}
	// Assumed sizes give trip counts to loops whose bound is the same for
	// every thread (for k < n); a per-thread bound on an unknown size (a
	// grid-stride i < n) stays unknown, and passes.
	loops := make([]symbolic.Expr, len(a.Loops))
	for i, l := range a.Loops {
		if l.Cond != nil {
			loops[i] = symbolic.Subst(l.Cond, bind)
			if !mentionsThreadOrBlock(loops[i]) {
				collect(loops[i])
			}
		}
	}
	// A guard that only lanes past a bound pass (a remainder) is
	// evaluated at a size that lets some through (tail.go).
	tails := findTails(a, cfg, params, guards, loops)
	for name, v := range tails.values {
		assumed[name] = v
	}
	if usesCarried {
		for _, n := range recNotes {
			p.Assumptions = appendNew(p.Assumptions, n)
		}
	}
	for _, name := range sortedKeys(assumed) {
		p.Assumptions = appendNew(p.Assumptions, Assumption{Kind: AssumedParam, Name: name, Value: assumed[name]})
	}
	p.Assumptions = append(p.Assumptions, tails.notes...)
	for _, ax := range symbolic.Axes {
		grids := symbolic.GridDim(ax).ID()
		if !cfg.GridKnown[ax] && (symbolic.Mentions(addr, symbolic.BlockIdx(ax).ID()) || symbolic.Mentions(addr, grids) || symbolic.Mentions(a.Addr, grids)) {
			p.Assumptions = append(p.Assumptions, Assumption{Kind: AssumedGrid, Name: ax.String(), Value: grid[ax]})
		}
	}
	assumedBind := bindParams(assumed)
	addr = symbolic.Subst(addr, assumedBind)
	for i := range loops {
		if loops[i] != nil && !mentionsThreadOrBlock(loops[i]) {
			loops[i] = symbolic.Subst(loops[i], assumedBind)
		}
		loops[i] = tails.give(loops[i])
	}
	for i := range guards {
		guards[i] = tails.give(guards[i])
	}
	if neverEntered(a, loops) {
		// A loop whose bound the launch fixes and whose first test fails
		// (for (j = 3; j < stride; ++j) in k<3>): no thread runs its body.
		p.Unknown, p.NoLane = Unknown{Cause: symbolic.CauseNoLane}, true
		return p
	}
	p.LaneStride = laneStride(addr, cfg.Block)
	p.Facts = factsOf(a, addr)
	p.Assumptions = append(p.Assumptions, dataGuardNotes(guards)...)
	var predKey string
	if s.predicated != nil {
		predKey = symbolic.Key(symbolic.Subst(s.predicated, bind))
	}
	guards, loops = dropUnknown(guards), dropUnknownLoops(loops)
	m := newWarpModel(a, cfg.Block, grid, addr, nil, loops, recs)
	m.sampling = s
	m.gridKnown = cfg.GridKnown == [3]bool{true, true, true}
	if plan := blockTripPlan(loops, m.trips); len(plan) > 0 {
		return predictBlockTrips(a, cfg, params, plan, recs, s)
	}
	m.addGuards(a, guards, predKey)
	m.usesBlock = mentionsBlock(addr) || slices.ContainsFunc(m.conds, mentionsBlock) || slices.ContainsFunc(loops, mentionsBlock)
	p.Assumptions = append(p.Assumptions, m.tripNotes...)
	p.Facts.Bounded = len(p.Assumptions) == 0
	if m.affine && len(m.conds) == 0 && m.runClosedForm(p, a, m.baseExpr) {
		m.footprint(p)
		return p
	}
	m.run(p)
	m.footprint(p)
	return p
}

// predictBlockTrips predicts an access inside loops whose trip count
// depends on the block, one iteration at a time (see loops.go).
func predictBlockTrips(a *interp.Access, cfg *launch.Config, params map[symbolic.SymID]bool, plan []splitLoop, recs []*recurrence, s sampling) *Prediction {
	copies, _ := splitCopies(a, plan, recs)
	ps := make([]*Prediction, len(copies))
	for i, c := range copies {
		ps[i] = predict(c, cfg, params, s.copies(len(copies), i))
	}
	return combine(a, cfg, ps)
}

// dropUnknown removes conditions that can never be evaluated (they always pass).
func dropUnknown(conds []symbolic.Expr) []symbolic.Expr {
	var out []symbolic.Expr
	for _, c := range conds {
		if !alwaysUnknown(c) {
			out = append(out, c)
		}
	}
	return out
}

// dropUnknownLoops keeps one entry per loop (its trip count is still
// needed) but clears conditions that can never be evaluated.
func dropUnknownLoops(loops []symbolic.Expr) []symbolic.Expr {
	out := make([]symbolic.Expr, len(loops))
	for i, c := range loops {
		if c != nil && !alwaysUnknown(c) {
			out[i] = c
		}
	}
	return out
}

// mentionsBlock reports whether e depends on the block index.
func mentionsBlock(e symbolic.Expr) bool {
	return e != nil && slices.ContainsFunc(blockSyms[:], func(id symbolic.SymID) bool { return symbolic.Mentions(e, id) })
}

// bindParams binds parameters, given by name, to their values, for Subst.
func bindParams(values map[string]int64) map[symbolic.SymID]symbolic.Expr {
	bind := make(map[symbolic.SymID]symbolic.Expr, len(values))
	for name, v := range values {
		bind[symbolic.ParamID(name)] = symbolic.Const(v)
	}
	return bind
}

// assumeParams gives the parameters in e no launch gives (params)
// AssumedValue, with a note for each, sorted by name.
func assumeParams(e symbolic.Expr, params map[symbolic.SymID]bool) (symbolic.Expr, []Assumption) {
	assumed := map[string]int64{}
	symbolic.Symbols(e, func(v *symbolic.Var) {
		if params[v.Key()] {
			assumed[v.Of] = AssumedValue
		}
	})
	var notes []Assumption
	for _, name := range sortedKeys(assumed) {
		notes = append(notes, Assumption{Kind: AssumedParam, Name: name, Value: AssumedValue})
	}
	return symbolic.Subst(e, bindParams(assumed)), notes
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// firstData is the first data-class symbol of e (the one a prediction
// names as the reason it has no number).
func firstData(e symbolic.Expr) *symbolic.Var {
	var first *symbolic.Var
	symbolic.Symbols(e, func(v *symbolic.Var) {
		if v.Class == symbolic.Data && first == nil {
			first = v
		}
	})
	return first
}

// laneStride is the coefficient of the block's fastest thread index.
func laneStride(addr symbolic.Expr, block launch.Dim3) *int64 {
	for d := 0; d < 3; d++ {
		if block[d] == 1 && d < 2 {
			continue
		}
		c, ok := symbolic.Coefficient(addr, threadSyms[d])
		if !ok {
			return nil
		}
		if v, ok := symbolic.IsConst(c); ok {
			return &v
		}
		return nil
	}
	return nil
}

// warpModel evaluates warp requests: which lanes are active and which
// sectors their addresses touch.
type warpModel struct {
	block, grid launch.Dim3
	pieces      [][2]int64
	env         *symbolic.Env
	vals        *symbolic.Values
	addr        symbolic.Func
	// Guards and loop conditions that do not depend on the thread index
	// are evaluated once per request; the others once per lane.
	uniformConds []symbolic.Func
	laneConds    []symbolic.Func
	// predConds are the lane conditions of a guard nvcc predicates: a
	// warp whose lanes pass laneConds and none of these still issues the
	// instruction (predication.go).
	predConds []symbolic.Func
	predExprs []symbolic.Expr // the conditions behind predConds
	reach     uint32          // the lanes of the request that pass laneConds
	laneExprs []symbolic.Expr // the conditions behind laneConds
	addrExpr  symbolic.Expr
	staged    *lanes                 // laneExprs and addrExpr staged, from the first request
	slotOf    map[symbolic.SymID]int // env's slots by symbol (blockoff.go)
	conds     []symbolic.Expr        // the conditions behind uniformConds and laneConds
	loops     []symbolic.Func        // nil entries: unknown condition (for trip counts)
	// For an address affine in the thread index with constant
	// coefficients: the address is base (the uniform part) plus a fixed
	// offset per lane, and a request's cost depends only on the warp, the
	// active lanes and base mod 32, so it is memoised.
	affine    bool
	shared    bool  // shared memory: bank conflicts instead of sectors
	period    int64 // base addresses that differ by a multiple cost the same
	baseExpr  symbolic.Expr
	base      symbolic.Func
	coef      [3]int64 // the thread index's coefficients
	warpFirst []int64  // each warp's first lane's offset
	// Warps whose lanes sit at the same offsets from their first lane
	// share a shape: their costs differ only by where the warp starts.
	warpShape []int
	memo      map[memoKey][]cost // requests with some lanes off
	// fullWarp indexes, by shape and base residue, the memoised costs of
	// requests with every lane on (most of them): 1 + their offset in
	// memoCosts, 0 when not yet computed.
	fullWarp  []int32
	memoCosts []cost // the memo's values, back to back
	scratch   []cost
	mask      uint32
	baseVal   int64
	iterSlots []int
	trips     []int64
	// recs are the loops' carried values the model evaluates, recSlots
	// their symbols' slots: set with the iterations.
	recs      []*recurrence
	recSlots  [][]int
	tripNotes []Assumption
	thread    [3]int
	blockIdx  [3]int
	usesBlock bool // the address or a condition depends on the block index
	lanes     [32]int64
	sampling  sampling
	// gridKnown is set where the launch gives the whole grid: a block
	// whose warps all leave a predicated access's lanes off still issues
	// it (convolutionSeparable's first column of blocks, measured), where
	// under a grid assumed larger than the code's sizes such a block may
	// not exist.
	gridKnown bool
}

func newWarpModel(a *interp.Access, block, grid launch.Dim3, addr symbolic.Expr, guards, loops []symbolic.Expr, recs []*recurrence) *warpModel {
	m := &warpModel{block: block, grid: grid, pieces: ctype.Pieces(a.Type), env: symbolic.NewEnv(), period: SectorBytes, recs: recs, sampling: sampling{n: sampleCount}}
	m.vals = m.env.NewValues()
	if a.Space == interp.Shared {
		m.shared, m.period = true, 128
	}
	for d := 0; d < 3; d++ {
		m.thread[d] = m.env.Slot(threadSyms[d])
		m.blockIdx[d] = m.env.Slot(blockSyms[d])
	}
	for _, l := range a.Loops {
		m.iterSlots = append(m.iterSlots, m.env.Slot(l.Iter))
	}
	for _, r := range recs {
		var slots []int
		for _, k := range r.keys {
			slots = append(slots, m.env.Slot(k))
		}
		m.recSlots = append(m.recSlots, slots)
	}
	m.addr, m.addrExpr = m.compile(addr), addr
	for _, l := range loops {
		if l == nil {
			m.loops = append(m.loops, nil)
			continue
		}
		m.loops = append(m.loops, m.compile(l))
	}
	m.setupAffine(addr)
	m.tripCounts(a, loops)
	// Loop conditions on the iteration alone are the trip count; the rest
	// (a grid-stride i < n) decide per lane which iterations run.
	for i, l := range loops {
		if l != nil && mentionsThreadOrBlock(l) {
			m.addCond(l, m.loops[i])
		}
	}
	return m
}

// compile compiles e over the model's slots. Guards are compiled after
// the trip counts are found with the value array in use, and may bring
// symbols of their own (a parameter no launch gives, a loaded value, kept
// where a known operand of && or || can still decide): the array grows
// with every compilation so that no slot is past its end.
func (m *warpModel) compile(e symbolic.Expr) symbolic.Func {
	f := symbolic.Compile(e, m.env)
	m.vals.Grow(m.env)
	return f
}

func (m *warpModel) addCond(c symbolic.Expr, f symbolic.Func) {
	m.conds = append(m.conds, c)
	if mentionsThread(c) {
		m.laneConds = append(m.laneConds, f)
		m.laneExprs = append(m.laneExprs, c)
	} else {
		m.uniformConds = append(m.uniformConds, f)
	}
}

// addGuards adds the access's guards, leaving out those that hold for
// every thread of the launch.
func (m *warpModel) addGuards(a *interp.Access, guards []symbolic.Expr, predKey string) {
	iters := make([]symbolic.SymID, len(a.Loops))
	for i, l := range a.Loops {
		iters[i] = l.Iter
	}
	r := launchRanges(m.block, m.grid, iters, m.trips)
	for _, g := range guards {
		switch {
		case r.alwaysTrue(g):
		case predKey != "" && symbolic.Key(g) == predKey:
			m.conds = append(m.conds, g)
			m.predConds = append(m.predConds, m.compile(g))
			m.predExprs = append(m.predExprs, g)
		default:
			m.addCond(g, m.compile(g))
		}
	}
}

// tripCounts finds each loop's iteration count for the first thread of
// the first block, outer loops at their first iteration; for a loop
// whose condition depends on the block and not on the thread (k <=
// blockIdx.x % 4), the most over the blocks (all of them, or a sample of
// a large grid), so that every block's iterations are evaluated (the
// condition, kept, turns a block's extra ones off).
func (m *warpModel) tripCounts(a *interp.Access, conds []symbolic.Expr) {
	m.setBlock(0)
	for d := 0; d < 3; d++ {
		m.vals.Set(m.thread[d], 0)
	}
	for _, s := range m.iterSlots {
		m.vals.Set(s, 0)
	}
	for i, cond := range m.loops {
		trips, known := int64(0), false
		if cond != nil {
			trips, known = m.tripCount(cond, m.iterSlots[i])
			switch {
			case known && mentionsThread(conds[i]):
				trips, known = m.mostTripsOfThreads(cond, m.iterSlots[i], mentionsBlock(conds[i]))
			case known && mentionsBlock(conds[i]):
				trips, known = m.mostTrips(cond, m.iterSlots[i])
			}
		}
		m.vals.Set(m.iterSlots[i], 0)
		switch {
		case !known:
			trips = assumedTrips
			m.tripNotes = append(m.tripNotes, Assumption{Kind: TripUnknown, Line: int(a.Loops[i].Pos.Line), Value: assumedTrips})
		case trips == maxTrips:
			m.tripNotes = append(m.tripNotes, Assumption{Kind: TripCapped, Line: int(a.Loops[i].Pos.Line), Value: maxTrips})
		case trips == 0:
			trips = 1 // the first thread skips the loop; others may not: evaluate iteration 0
		}
		if len(m.recs) > 0 && trips > maxCarriedIters && m.loopCarries(i) {
			trips = maxCarriedIters
			m.tripNotes = append(m.tripNotes, Assumption{Kind: TripCapped, Line: int(a.Loops[i].Pos.Line), Value: maxCarriedIters})
		}
		m.trips = append(m.trips, trips)
	}
}

// mostTrips is the most iterations a loop runs in any block: over every
// block of a grid of up to tripBlocks, else over the first and last
// rareBlocks and tripBlocks drawn at random. The block slots are left at
// block 0.
func (m *warpModel) mostTrips(cond symbolic.Func, slot int) (int64, bool) {
	blocks := m.grid.Threads()
	most := int64(0)
	try := func(b int64) bool {
		m.setBlock(b)
		t, ok := m.tripCount(cond, slot)
		most = max(most, t)
		return ok
	}
	defer m.setBlock(0)
	if blocks <= tripBlocks {
		for b := int64(0); b < blocks; b++ {
			if !try(b) {
				return 0, false
			}
		}
		return most, true
	}
	rng := rand.New(rand.NewPCG(0x7219, 0xb10c))
	for k := int64(0); k < rareBlocks; k++ {
		if !try(k) || !try(blocks-1-k) {
			return 0, false
		}
	}
	for k := 0; k < tripBlocks; k++ {
		if !try(rng.Int64N(blocks)) {
			return 0, false
		}
	}
	return most, true
}

// mostTripsOfThreads is the most iterations a loop whose condition
// depends on the thread (t2 <= t, with t a coordinate of the thread's
// index) runs in any thread: over the first and last threads of the
// block and threadSamples drawn at random, in the first and last blocks
// and blockSamples drawn at random when it depends on the block too.
// Counting only the first thread's iterations, as for a uniform loop,
// would price the loop at one iteration for thread 0 of block 0; the
// condition, kept, turns each thread's extra iterations off. The thread
// and block slots are left at 0.
func (m *warpModel) mostTripsOfThreads(cond symbolic.Func, slot int, byBlock bool) (int64, bool) {
	threads, blocks := m.block.Threads(), int64(1)
	if byBlock {
		blocks = m.grid.Threads()
	}
	rng := rand.New(rand.NewPCG(0x7219, 0x7ead))
	pick := func(n int64, k int) int64 {
		switch {
		case k == 0:
			return 0
		case k == 1:
			return n - 1
		}
		return rng.Int64N(n)
	}
	bx, by := m.block[0], m.block[1]
	most := int64(0)
	defer func() {
		m.setBlock(0)
		for d := 0; d < 3; d++ {
			m.vals.Set(m.thread[d], 0)
		}
	}()
	for kb := 0; kb < min(int(blocks), blockSamples); kb++ {
		m.setBlock(pick(blocks, kb))
		for kt := 0; kt < min(int(threads), threadSamples); kt++ {
			tid := pick(threads, kt)
			m.vals.Set(m.thread[0], tid%bx)
			m.vals.Set(m.thread[1], (tid/bx)%by)
			m.vals.Set(m.thread[2], tid/(bx*by))
			t, ok := m.tripCount(cond, slot)
			if !ok {
				return 0, false
			}
			most = max(most, t)
		}
	}
	return most, true
}

// threadSamples and blockSamples bound mostTripsOfThreads' search.
const (
	threadSamples = 64
	blockSamples  = 64
)

// tripBlocks is how many blocks mostTrips visits.
const tripBlocks = 4096

// setBlock sets the block index slots to block b (linear, x fastest).
func (m *warpModel) setBlock(b int64) {
	gx, gy := m.grid[0], m.grid[1]
	m.vals.Set(m.blockIdx[0], b%gx)
	m.vals.Set(m.blockIdx[1], (b/gx)%gy)
	m.vals.Set(m.blockIdx[2], b/(gx*gy))
}

// loopCarries reports whether loop i carries values the model evaluates.
func (m *warpModel) loopCarries(i int) bool {
	return slices.ContainsFunc(m.recs, func(r *recurrence) bool { return r.loop == i })
}

// tripCount finds how many iterations run: the first t for which cond is
// false, by doubling then bisection (loop conditions are monotone in the
// iteration: i < n, i * 2 < n, ...). ok is false when cond cannot be
// evaluated.
func (m *warpModel) tripCount(cond symbolic.Func, slot int) (int64, bool) {
	holds := func(t int64) (bool, bool) {
		m.vals.Set(slot, t)
		v, ok := cond(m.vals)
		return v != 0, ok
	}
	first, ok := holds(0)
	if !ok || !first {
		return 0, ok
	}
	lo, hi := int64(0), int64(1) // cond holds at lo
	for {
		h, ok := holds(hi)
		if !ok {
			return 0, false
		}
		if !h {
			break
		}
		if hi >= maxTrips {
			return maxTrips, true
		}
		lo, hi = hi, min(hi*2, maxTrips)
	}
	for hi-lo > 1 { // cond holds at lo, fails at hi
		mid := lo + (hi-lo)/2
		h, ok := holds(mid)
		if !ok {
			return 0, false
		}
		if h {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi, true
}

func (m *warpModel) warps() int64 { return (m.block.Threads() + 31) / 32 }

func (m *warpModel) run(p *Prediction) {
	blocks := m.grid.Threads()
	if !m.usesBlock {
		blocks = 1 // every block costs the same: one stands for all
	}
	total := float64(blocks) * float64(m.warps())
	for _, t := range m.trips {
		total *= float64(t)
	}
	var sumS, sumI, sumN, sumM float64
	// empty counts the predicated instructions issued with every lane off
	// (predication.go), in blocks where some request of the access runs.
	requests, empty := 0, 0
	emptyHere := false // the request visited last issued with every lane off
	first := true
	visit := func(b, w int64, iters []int64) bool {
		emptyHere = false
		ok := m.request(b, w, iters)
		if !ok {
			p.Unknown = Unknown{Cause: symbolic.CauseNotEvaluable}
			return false
		}
		if !m.anyActive() {
			emptyHere = m.reach != 0
			return true
		}
		if first {
			p.Warp = m.warpAddresses()
			first = false
		}
		for _, c := range m.costs(w) {
			sumS += float64(c[0])
			sumI += float64(c[1])
			sumN += float64(c[2])
			sumM += float64(c[3])
			requests++
		}
		return true
	}
	iters := make([]int64, len(m.trips))
	limit := float64(enumerateLimit)
	if !m.affine || len(m.laneConds) > 0 || len(m.predConds) > 0 {
		limit = enumerateLaneLimit
	}
	// scale turns the requests evaluated into the launch's: the blocks
	// evaluated stand for the grid; samples for all requests.
	scale := float64(m.grid.Threads()) / float64(blocks)
	if total <= limit {
		p.Exact, p.BlocksEvaluated = true, blocks
		visitBlock := m.blockVisitor(iters, visit, func() warpSums { return warpSums{sumS, sumI, sumN, sumM, requests} },
			func(d warpSums) {
				sumS, sumI, sumN, sumM, requests = sumS+d.s, sumI+d.i, sumN+d.n, sumM+d.m, requests+d.requests
			})
		var rec func(level int) bool
		rec = func(level int) bool {
			if level < len(iters) {
				for t := int64(0); t < m.trips[level]; t++ {
					iters[level] = t
					if !rec(level + 1) {
						return false
					}
				}
				return true
			}
			for b := int64(0); b < blocks; b++ {
				if len(m.predConds) == 0 {
					if !visitBlock(b) {
						return false
					}
					continue
				}
				// A predicated access: every warp's issue counts, those
				// with no lane on too, in blocks where some request runs.
				blockEmpty, before := 0, requests
				for w := int64(0); w < m.warps(); w++ {
					if !visit(b, w, iters) {
						return false
					}
					if emptyHere {
						blockEmpty += len(m.pieces)
					}
				}
				if requests > before || blockEmpty > 0 && m.emptyBlockIssues(blocks, iters) {
					empty += blockEmpty
				}
			}
			return true
		}
		if !rec(0) {
			return
		}
	} else {
		rng := rand.New(rand.NewPCG(0x5ec7+m.sampling.stream, 0x0c0a1e5c))
		firstSample, stable, active := -1.0, true, 0
		sameLanes := m.sameLanesEverywhere(iters)
		drawn := 0
		for k := 0; len(m.predConds) > 0 && k < m.predicatedBlockDraws(); k++ {
			// A predicated access: whole blocks, so that the issues with
			// every lane off are counted as the exact path counts them
			// (in blocks where some request runs), not estimated from
			// single warps (1/8 of a 256-thread block's warps run a
			// thread-0 copy: 4096 single draws miss that by 4%).
			b := rng.Int64N(blocks)
			for l := range iters {
				iters[l] = rng.Int64N(m.trips[l])
			}
			blockEmpty, before := 0, requests
			for w := int64(0); w < m.warps(); w++ {
				drawn++
				if !visit(b, w, iters) {
					return
				}
				if emptyHere {
					blockEmpty += len(m.pieces)
				}
			}
			if requests > before || blockEmpty > 0 && m.emptyBlockIssues(blocks, iters) {
				empty += blockEmpty
			}
		}
		for n := 0; len(m.predConds) == 0 && n < m.sampling.n; n++ {
			drawn++
			b := rng.Int64N(blocks)
			w := rng.Int64N(m.warps())
			for l := range iters {
				iters[l] = rng.Int64N(m.trips[l])
			}
			sumBefore, reqBefore := sumS, requests
			if !visit(b, w, iters) {
				return
			}
			if requests > reqBefore {
				active++
				got := sumS - sumBefore
				if firstSample < 0 {
					firstSample = got
				} else if got != firstSample {
					stable = false
				}
			}
			if stable && (active >= stableAfter && sameLanes || active >= stableAfterCut) {
				break // every request so far cost the same: the pattern does not vary
			}
		}
		// The samples stand for total requests of the blocks evaluated,
		// and those blocks for the grid (one block for all of them when
		// the access does not depend on the block).
		scale = total / float64(drawn) * float64(m.grid.Threads()) / float64(blocks)
		if requests == 0 {
			scale = 1 // what a sweep finds is rare
			if !m.sweepRare(blocks, iters, visit) {
				return
			}
		}
	}
	p.Requests = requests
	p.active = float64(requests) * scale
	if requests == 0 {
		p.Unknown, p.NoLane = Unknown{Cause: symbolic.CauseNoLane}, true
		return
	}
	p.Known = true
	p.Sectors = sumS / float64(requests)
	p.Ideal = sumI / float64(requests)
	p.IdealNcu = sumN / float64(requests)
	p.Misaligned = sumM / float64(requests)
	p.setPerInstruction(sumS, sumI, sumN, requests, empty, scale)
}

// predicatedBlockDraws is how many blocks a predicated access's samples
// draw: predicatedWarpShare times the sample count in warps, and no more
// blocks than the sample count.
func (m *warpModel) predicatedBlockDraws() int {
	return int(min(int64(m.sampling.n), max(1, predicatedWarpShare*int64(m.sampling.n)/m.warps())))
}

// sameLanesEverywhere reports whether the access's lane conditions turn
// the same lanes off in every request, so that samples that cost the
// same can stop early: none, or conditions on the thread index alone
// (tx % 2 == 0) that give every warp of the block the same lanes. A
// condition on the block, a loop's iteration or a size can cut a warp
// that samples rarely meet (particlefilter's i < Nparticles leaves 8
// lanes in the last of 32 warps); a predicated access's issues with every
// lane off, which its figures per instruction count, can be as rare
// (convolutionSeparable's lower halo: one block row in 48).
func (m *warpModel) sameLanesEverywhere(iters []int64) bool {
	if len(m.predConds) > 0 {
		return false
	}
	for _, e := range m.laneExprs {
		if !onlyThreadShape(e) {
			return false
		}
	}
	if len(m.laneConds) == 0 {
		return true
	}
	var first uint32
	for w := int64(0); w < m.warps(); w++ {
		if !m.request(0, w, iters) {
			return false
		}
		if w == 0 {
			first = m.mask
		} else if m.mask != first {
			return false
		}
	}
	return true
}

// onlyThreadShape reports whether e reads nothing but the thread index and
// the block's shape.
func onlyThreadShape(e symbolic.Expr) bool {
	ok := true
	symbolic.Symbols(e, func(v *symbolic.Var) {
		ok = ok && (v.Kind == symbolic.KindThreadIdx || v.Kind == symbolic.KindBlockDim)
	})
	return ok
}

// request sets up warp w of block b at the given iterations and evaluates
// each lane's activity and address.
func (m *warpModel) request(b, w int64, iters []int64) bool {
	ok, active := m.blockRequest(b, iters)
	m.mask, m.reach = 0, 0
	if !ok || !active {
		return ok
	}
	if len(m.predConds) > 0 {
		return m.predicatedVecLanes(w)
	}
	if m.affine && len(m.laneConds) == 0 {
		m.mask = m.validMask(w) // lanes are filled in only when the memo misses
		return true
	}
	return m.evalLanes(w)
}

// predicatedLanes evaluates warp w's lanes one by one for an access nvcc
// predicates: reach holds the lanes that pass laneConds (the warp issues
// the instruction when any does), mask those that pass predConds too.
func (m *warpModel) predicatedLanes(w int64) bool {
	bx, by := m.block[0], m.block[1]
	threads := m.block.Threads()
	for lane := int64(0); lane < 32; lane++ {
		tid := w*32 + lane
		if tid >= threads {
			continue
		}
		m.vals.Set(m.thread[0], tid%bx)
		m.vals.Set(m.thread[1], (tid/bx)%by)
		m.vals.Set(m.thread[2], tid/(bx*by))
		if !passes(m.laneConds, m.vals) {
			continue
		}
		m.reach |= 1 << lane
		if !passes(m.predConds, m.vals) {
			continue
		}
		m.mask |= 1 << lane
		if m.affine {
			continue
		}
		a, ok := m.addr(m.vals)
		if !ok {
			return false
		}
		m.lanes[lane] = a
	}
	return true
}

// blockRequest sets up block b at the given iterations: what is the same
// for each of its warps. active is false when the uniform conditions turn
// every lane off; ok false when the request cannot be evaluated.
func (m *warpModel) blockRequest(b int64, iters []int64) (ok, active bool) {
	m.setBlock(b)
	for l, s := range m.iterSlots {
		m.vals.Set(s, iters[l])
	}
	for i, r := range m.recs {
		vs, ok := r.at(iters[r.loop])
		if !ok {
			return false, false
		}
		for k, s := range m.recSlots[i] {
			m.vals.Set(s, vs[k])
		}
	}
	if !passes(m.uniformConds, m.vals) {
		return true, false
	}
	if m.affine {
		base, ok := m.base(m.vals)
		if !ok {
			return false, false
		}
		m.baseVal = base
	}
	return true, true
}

// passes evaluates conditions; one that cannot be evaluated counts as
// passed (a bounds check on an unknown size holds for full warps).
func passes(conds []symbolic.Func, vals *symbolic.Values) bool {
	for _, c := range conds {
		if v, ok := c(vals); ok && v == 0 {
			return false
		}
	}
	return true
}

func mentionsThread(e symbolic.Expr) bool {
	for _, s := range threadSyms {
		if symbolic.Mentions(e, s) {
			return true
		}
	}
	return false
}

// setupAffine detects addresses of the form base + cx*tx + cy*ty + cz*tz
// with constant c and precomputes each warp's lane offsets.
func (m *warpModel) setupAffine(addr symbolic.Expr) {
	var c [3]int64
	zero := map[symbolic.SymID]symbolic.Expr{}
	for d, s := range threadSyms {
		coeff, ok := symbolic.Coefficient(addr, s)
		if !ok {
			return
		}
		v, ok := symbolic.IsConst(coeff)
		if !ok {
			return
		}
		c[d] = v
		zero[s] = symbolic.Const(0)
	}
	m.affine = true
	m.baseExpr = symbolic.Subst(addr, zero)
	m.base = m.compile(m.baseExpr)
	m.coef = c
	m.warpShape = make([]int, m.warps())
	shapes := map[[32]int64]int{}
	m.warpFirst = make([]int64, m.warps())
	for w := range m.warpShape {
		var rel [32]int64
		m.laneOffsets(int64(w), &rel)
		m.warpFirst[w] = rel[0]
		for lane := 31; lane >= 0; lane-- {
			rel[lane] -= rel[0]
		}
		id, ok := shapes[rel]
		if !ok {
			id = len(shapes)
			shapes[rel] = id
		}
		m.warpShape[w] = id
	}
	m.fullWarp = make([]int32, int64(len(shapes))*m.period)
}

// laneOffsets fills off with the offsets of warp w's 32 lanes, stepping
// the thread index instead of dividing for each lane.
func (m *warpModel) laneOffsets(w int64, off *[32]int64) {
	bx, by := m.block[0], m.block[1]
	tid := w * 32
	x, y, z := tid%bx, (tid/bx)%by, tid/(bx*by)
	for lane := range off {
		off[lane] = m.coef[0]*x + m.coef[1]*y + m.coef[2]*z
		if x++; x == bx {
			x = 0
			if y++; y == by {
				y = 0
				z++
			}
		}
	}
}

type memoKey struct {
	warp int64
	mask uint32
	rem  int64
}

// cost is one memory instruction's sectors, ideal and Nsight ideal, and 1
// when a lane is misaligned.
type cost [4]int

// costs returns the cost of each piece of the current request.
func (m *warpModel) costs(w int64) []cost {
	var key memoKey
	slot := -1 // the full-warp table's entry, when the mask is full
	if m.affine {
		key = memoKey{warp: int64(m.warpShape[w]), mask: m.mask, rem: mod(m.baseVal+m.warpFirst[w], m.period)}
		if m.mask == ^uint32(0) {
			slot = int(key.warp*m.period + key.rem)
			if i := m.fullWarp[slot]; i > 0 {
				return m.memoCosts[int(i)-1 : int(i)-1+len(m.pieces)]
			}
		} else if c, ok := m.memo[key]; ok {
			return c
		}
	}
	if m.affine {
		m.fillLanes(w)
	}
	// Memoised costs live in one growing array; unmemoised ones in a
	// scratch the caller reads before the next request.
	var out []cost
	if m.affine {
		n := len(m.memoCosts)
		m.memoCosts = append(m.memoCosts, make([]cost, len(m.pieces))...)
		out = m.memoCosts[n:len(m.memoCosts):len(m.memoCosts)]
	} else {
		if cap(m.scratch) < len(m.pieces) {
			m.scratch = make([]cost, len(m.pieces))
		}
		out = m.scratch[:len(m.pieces)]
	}
	for i, pc := range m.pieces {
		if m.shared {
			n, ideal := m.bankConflicts(pc)
			out[i] = cost{n, ideal, n, m.misaligned(pc)}
			continue
		}
		s, id, n := m.sectors(pc)
		out[i] = cost{s, id, n, m.misaligned(pc)}
	}
	switch {
	case slot >= 0:
		m.fullWarp[slot] = int32(len(m.memoCosts) - len(m.pieces) + 1)
	case m.affine:
		if m.memo == nil {
			m.memo = map[memoKey][]cost{}
		}
		m.memo[key] = out
	}
	return out
}

func (m *warpModel) anyActive() bool { return m.mask != 0 }

// misaligned is 1 when an active lane's address for piece pc is not a
// multiple of the piece's width (for widths that are powers of two).
func (m *warpModel) misaligned(pc [2]int64) int {
	width := pc[1]
	if width&(width-1) != 0 {
		return 0
	}
	for lane := 0; lane < 32; lane++ {
		if m.mask&(1<<lane) != 0 && mod(m.lanes[lane]+pc[0], width) != 0 {
			return 1
		}
	}
	return 0
}

// bankConflicts counts the wavefronts of a shared-memory request: shared
// memory has 32 banks of 4-byte words, a bank serves one word per
// wavefront, and lanes reading the same word share it. Accesses wider than
// 4 bytes are served in phases of 128 bytes (16 lanes of 8 bytes, 8 of
// 16), each taking as many wavefronts as its busiest bank. Nsight
// Compute's "L1 Conflicts Shared N-Way" is this count: contiguous doubles
// measure 2, doubles two apart 4. It returns the count and the ideal (one
// wavefront per phase that has an active lane).
func (m *warpModel) bankConflicts(pc [2]int64) (int, int) {
	lanesPerPhase := 32
	if pc[1] > 4 {
		lanesPerPhase = int(max(1, 128/pc[1]))
	}
	total, ideal := 0, 0
	var buf [64]int64 // a phase touches at most 128 bytes: 32 words
	for start := 0; start < 32; start += lanesPerPhase {
		words := buf[:0]
		for lane := start; lane < min(32, start+lanesPerPhase); lane++ {
			if m.mask&(1<<lane) == 0 {
				continue
			}
			for b := int64(0); b < pc[1]; b += 4 {
				words = append(words, (m.lanes[lane]+pc[0]+b)>>2)
			}
		}
		if len(words) == 0 {
			continue
		}
		// The wavefronts a phase takes are the most distinct words any
		// one bank holds.
		slices.Sort(words)
		var perBank [32]int
		worst := 0
		for i, w := range words {
			if i > 0 && w == words[i-1] {
				continue // lanes reading one word share it (broadcast)
			}
			bank := mod(w, 32)
			perBank[bank]++
			worst = max(worst, perBank[bank])
		}
		total += worst
		ideal++
	}
	return max(total, 1), max(ideal, 1)
}

func mod(x, m int64) int64 { return ((x % m) + m) % m }

// validMask is the lanes of warp w that exist (the last warp of a block
// whose size is not a multiple of 32 is partial).
func (m *warpModel) validMask(w int64) uint32 {
	n := min(32, m.block.Threads()-w*32)
	if n >= 32 {
		return ^uint32(0)
	}
	return 1<<uint(n) - 1
}

func (m *warpModel) fillLanes(w int64) {
	m.laneOffsets(w, &m.lanes)
	for lane := range m.lanes {
		m.lanes[lane] += m.baseVal
	}
}

// warpAddresses are the current request's lanes' byte addresses, -1 for
// a lane that takes no part; so the addresses are moved, all by
// one multiple of 1024 bytes, to start at 0 or after: an address below
// the base (col2im's coefficients, 1 - stride * height_col * width_col,
// are negative) is a lane's all the same, and its place within a sector
// or a line is kept.
func (m *warpModel) warpAddresses() []int64 {
	out := make([]int64, 32)
	low := int64(0)
	for i := range out {
		if m.mask&(1<<i) != 0 {
			low = min(low, m.lanes[i])
		}
	}
	shift := int64(0)
	if low < 0 {
		shift = (-low + 1023) / 1024 * 1024
	}
	for i := range out {
		out[i] = -1
		if m.mask&(1<<i) != 0 {
			out[i] = m.lanes[i] + shift
		}
	}
	return out
}

// sectors counts the distinct 32-byte sectors the active lanes touch for
// one piece (offset, size) of the access, the fewest sectors that could
// hold the distinct bytes they need, and Nsight Compute's ideal.
func (m *warpModel) sectors(pc [2]int64) (int, int, int) {
	var secs [64]int64
	var spans [32][2]int64
	ns, nspan := 0, 0
	// Lanes mostly come in address order; the sorts are then skipped.
	secsSorted, spansSorted := true, true
	for lane := 0; lane < 32; lane++ {
		if m.mask&(1<<lane) == 0 {
			continue
		}
		lo := m.lanes[lane] + pc[0]
		hi := lo + pc[1] // exclusive
		if nspan > 0 && lo < spans[nspan-1][0] {
			spansSorted = false
		}
		spans[nspan] = [2]int64{lo, hi}
		nspan++
		for s := lo >> 5; s <= (hi-1)>>5 && ns < len(secs); s++ {
			if ns > 0 && s < secs[ns-1] {
				secsSorted = false
			}
			secs[ns] = s
			ns++
		}
	}
	list := secs[:ns]
	if !secsSorted {
		slices.Sort(list)
	}
	distinct := 0
	for i := range list {
		if i == 0 || list[i] != list[i-1] {
			distinct++
		}
	}
	sp := spans[:nspan]
	if !spansSorted {
		slices.SortFunc(sp, func(a, b [2]int64) int { return cmp.Compare(a[0], b[0]) })
	}
	var bytes, end int64 = 0, -1 << 62
	for _, s := range sp {
		lo := max(s[0], end)
		if s[1] > lo {
			bytes += s[1] - lo
		}
		end = max(end, s[1])
	}
	ncuIdeal := min(distinct, int((int64(nspan)*pc[1]+SectorBytes-1)/SectorBytes))
	return distinct, int((bytes + SectorBytes - 1) / SectorBytes), ncuIdeal
}

// neverEntered: one of a's loops has a condition the same for every
// thread that fails at its first iteration.
func neverEntered(a *interp.Access, loops []symbolic.Expr) bool {
	for i, c := range loops {
		if c == nil || mentionsThreadOrBlock(c) {
			continue
		}
		first := symbolic.Subst(c, map[symbolic.SymID]symbolic.Expr{a.Loops[i].Iter: symbolic.Const(0)})
		if v, ok := symbolic.IsConst(first); ok && v == 0 {
			return true
		}
	}
	return false
}
