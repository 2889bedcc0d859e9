package impact

import (
	"slices"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/analyzer/warp"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/policy"
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
// configurations the analysis gave them. Only where the code gives every
// size of every one of them: kernels priced at assumed sizes are priced
// each on its own guess (gaussian's Fan1, one-dimensional, at the
// assumed 64x64x4 grid, outweighed the two-dimensional Fan2), and their
// times do not compare.

// launcherGroup is a host function's launches that run together with
// one of them, and their kernels' time per launch.
type launcherGroup struct {
	function string
	seconds  float64 // all of the group's launches
	heaviest string  // the kernel of the group's longest launch
	heavy    float64 // that launch's seconds
}

// launchers indexes, per launch site, the kernels' time of the pass.
type launchers struct {
	siteSeconds map[parser.Pos]float64
	siteKernel  map[parser.Pos]string
	// siteAssumed: some launch there is priced at sizes the code does not
	// give (an assumed grid of 64x64x4 for a one-dimensional kernel, a
	// trip count of 8): its time is no measure beside another kernel's.
	siteAssumed map[parser.Pos]bool
	sites       map[parser.Pos]*launch.Site
	funcs       funcsNamed
	groups      map[parser.Pos]*launcherGroup
	order       []parser.Pos // the sites, each once, in the pass's order
}

func (c *Costs) launchersOf() *launchers {
	if c.launch != nil {
		return c.launch
	}
	l := &launchers{siteSeconds: map[parser.Pos]float64{}, siteKernel: map[parser.Pos]string{}, siteAssumed: map[parser.Pos]bool{}, sites: map[parser.Pos]*launch.Site{},
		funcs: funcsNamed(c.res.Analysis.Program.FuncsNamed), groups: map[parser.Pos]*launcherGroup{}}
	seen := map[costKey]bool{}
	for _, p := range c.res.Analysis.Predictions { // in the pass's order: sums that do not depend on a map's
		key := keyOf(p)
		if key.config.BlockSource != launch.FromLaunch {
			continue
		}
		l.siteAssumed[key.config.At] = l.siteAssumed[key.config.At] || sizeAssumed(p)
		if seen[key] {
			continue
		}
		seen[key] = true
		if _, ok := l.siteSeconds[key.config.At]; !ok {
			l.order = append(l.order, key.config.At)
		}
		l.siteSeconds[key.config.At] += c.kernels[key].Seconds()
		l.siteKernel[key.config.At] = p.Access.Kernel.Name
	}
	for _, s := range c.res.Analysis.Program.Launches {
		l.sites[s.Pos] = s
	}
	c.launch = l
	return l
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

// group is the launches that run with the one at site.
func (l *launchers) group(site parser.Pos) *launcherGroup {
	if g, ok := l.groups[site]; ok {
		return g
	}
	var g *launcherGroup
	if fn := l.hostFunc(site); fn != nil {
		g = &launcherGroup{function: fn.Name}
		path := branchPath(fn.Body, site)
		for _, pos := range l.order {
			s := l.siteSeconds[pos]
			if pos.File != site.File || l.hostFunc(pos) != fn || !together(path, branchPath(fn.Body, pos)) {
				continue
			}
			if l.siteAssumed[pos] {
				g = nil // a kernel priced at assumed sizes: no comparison
				break
			}
			g.seconds += s
			if s > g.heavy || s == g.heavy && l.siteKernel[pos] < g.heaviest {
				g.heavy, g.heaviest = s, l.siteKernel[pos]
			}
		}
	}
	l.groups[site] = g
	return g
}

// hostFunc is the host function whose body holds the launch at site:
// the last function the interpreter went through to reach it.
func (l *launchers) hostFunc(site parser.Pos) *parser.Func {
	s := l.sites[site]
	if s == nil || len(s.Via) == 0 {
		return nil
	}
	var best *parser.Func
	for _, fn := range l.funcs(s.Via[len(s.Via)-1]) {
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

// launcher prices p's fix against the launches its host function runs
// with p's: nil when p's launch has none beside it.
func (c *Costs) launcher(p *analyzer.Prediction, imp lint.Impact) *lint.Launcher {
	cfg := p.Config
	if cfg.BlockSource != launch.FromLaunch {
		return nil
	}
	l := c.launchersOf()
	g := l.group(cfg.At)
	own := l.siteSeconds[cfg.At]
	if g == nil || own == 0 || g.seconds <= own {
		return nil
	}
	return &lint.Launcher{Function: g.function, Part: round(own / g.seconds), Share: round(imp.Share * own / g.seconds), Heaviest: g.heaviest}
}
