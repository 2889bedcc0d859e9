package impact

import (
	"math"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/warp"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/rules/lint"
)

// A loop whose trip count the code does not give (its bounds are loaded:
// for (f = first[n]; f < first[n] + count[n]; f++)) is priced at the
// model's 8 iterations. A finding inside it is worth more the longer the
// loop runs; a finding after it less: pytorch3d's naive rasterizer walks
// every face of a mesh for every pixel, and the three stores after the
// walk claimed 12 to 14% of a kernel they are a sliver of. A share that
// holds only if such a loop is short is no ground for a warning: the
// finding is priced again with the kernel's other loops of unknown trip
// count at LongerLoops times the assumed iterations, the loops around
// the finding as they were, and it must keep MinShare there too.

// LongerLoops is how many times the assumed iterations the loops of
// unknown trip count that do not enclose a finding run in the second
// pricing: 256 iterations, the faces of the raster256 pair
// (testdata/truth/timing), whose store after the walk measured 1.00x its
// coalesced twin; a modest count for a loop over the faces, neighbours
// or non-zeros of a data structure.
const LongerLoops = 32

// unknownLoops are the positions of the loops around p whose trip count
// the model assumed (warp.TripUnknown), outermost first.
func unknownLoops(p *analyzer.Prediction) []parser.Pos {
	var out []parser.Pos
	for _, l := range p.Access.Loops {
		if tripUnknown(p, l) {
			out = append(out, l.Pos)
		}
	}
	return out
}

// tripUnknown: the model assumed loop l's trip count for p. The
// assumption names the loop by its line; among p's own loops that is
// the loop.
func tripUnknown(p *analyzer.Prediction, l *interp.Loop) bool {
	for _, a := range p.Assumptions {
		if a.Kind == warp.TripUnknown && a.Line == int(l.Pos.Line) {
			return true
		}
	}
	return false
}

// loopSet is a set of loops by position.
type loopSet map[parser.Pos]bool

func setOf(loops []parser.Pos) loopSet {
	s := loopSet{}
	for _, l := range loops {
		s[l] = true
	}
	return s
}

// longerFactor is how many times more often code inside the given loops
// runs when the unknown loops that are not the finding's own run
// LongerLoops times longer.
func longerFactor(loops []parser.Pos, unknown, own loopSet) float64 {
	f := 1.0
	for _, l := range loops {
		if unknown[l] && !own[l] {
			f *= LongerLoops
		}
	}
	return f
}

func loopsOf(p *analyzer.Prediction) []parser.Pos {
	out := make([]parser.Pos, len(p.Access.Loops))
	for i, l := range p.Access.Loops {
		out[i] = l.Pos
	}
	return out
}

// kernelUnknownLoops are the loops of unknown trip count in p's kernel
// under p's launch: those a prediction assumed the trips of, and those
// around only accesses whose address depends on data, which the kernel's
// cost runs the model's 8 times for want of a count (places.at).
func (c *Costs) kernelUnknownLoops(key costKey) loopSet {
	if s, ok := c.unknown[key]; ok {
		return s
	}
	counted := loopSet{} // loops around an access with requests of its own
	for _, q := range c.preds[key] {
		if q.Known && !q.NoLane {
			for _, l := range q.Access.Loops {
				counted[l.Pos] = true
			}
		}
	}
	s, trips := loopSet{}, c.places[key].trips
	for _, q := range c.preds[key] {
		for _, l := range unknownLoops(q) {
			s[l] = true
		}
		if q.Known {
			continue
		}
		for _, l := range q.Access.Loops {
			if !counted[l.Pos] && trips[l.Pos] == 0 {
				s[l.Pos] = true
			}
		}
	}
	c.unknown[key] = s
	return s
}

// longer prices the fix of p (and the accesses it covers) a second time,
// the kernel's unknown loops that do not enclose p run LongerLoops times
// longer; nil when there is no such loop. The loop it names is the first
// of them in the kernel's accesses.
func (c *Costs) longer(p *analyzer.Prediction, fixed []*analyzer.Prediction) *lint.Longer {
	key := keyOf(p)
	unknown := c.kernelUnknownLoops(key)
	if len(unknown) == 0 {
		return nil
	}
	own := setOf(loopsOf(p))
	scaled := c.otherLoops(key, own)
	if len(scaled) == 0 {
		return nil
	}
	k := KernelCost{Spread: c.kernels[key].Spread, Unsized: c.kernels[key].Unsized}
	factor := func(q *analyzer.Prediction) float64 { return longerFactor(loopsOf(q), unknown, own) }
	for _, q := range c.preds[key] {
		c.addScaledTerm(&k, q, factor(q))
	}
	if base := c.kernels[key]; base.LoadsPerWarp > 0 { // the waits, scaled: per warp as the kernel's are
		k.LoadsPerWarp = base.LoadsPerWarp * c.scaledLoadRequests(c.preds[key], factor) / c.loadRequests(c.preds[key])
	}
	k.Instructions = c.longerInstructions(key, unknown, own)
	var ex Excess
	for _, q := range fixed {
		ex = ex.plus(c.excess(q).times(longerFactor(loopsOf(q), unknown, own)))
	}
	ex = ex.clamped()
	imp := New(k, ex, true)
	return &lint.Longer{Share: imp.Share, EstimatedSpeedup: imp.EstimatedSpeedup, Loop: scaled[0], Scaled: scaled, Trips: warp.AssumedTrips,
		Factor: LongerLoops, KernelDRAMSectors: k.DRAM, KernelL1Wavefronts: k.L1, KernelInstructions: k.Instructions,
		ExcessDRAMSectors: ex.DRAM, ExcessL1Wavefronts: ex.L1}
}

// otherLoops are the loops of unknown trip count in the kernel's
// accesses that are not one of own, in the order the accesses meet them.
func (c *Costs) otherLoops(key costKey, own loopSet) []parser.Pos {
	unknown := c.kernelUnknownLoops(key)
	var out []parser.Pos
	seen := loopSet{}
	for _, q := range c.preds[key] {
		for _, l := range q.Access.Loops {
			if unknown[l.Pos] && !own[l.Pos] && !seen[l.Pos] {
				seen[l.Pos] = true
				out = append(out, l.Pos)
			}
		}
	}
	return out
}

// longerInstructions are the kernel's instructions per launch with the
// unknown loops other than own run LongerLoops times longer.
func (c *Costs) longerInstructions(key costKey, unknown, own loopSet) float64 {
	ps := c.preds[key]
	code, pl := c.code[ps[0].Access.Kernel], c.places[key]
	total := 0.0
	for lk, n := range code.ops {
		total += n * pl.at(lk) * longerFactor(lk.loops[:lk.depth], unknown, own)
	}
	for _, q := range ps {
		if !q.NoLane {
			total += c.requests(q) * longerFactor(loopsOf(q), unknown, own)
		}
	}
	return total
}

// times scales an excess by f.
func (e Excess) times(f float64) Excess {
	return Excess{e.Sectors * f, e.Wavefronts * f, e.DRAM * f, e.L1 * f}
}

func (e Excess) plus(o Excess) Excess {
	return Excess{e.Sectors + o.Sectors, e.Wavefronts + o.Wavefronts, e.DRAM + o.DRAM, e.L1 + o.L1}
}

// clamped is the excess with each term at zero or more.
func (e Excess) clamped() Excess {
	return Excess{math.Max(e.Sectors, 0), math.Max(e.Wavefronts, 0), math.Max(e.DRAM, 0), math.Max(e.L1, 0)}
}
