package impact

import (
	"maps"
	"slices"
	"strings"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/analyzer/warp"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/policy"
	"github.com/cudalint/cudalint/symbolic"
)

// A kernel's share says nothing of the kernels launched beside it. A
// host function that launches a small set-up or merge step and then the
// kernel doing the work (cuda-samples' histogram64 merging its partial
// histograms, Rodinia's gaussian launching Fan1 before Fan2 at every
// step, lud's perimeter beside its interior) runs both each time it
// runs: a fix of the small one saves its share of the small one's time,
// a sliver of the function's. So a finding is also priced against the
// kernels its launch's host function starts with it: the launches in
// that function that are not in another arm of an if or a switch (the
// alternatives of a dispatch run one at a time), at the launch
// configurations the analysis gave them. Where the code does not give
// every size of every one of them, each kernel was priced on a guess of
// its own (gaussian's Fan1, one-dimensional, at the assumed 64 blocks,
// outweighed the two-dimensional Fan2 at 64x64): their times compare
// only at one set of sizes. So each launch's grid is worked out again
// from its expression with every size the code leaves open at the value
// parameters are assumed to have (warp.AssumedValue: Fan1's Size / 512
// + 1 is 9 blocks, Fan2's (Size / 4 + 1)^2 over a million), and its time
// scaled to that grid from the one it was priced at. A kernel whose code
// reads gridDim (a grid-stride loop does the same work on any grid) or
// a grid that does not work out leaves the group unpriced, as before.

// launcherGroup is a host function's launches that run together with
// one of them, and their kernels' time per launch.
type launcherGroup struct {
	function string
	seconds  float64 // all of the group's launches
	heaviest string  // the kernel of the group's longest launch
	heavy    float64 // that launch's seconds
	// scaled: some size is assumed, and each launch's time is at the
	// blocks its grid has with every open size at its assumed value.
	scaled bool
	blocks map[parser.Pos]float64
}

// Sites are the kernels' times per launch site, gathered over the passes
// of a run (Add: one pass, or each part of a streamed one), which
// Launcher prices findings against once they are all in.
type Sites struct {
	times   map[parser.Pos][]float64 // each configuration's seconds
	kernel  map[parser.Pos]string
	assumed map[parser.Pos]bool
	// assumed: some launch there is priced at sizes the code does not
	// give (an assumed grid of 64x64x4 for a one-dimensional kernel, a
	// trip count of 8): its time is no measure beside another kernel's.
	groups map[parser.Pos]*launcherGroup
	sites  map[parser.Pos]*launch.Site // the program's launches by position, made when first asked
	// blocks are the blocks each site's configurations were priced at,
	// in the order of times; gridRead: some kernel launched there reads
	// gridDim, so its time does not scale with its grid.
	blocks   map[parser.Pos][]float64
	gridRead map[parser.Pos]bool
}

// NewSites makes an empty set of site times.
func NewSites() *Sites {
	return &Sites{times: map[parser.Pos][]float64{}, kernel: map[parser.Pos]string{}, assumed: map[parser.Pos]bool{},
		groups: map[parser.Pos]*launcherGroup{}, blocks: map[parser.Pos][]float64{}, gridRead: map[parser.Pos]bool{}}
}

// Add gathers the times of the kernels of one pass, each under each of
// its launch configurations, by the site that launches it.
func (s *Sites) Add(c *Costs) {
	if s == nil || c == nil {
		return
	}
	seen := map[costKey]bool{}
	for _, p := range c.res.Analysis.Predictions {
		key := keyOf(p)
		if key.config.BlockSource != launch.FromLaunch {
			continue
		}
		at := key.config.At
		s.assumed[at] = s.assumed[at] || sizeAssumed(p)
		s.gridRead[at] = s.gridRead[at] || readsGridDim(p)
		if seen[key] {
			continue
		}
		seen[key] = true
		// Without the start-up, as the parts were measured (ncu's duration
		// of each launch; in a stream the launches' start-ups overlap).
		s.times[at] = append(s.times[at], c.kernels[key].BusySeconds())
		g := key.config.Grid
		s.blocks[at] = append(s.blocks[at], float64(g[0]*g[1]*g[2]))
		s.kernel[at] = p.Access.Kernel.Name
	}
	clear(s.groups)
}

// seconds is the site's time over its configurations, summed in an
// order that does not depend on the passes': a streamed run adds the
// same terms in other orders.
func (s *Sites) seconds(at parser.Pos) float64 { return s.scaledSeconds(at, 0) }

