package impact

import (
	"fmt"
	"math"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/warp"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/symbolic"
)

// dramPerRequest is what DRAM moves per request of p. A load in a loop
// that moves each lane's address by less than the sectors it touches
// reads them again in the next iterations: the L1 holds them, and DRAM
// moves each once (rowwalk_slow of testdata/truth/timing: a row per
// thread, 32 sectors a request, DRAM at its ideal; a pair of lanes
// reading 16 bytes of a row's sector and the next iteration the other
// 16, DRAM at half). Warps of a block that read the same sectors
// (p.BlockReuse under 1: a gather of interleaved planes, the heads pair)
// are served by the L1 too: DRAM moves the block's distinct sectors.
func dramPerRequest(p *analyzer.Prediction) float64 {
	a := p.Access
	if a.Op != interp.Load {
		return p.Sectors
	}
	factor := 1.0
	if p.BlockReuse > 0 {
		factor = p.BlockReuse
	}
	if step := ownSectorStep(a); step > 0 {
		factor = math.Min(factor, loopReuse(p, step))
	}
	return math.Max(p.Ideal, p.Sectors*factor)
}

// reuseIterations is how many iterations loopReuse follows the first
// request's lanes through.
const reuseIterations = 32

// loopReuse is the part of the sectors a request touches that are new to
// the L1: the first request's lanes followed through reuseIterations
// iterations of a loop stepping step bytes, the distinct sectors they
// touch over those the first touches, per iteration. 1 when nothing is
// read again.
func loopReuse(p *analyzer.Prediction, step int64) float64 {
	width := accesses.ElemBytes(p.Access)
	first, all := map[int64]bool{}, map[int64]bool{}
	for _, addr := range p.Warp {
		if addr < 0 {
			continue
		}
		for j := int64(0); j < reuseIterations; j++ {
			x := addr + j*step
			for s := warp.FloorDiv(x, warp.SectorBytes); s <= warp.FloorDiv(x+width-1, warp.SectorBytes); s++ {
				all[s] = true
				if j == 0 {
					first[s] = true
				}
			}
		}
	}
	if len(first) == 0 {
		return 1
	}
	return math.Min(1, float64(len(all))/reuseIterations/float64(len(first)))
}

// L1Serves reports whether DRAM moves fewer of p's sectors than its
// requests touch: the lanes' later iterations, or other warps of the
// block, read them again from the L1.
func L1Serves(p *analyzer.Prediction) bool {
	return p.Known && p.Access.Space == interp.Global && dramPerRequest(p) < p.Sectors-0.01
}

// Cost says how a request's excess costs, in a message: "each request
// moves 8.0x the bytes it uses", or where the L1 serves the rest, "each
// request touches 8.0x the sectors it uses, the rest of which the L1
// serves to later iterations or other warps (L1 time more than DRAM
// bytes)".
func Cost(p *analyzer.Prediction) string {
	if L1Serves(p) {
		return fmt.Sprintf("each request touches %.1fx the sectors it uses, the rest of which the L1 serves to later iterations or other warps (L1 time more than DRAM bytes)", p.Sectors/p.Ideal)
	}
	return fmt.Sprintf("each request moves %.1fx the bytes it uses", p.Sectors/p.Ideal)
}

// ownSectorStep is the smallest step, in bytes, by which an enclosing
// loop moves the address per iteration, when under a sector: 0 when no
// loop does (a step of a sector or more reads new sectors each time).
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
		lines[warp.FloorDiv(addr, lineBytes)] = true
		sectors[warp.FloorDiv(addr, warp.SectorBytes)] = true
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
