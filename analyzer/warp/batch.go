package warp

// batchBlocks turns blockVisitor's batching on; off, for its tests, it
// visits every warp.
var batchBlocks = true

// warpSums is what a run of requests costs: the sums of their sectors,
// ideals, Nsight ideals and misalignments, and how many there are.
type warpSums struct {
	s, i, n, m float64
	requests   int
}

// blockVisitor returns what visits every warp of block b at iters, for
// run's enumeration: visit one warp after the other, or, for an affine
// address under uniform conditions only, the warps of a block whose base
// address has a residue already seen at once. Such a request's cost
// depends only on its warp, its lanes (the warp's own: no condition
// turns one off) and its base mod the period (costs' memo), so the warps
// of two blocks (or iterations) whose bases have one residue cost the
// same; a block's requests are evaluated once per residue instead of
// once per warp. The sums are of whole numbers, exact in float64 in any
// order, so what run reports is what visiting every warp gives; the
// first request visited is the same (p.Warp is its lanes). now reads
// run's sums, add adds to them.
func (m *warpModel) blockVisitor(iters []int64, visit func(b, w int64, iters []int64) bool, now func() warpSums, add func(warpSums)) func(b int64) bool {
	warps := func(b int64) bool {
		for w := int64(0); w < m.warps(); w++ {
			if !visit(b, w, iters) {
				return false
			}
		}
		return true
	}
	if !batchBlocks || !m.affine || len(m.laneConds) > 0 || len(m.predConds) > 0 {
		return warps
	}
	byResidue := map[int64]warpSums{}
	return func(b int64) bool {
		ok, active := m.blockRequest(b, iters)
		if !ok {
			return warps(b) // the first warp's request fails as this did
		}
		if !active {
			return true // no lane of any warp: visit would count nothing
		}
		rem := mod(m.baseVal, m.period)
		if d, seen := byResidue[rem]; seen {
			add(d)
			return true
		}
		before := now()
		if !warps(b) {
			return false
		}
		after := now()
		byResidue[rem] = warpSums{after.s - before.s, after.i - before.i, after.n - before.n, after.m - before.m, after.requests - before.requests}
		return true
	}
}