// scaledSeconds is seconds with each configuration's time scaled from
// the blocks it was priced at to blocks (0: as priced).
func (s *Sites) scaledSeconds(at parser.Pos, blocks float64) float64 {
	ts := slices.Clone(s.times[at])
	if blocks > 0 {
		for i := range ts {
			if b := s.blocks[at][i]; b > 0 {
				ts[i] *= blocks / b
			}
		}
	}
	slices.Sort(ts)
	total := 0.0
	for _, t := range ts {
		total += t
	}
	return total
}

// Launcher prices imp, the impact of a finding of p, against the launches
// its host function runs with p's (prog's launches say where each is):
// nil when there are none beside it, or their times do not compare.
func (s *Sites) Launcher(prog *launch.Program, p *analyzer.Prediction, imp *lint.Impact) *lint.Launcher {
	cfg := p.Config
	if s == nil || imp == nil || cfg.BlockSource != launch.FromLaunch {
		return nil
	}
	g := s.group(prog, cfg.At)
	if g == nil {
		return nil
	}
	own, saved := s.seconds(cfg.At), imp.SavedSeconds
	if g.scaled {
		priced := own
		own = s.scaledSeconds(cfg.At, g.blocks[cfg.At])
		if priced > 0 {
			saved *= own / priced
		}
	}
	if own == 0 || g.seconds <= own {
		return nil
	}
	// The time the fix saves over the launches' time: the start-ups,
	// which the parts leave out, are saved by no fix.
	return &lint.Launcher{Function: g.function, Part: round(own / g.seconds), Share: round(saved / g.seconds), Heaviest: g.heaviest}
}

// group is the launches that run with the one at site.
func (s *Sites) group(prog *launch.Program, site parser.Pos) *launcherGroup {
	if g, ok := s.groups[site]; ok {
		return g
	}
	var g *launcherGroup
	if s.sites == nil {
		s.sites = sitesOf(prog)
	}
	sites := s.sites
	if fn := hostFunc(prog, sites, site); fn != nil {
		g = &launcherGroup{function: fn.Name, blocks: map[parser.Pos]float64{}}
		path := branchPath(fn.Body, site)
		var members []parser.Pos
		for _, pos := range s.ordered() {
			if pos.File == site.File && hostFunc(prog, sites, pos) == fn && together(path, branchPath(fn.Body, pos)) {
				members = append(members, pos)
				g.scaled = g.scaled || s.assumed[pos]
			}
		}
		for _, pos := range members {
			t := s.seconds(pos)
			if g.scaled {
				b, ok := assumedBlocks(sites[pos])
				if !ok || s.gridRead[pos] {
					g = nil // a time that does not scale to the common sizes: no comparison
					break
				}
				g.blocks[pos] = b
				t = s.scaledSeconds(pos, b)
			}
			g.seconds += t
			if t > g.heavy || t == g.heavy && s.kernel[pos] < g.heaviest {
				g.heavy, g.heaviest = t, s.kernel[pos]
			}
		}
	}
	s.groups[site] = g
	return g
}

// assumedBlocks is the blocks site's grid has with every size it is
// written in that the code leaves open at warp.AssumedValue, as the
// kernels' parameters are assumed, in the first iteration of the host
// loops around it (lud's perimeter and interior shrink with the loop's
// step alike: (matrix_dim - 16 i) / 16 - 1 blocks of each, the
// interior's squared): false when it does not work out.
func assumedBlocks(site *launch.Site) (float64, bool) {
	if site == nil {
		return 0, false
	}
	total := 1.0
	for _, e := range site.Grid {
		if e == nil {
			continue
		}
		bind := map[symbolic.SymID]int64{}
		symbolic.Symbols(e, func(v *symbolic.Var) {
			bind[v.Key()] = warp.AssumedValue
			if v.Kind == symbolic.KindLoopIter {
				bind[v.Key()] = 0 // a host loop's first iteration
			}
		})
		n, ok := symbolic.Eval(e, bind)
		if !ok || n <= 0 {
			return 0, false
		}
		total *= float64(n)
	}
	return total, true
}

// readsGridDim: p's address, guards or loops read gridDim, so its
// kernel's work per block depends on the grid (a grid-stride loop).
func readsGridDim(p *analyzer.Prediction) bool {
	found := false
	check := func(e symbolic.Expr) {
		if e != nil {
			symbolic.Symbols(e, func(v *symbolic.Var) { found = found || v.Kind == symbolic.KindGridDim })
		}
	}
	a := p.Access
	check(a.Addr)
	for _, g := range a.Guards {
		check(g)
	}
	for _, l := range a.Loops {
		check(l.Cond)
	}
	return found
}

// ordered are the sites by position.
func (s *Sites) ordered() []parser.Pos {
	out := slices.Collect(maps.Keys(s.times))
	slices.SortFunc(out, func(a, b parser.Pos) int {
		if a.File != b.File {
			return strings.Compare(a.File, b.File)
		}
		return int(a.Offset) - int(b.Offset)
	})
	return out
}

