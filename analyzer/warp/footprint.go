package warp

import "github.com/cudalint/cudalint/analyzer/interp"

// footprint sets p.BlockReuse: the sectors the warps of block 0 touch
// together, at the first iteration of every loop, over the sum of what
// each warp touches. Only loads: the L1 serves a sector another warp of
// the block brought in, while partial stores to one sector cost DRAM as
// many times (the naive transpose's column store, whose neighbouring
// warps write neighbouring floats, measured 7x its tiled twin).
func (m *warpModel) footprint(p *Prediction) {
	if !p.Known || p.Access.Space != interp.Global || p.Access.Op != interp.Load {
		return
	}
	iters := make([]int64, len(m.trips))
	distinct := map[int64]bool{}
	total := 0
	for w := int64(0); w < m.warps(); w++ {
		if !m.request(0, w, iters) || !m.anyActive() {
			continue
		}
		if m.affine {
			m.fillLanes(w)
		}
		own := map[int64]bool{}
		for lane := 0; lane < 32; lane++ {
			if m.mask&(1<<lane) == 0 {
				continue
			}
			for _, pc := range m.pieces {
				start := m.lanes[lane] + pc[0]
				for s := FloorDiv(start, SectorBytes); s <= FloorDiv(start+pc[1]-1, SectorBytes); s++ {
					own[s] = true
				}
			}
		}
		total += len(own)
		for s := range own {
			distinct[s] = true
		}
	}
	if total > 0 {
		p.BlockReuse = float64(len(distinct)) / float64(total)
	}
}
