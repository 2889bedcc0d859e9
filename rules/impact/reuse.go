package impact

import (
	"fmt"
	"math"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/ctype"
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
	if gridUniform(a) {
		return 0
	}
	factor := 1.0
	if p.BlockReuse > 0 {
		factor = p.BlockReuse
	}
	if step := ownSectorStep(a); step > 0 {
		factor = math.Min(factor, loopReuse(p, step))
	}
	factor = math.Min(factor, pieceReuse(p))
	return math.Max(p.Ideal, p.Sectors*factor)
}

// pieceReuse is the part of the sectors a request of one piece of a
// value loaded in pieces (a float3 as three 4-byte loads) touches that
// the value's earlier pieces did not: a record of 36 bytes a lane loaded
// 4 bytes at a time touches the same 36 sectors with each piece, and DRAM
// moves them once. Measured on the first request's lanes; 1 for a value
// of one piece.
func pieceReuse(p *analyzer.Prediction) float64 {
	pieces := ctype.Pieces(p.Access.Type)
	if len(pieces) < 2 {
		return 1
	}
	union := map[int64]bool{}
	sum := 0
	for _, pc := range pieces {
		own := map[int64]bool{}
		for _, addr := range p.Warp {
			if addr < 0 {
				continue
			}
			x := addr + pc[0]
			for s := warp.FloorDiv(x, warp.SectorBytes); s <= warp.FloorDiv(x+pc[1]-1, warp.SectorBytes); s++ {
				own[s] = true
				union[s] = true
			}
		}
		sum += len(own)
	}
	if sum == 0 {
		return 1
	}
	return math.Min(1, float64(len(union))/float64(sum))
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
// bytes)", or for a record each thread reads or writes whole, that its
// other accesses use the rest.
func Cost(res *accesses.Result, p *analyzer.Prediction) string {
	ratio := p.Sectors / p.Ideal
	rec := res.Record(p)
	if rec != nil && rec.Unmerged > 0 && rec.Unmerged < 1 {
		return fmt.Sprintf("each request writes %.1fx the sectors it uses; each thread writes its whole %s, but at %d bytes a lane the L2 merges only part of the writes into each sector (all of them up to 16 bytes a lane, none from 32): about %.0f%% of the excess costs L2 write sectors, not DRAM bytes",
			ratio, recordParts(rec), rec.Bytes, 100*rec.Unmerged)
	}
	if rec != nil && rec.Interleaved {
		return fmt.Sprintf("each request writes %.1fx the sectors it uses, %s: the thread writes its whole %s, but it reads the array between the stores, so the SM merges none of them: DRAM moves each sector once, but the L2 takes each lane's partial write apart (up to %.1fx the L2 write sectors)",
			ratio, laneBytesText(p), recordParts(rec), ratio)
	}
	if rec != nil && rec.Unmerged >= 1 || rec == nil && fillsOwnSectors(p) {
		return fmt.Sprintf("each request writes %.1fx the sectors it uses, %s: the thread's other stores fill those sectors, so DRAM moves each once, but the L2 takes each lane's partial write apart (up to %.1fx the L2 write sectors, not more DRAM bytes)",
			ratio, laneBytesText(p), ratio)
	}
	if rec != nil {
		verb, serves := "reads", "the L1 serves the rest"
		if p.Access.Op == interp.Store {
			verb, serves = "writes", "the L2 merges the writes"
		}
		return fmt.Sprintf("each request touches %.1fx the sectors it uses, but each thread %s its whole %s, so %s and DRAM moves each sector once (more requests, not more DRAM bytes)",
			ratio, verb, recordParts(rec), serves)
	}
	if L1Serves(p) {
		return fmt.Sprintf("each request touches %.1fx the sectors it uses, the rest of which the L1 serves to later iterations or other warps (L1 time more than DRAM bytes)", ratio)
	}
	return fmt.Sprintf("each request moves %.1fx the bytes it uses", ratio)
}

// recordParts says what record a thread writes or reads, and in what:
// "12-byte record in 3 accesses", or for one access the compiler splits,
// "12-byte float3 in 3 instructions".
func recordParts(rec *accesses.Record) string {
	if rec.Accesses > 1 {
		return fmt.Sprintf("%d-byte record in %d accesses", rec.Bytes, rec.Accesses)
	}
	return fmt.Sprintf("%d-byte %s in %d instructions", rec.Bytes, rec.Lead.Access.Type, rec.Instructions)
}

// fillsOwnSectors: p is a store whose lanes are a sector or more apart,
// in a loop that moves each lane's address by less than a sector (a row
// written per thread, eight floats an unrolled loop stores): each
// request writes one lane's bytes into each sector, and the lane's later
// iterations write the rest of it.
func fillsOwnSectors(p *analyzer.Prediction) bool {
	return p.Access.Op == interp.Store && p.LaneStride != nil && accesses.Abs(*p.LaneStride) >= warp.SectorBytes && ownSectorStep(p.Access) > 0
}

// laneBytesText says what one lane writes into each sector a request
// touches: "one lane's 4 bytes in each".
func laneBytesText(p *analyzer.Prediction) string {
	return fmt.Sprintf("one lane's %d bytes in each", min(accesses.ElemBytes(p.Access), warp.SectorBytes))
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

// gridUniform: the load's address is the same in every lane of every
// block (a coefficient, a rasterizer's face every pixel reads in turn):
// each warp's request is served by the caches, and DRAM moves each sector
// once a launch, nothing per request. The L1 still takes its wavefront.
func gridUniform(a *interp.Access) bool {
	for _, ax := range symbolic.Axes {
		if symbolic.Mentions(a.Addr, symbolic.ThreadIdx(ax).ID()) || symbolic.Mentions(a.Addr, symbolic.BlockIdx(ax).ID()) {
			return false
		}
	}
	return true
}