// sitesOf indexes prog's launches by position.
func sitesOf(prog *launch.Program) map[parser.Pos]*launch.Site {
	out := map[parser.Pos]*launch.Site{}
	for _, s := range prog.Launches {
		out[s.Pos] = s
	}
	return out
}

// sizeAssumed: p's requests per launch rest on a size the code does not
// give: a parameter, the grid, the block, a trip count, a layout. (An
// address that depends on data does not: it is priced at its least,
// as often as its place runs, which the sizes fix.)
func sizeAssumed(p *analyzer.Prediction) bool {
	for _, a := range p.Assumptions {
		switch a.Kind {
		case warp.AssumedParam, warp.AssumedGrid, warp.TripUnknown, warp.TripCapped:
			return true
		}
	}
	c := p.Config
	return p.Access.Guessed || len(accesses.AssumedStride(p)) > 0 || c.GridKnown != [3]bool{true, true, true} || policy.GuessedBlock(c)
}

// hostFunc is the host function whose body holds the launch at site:
// the last function the interpreter went through to reach it.
func hostFunc(prog *launch.Program, sites map[parser.Pos]*launch.Site, site parser.Pos) *parser.Func {
	s := sites[site]
	if s == nil || len(s.Via) == 0 {
		return nil
	}
	var best *parser.Func
	for _, fn := range prog.FuncsNamed(s.Via[len(s.Via)-1]) {
		if fn.Body == nil || fn.Global || fn.P.File != site.File || fn.P.Offset > site.Offset {
			continue
		}
		if best == nil || fn.P.Offset > best.P.Offset {
			best = fn
		}
	}
	return best
}

// arm is one conditional or loop around a launch and which part of it
// holds the launch: 0 the condition, 1 the then branch, 2 the else
// branch; for a switch, how many case labels come before the launch in
// its body; inLoop for a loop's body.
type arm struct {
	stmt parser.Stmt
	arm  int
}

const inLoop = -1

// branchPath is the conditionals around pos in body, outermost first.
// Statements know only where they start: the one holding pos is the
// last to start before it.
func branchPath(body *parser.Block, pos parser.Pos) []arm {
	var path []arm
	var s parser.Stmt = body
	for s != nil {
		switch x := s.(type) {
		case *parser.Block:
			s = lastBefore(x.Stmts, pos)
		case *parser.If:
			switch {
			case x.Else != nil && before(x.Else, pos):
				path, s = append(path, arm{x, 2}), x.Else
			case x.Then != nil && before(x.Then, pos):
				path, s = append(path, arm{x, 1}), x.Then
			default:
				return path
			}
		case *parser.Switch:
			b, ok := x.Body.(*parser.Block)
			if !ok {
				return path
			}
			labels, inner := 0, parser.Stmt(nil)
			for _, st := range b.Stmts {
				if !before(st, pos) {
					break
				}
				if _, ok := st.(*parser.Case); ok {
					labels++
				}
				inner = st
			}
			path, s = append(path, arm{x, labels}), inner
		case *parser.For:
			path, s = append(path, arm{x, inLoop}), x.Body
		case *parser.While:
			path, s = append(path, arm{x, inLoop}), x.Body
		default:
			return path
		}
	}
	return path
}

// lastBefore is the last of stmts that starts at or before pos.
func lastBefore(stmts []parser.Stmt, pos parser.Pos) parser.Stmt {
	var last parser.Stmt
	for _, st := range stmts {
		if !before(st, pos) {
			break
		}
		last = st
	}
	return last
}

func before(s parser.Stmt, pos parser.Pos) bool {
	p := s.Start()
	return p.File == pos.File && p.Offset <= pos.Offset
}

// together: the launches on paths a and b run as often as each other,
// each time the function runs: in the same loops, and not in different
// arms of one conditional. (A set-up kernel launched once before a loop
// of a hundred launches of another is weighed once beside one launch of
// it: the host interpreter does not count repeats of one configuration.
// bitonicSort's shared merge step, inside the loops over sizes, weighed
// 0.78 of the function against 0.21 measured.)
func together(a, b []arm) bool { return !exclusive(a, b) && sameLoops(a, b) }

func sameLoops(a, b []arm) bool {
	loops := func(p []arm) []parser.Stmt {
		var out []parser.Stmt
		for _, x := range p {
			if x.arm == inLoop {
				out = append(out, x.stmt)
			}
		}
		return out
	}
	return slices.Equal(loops(a), loops(b))
}

// exclusive: the launches on paths a and b are in different arms of one
// conditional, so one runs without the other.
func exclusive(a, b []arm) bool {
	for _, x := range a {
		for _, y := range b {
			if x.stmt == y.stmt && x.arm != y.arm {
				return true
			}
		}
	}
	return false
}
