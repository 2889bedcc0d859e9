package warp

import "github.com/cudalint/cudalint/symbolic"

// Predicated requests over a warp's lanes at once: what predicatedLanes
// gives lane by lane, from the conditions and address staged for
// symbolic.VecEnv (lanes.go). A predicated access is evaluated warp by
// warp in every block a sample lands in (blockRuns), so lane-by-lane
// evaluation made it the model's most expensive case (Rodinia's hotspot
// took twice as long once predication was modelled).

// stagePredConds compiles the predicated guard's conditions for l.
func (m *warpModel) stagePredConds(l *lanes) {
	for _, c := range m.predExprs {
		l.preds = append(l.preds, l.env.Compile(c))
	}
}

// predicatedVecLanes sets reach and mask for warp w as predicatedLanes
// does, and the addresses of the lanes in mask where the address is not
// affine; false when such a lane's address cannot be evaluated. The
// thread index slots are left at the warp's last thread, as
// predicatedLanes leaves them.
func (m *warpModel) predicatedVecLanes(w int64) bool {
	if m.staged == nil {
		m.staged = m.stageLanes()
	}
	l := m.staged
	l.env.SetLanes(w, m.warpThreads(l, w))
	valid := m.validMask(w)
	defer m.setLastThread(w, valid)
	var reach, mask uint32
	if !decided(l.condsOff, m.vals) {
		reach = passVec(l.conds, m.vals, valid)
	}
	if reach != 0 && !decided(l.predsOff, m.vals) {
		mask = passVec(l.preds, m.vals, reach)
	}
	m.reach, m.mask = reach, mask
	return m.laneAddresses(l.addr, mask)
}

// passVec is the lanes of mask that pass every condition (one that
// cannot be evaluated at a lane passes there).
func passVec(conds []symbolic.VecFunc, vals *symbolic.Values, mask uint32) uint32 {
	for _, c := range conds {
		if mask == 0 {
			break
		}
		r := c(vals)
		for lane := range symbolic.Lanes {
			if r.OK>>lane&1 != 0 && r.V[lane] == 0 {
				mask &^= 1 << lane
			}
		}
	}
	return mask
}

// setLastThread sets the thread index slots to the last thread of warp
// w that the block holds (valid: its lanes).
func (m *warpModel) setLastThread(w int64, valid uint32) {
	if valid == 0 {
		return
	}
	last := int64(31)
	for valid>>last&1 == 0 {
		last--
	}
	tid := w*32 + last
	bx, by := m.block[0], m.block[1]
	m.vals.Set(m.thread[0], tid%bx)
	m.vals.Set(m.thread[1], (tid/bx)%by)
	m.vals.Set(m.thread[2], tid/(bx*by))
}
