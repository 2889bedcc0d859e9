package impact

import (
	"math"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/warp"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/symbolic"
)

// dramPerRequest is what DRAM moves per request of p. A load whose lanes
// are a sector or more apart, in a loop that moves each lane's address by
// less than a sector per iteration, reads its own sector again in the
// next iterations: the L1 holds it, and DRAM moves each sector once. So
// the lane's sectors are paid once per 32 / step iterations (rowwalk_slow
// of testdata/truth/timing: 32 sectors per request, DRAM at its ideal).
//
// Warps of a block that read the same sectors (p.BlockReuse under 1: a
// gather of interleaved planes, the heads pair) are served by the L1
// too: DRAM moves the block's distinct sectors.
func dramPerRequest(p *analyzer.Prediction) float64 {
	a := p.Access
	if a.Op != interp.Load {
		return p.Sectors
	}
	factor := 1.0
	if p.BlockReuse > 0 {
		factor = p.BlockReuse
	}
	if step := ownSectorStep(a); step > 0 && p.LaneStride != nil && accesses.Abs(*p.LaneStride) >= warp.SectorBytes {
		factor = math.Min(factor, float64(step)/warp.SectorBytes)
	}
	return math.Max(p.Ideal, p.Sectors*factor)
}

// ownSectorStep is the smallest step, in bytes, by which an enclosing
// loop moves the address per iteration, when under a sector: 0 when no
// loop does.
func ownSectorStep(a *interp.Access) int64 {
	best := int64(0)
	for _, l := range a.Loops {
		c, ok := symbolic.Coefficient(a.Addr, l.Iter)
		d, isConst := symbolic.IsConst(c)
		if d = accesses.Abs(d); ok && isConst && d > 0 && d < warp.SectorBytes && (best == 0 || d < best) {
			best = d
		}
	}
	return best
}

// linesPerRequest is the L1 wavefronts a global request of p takes: one
// per 128-byte line its lanes touch, as many as its sectors when each lane
// has a line of its own, a quarter of them when lanes fill whole lines.
// The first request's lanes say which (lines over sectors); without them,
// lines are taken full.
func linesPerRequest(p *analyzer.Prediction) float64 {
	lines, sectors := map[int64]bool{}, map[int64]bool{}
	for _, addr := range p.Warp {
		if addr < 0 {
			continue
		}
		lines[addr/lineBytes] = true
		sectors[addr/warp.SectorBytes] = true
	}
	if len(sectors) == 0 {
		return idealLines(p.Sectors)
	}
	return math.Max(1, p.Sectors*float64(len(lines))/float64(len(sectors)))
}

// idealLines is the lines of a request that touches the given sectors
// packed: four to a line.
func idealLines(sectors float64) float64 {
	return math.Max(1, math.Ceil(sectors*warp.SectorBytes/lineBytes))
}
