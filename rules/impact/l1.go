package impact

import (
	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/warp"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/symbolic"
)

// l1Repeats are the global loads whose bytes the same thread has just
// read, in the same sectors, through another load of the kernel: a[4*i]
// then a[4*i + 1], a[4*i + 2], a[4*i + 3]. Each asks for its sectors
// (Nsight counts 16 per request for each of the four), but the L1 holds
// them from the first, and DRAM moves them once: measured on an H200,
// four scalar loads and one float4 over 256 MiB ran within 1%
// (testdata/truth/probes6.cu, time6.txt; the vector pair of
// testdata/truth/timing). A repeat is a load of the same allocation and
// type, under the same launch, guards and loops, at a constant distance
// after an earlier one that stays inside the part of a sector that load's
// lane owns (sameSectors), with the same cost.
//
// The loads of a record each thread reads whole (accesses.Record) are
// repeats of its lead too.
//
// It maps each repeat to the load whose sectors it reads again.
func l1Repeats(res *accesses.Result, ps []*analyzer.Prediction) map[*analyzer.Prediction]*analyzer.Prediction {
	type group struct {
		kernel any
		config *analyzer.LaunchConfig
		base   interp.Alloc
		stride int64
	}
	byGroup := map[group][]*analyzer.Prediction{}
	for _, p := range ps {
		a := p.Access
		if !p.Known || p.NoLane || p.LaneStride == nil || a.Op != interp.Load || a.Space != interp.Global || a.Type == nil {
			continue
		}
		g := group{a.Kernel, p.Config, a.Base, *p.LaneStride}
		byGroup[g] = append(byGroup[g], p)
	}
	out := map[*analyzer.Prediction]*analyzer.Prediction{}
	for _, p := range ps {
		if rec := res.Record(p); rec != nil && rec.Lead != p && p.Access.Op == interp.Load {
			out[p] = rec.Lead // one of a record's loads: the lead's request brought its sectors
		}
	}
	for g, members := range byGroup {
		for i, q := range members {
			for _, p := range members[:i] {
				if out[p] == nil && out[q] == nil && sameSectors(p, q, g.stride) {
					out[q] = p
					break
				}
			}
		}
	}
	return out
}

// sameSectors: in every lane, q reads bytes of the sector p's lane
// brought in: the same cost, guards and loops, and a constant distance d
// such that p's address is a multiple of the chunk a lane owns within a
// sector, min(|stride|, 32) bytes, and q's bytes stay inside that chunk.
func sameSectors(p, q *analyzer.Prediction, stride int64) bool {
	a, b := p.Access, q.Access
	if a.Type.Size != b.Type.Size || p.Sectors != q.Sectors || !a.SameConditions(b) {
		return false
	}
	d, ok := symbolic.IsConst(symbolic.Sub(b.Addr, a.Addr))
	if !ok || d <= 0 {
		return false // a repeat comes after the load it repeats, in address
	}
	chunk := min(max(stride, -stride), warp.SectorBytes)
	return d+b.Type.Size <= chunk && symbolic.Divisor(a.Addr, accesses.DivisorFacts(p.Config)) >= chunk
}
