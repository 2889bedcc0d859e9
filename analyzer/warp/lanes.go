package warp

import (
	"slices"

	"github.com/cudalint/cudalint/symbolic"
)

// lanes holds the lane conditions and the address compiled for
// evaluation over a warp's lanes at once (symbolic.VecEnv): what depends
// on the request alone is evaluated once per request, what depends on
// the thread index alone once per warp of the block, and only the rest
// lane by lane, in loops over the 32 lanes instead of a call per lane.
// They give what laneConds and addr give lane by lane.
type lanes struct {
	env   *symbolic.VecEnv
	conds []symbolic.VecFunc
	addr  symbolic.VecFunc   // nil for an affine address: its lanes are offsets
	preds []symbolic.VecFunc // a predicated guard's conditions (predlanes.go)
	// condsOff and predsOff are the deciders of conds and preds.
	condsOff, predsOff []decider
	// threads is each warp's thread index (x, y, z) lane by lane, filled
	// in when the warp is first evaluated; scratch is for warps past
	// maxKeptWarps.
	threads [][]symbolic.Vec
	scratch []symbolic.Vec
}

// maxKeptWarps bounds the warps whose thread indices are kept.
const maxKeptWarps = 1 << 12

// stageLanes compiles the model's lane conditions and, unless it is
// affine, its address; all conditions are added by the first request.
func (m *warpModel) stageLanes() *lanes {
	l := &lanes{env: symbolic.NewVecEnv(m.env, threadSyms[:])}
	for _, c := range m.laneExprs {
		l.conds = append(l.conds, l.env.Compile(c))
	}
	if !m.affine {
		l.addr = l.env.Compile(m.addrExpr)
	}
	m.stagePredConds(l)
	l.condsOff, l.predsOff = m.deciders(m.laneExprs), m.deciders(m.predExprs)
	m.vals.Grow(m.env)
	return l
}

// warpThreads is the thread index of warp w's lanes; lanes past the
// block's threads hold indices past it, and are never active.
func (m *warpModel) warpThreads(l *lanes, w int64) []symbolic.Vec {
	var in []symbolic.Vec
	if w < maxKeptWarps {
		for int64(len(l.threads)) <= w {
			l.threads = append(l.threads, nil)
		}
		if in = l.threads[w]; in != nil {
			return in
		}
		in = make([]symbolic.Vec, 3)
		l.threads[w] = in
	} else {
		if l.scratch == nil {
			l.scratch = make([]symbolic.Vec, 3)
		}
		in = l.scratch
	}
	bx, by := m.block[0], m.block[1]
	for lane := range symbolic.Lanes {
		tid := w*32 + int64(lane)
		in[0].V[lane], in[1].V[lane], in[2].V[lane] = tid%bx, (tid/bx)%by, tid/(bx*by)
	}
	for d := range in {
		in[d].OK = ^uint32(0)
	}
	return in
}

// evalLanes sets the mask of warp w's lanes that pass the lane conditions
// (a condition that cannot be evaluated passes) and, for an address that
// is not affine, their addresses; false when an active lane's address
// cannot be evaluated.
func (m *warpModel) evalLanes(w int64) bool {
	if m.staged == nil {
		m.staged = m.stageLanes()
	}
	l := m.staged
	if decided(l.condsOff, m.vals) {
		m.mask = 0
		return true
	}
	l.env.SetLanes(w, m.warpThreads(l, w))
	mask := m.validMask(w)
	for _, c := range l.conds {
		if mask == 0 {
			break
		}
		r := c(m.vals)
		for lane := range symbolic.Lanes {
			if r.OK>>lane&1 != 0 && r.V[lane] == 0 {
				mask &^= 1 << lane
			}
		}
	}
	m.mask = mask
	return m.laneAddresses(l.addr, mask)
}

// A decider is a lane-free part of a lane condition that turns every
// lane off when it evaluates to when (symbolic.FalseWhen): evaluated once
// per request, before the lanes.
type decider struct {
	f    symbolic.Func
	when bool
}

// deciders compiles the deciders of conds.
func (m *warpModel) deciders(conds []symbolic.Expr) []decider {
	var out []decider
	lane := func(id symbolic.SymID) bool { return slices.Contains(threadSyms[:], id) }
	for _, c := range conds {
		for _, d := range symbolic.FalseWhen(c, lane) {
			out = append(out, decider{f: symbolic.Compile(d.Part, m.env), when: d.When})
		}
	}
	return out
}

// decided reports whether one of ds turns every lane of the request off.
func decided(ds []decider, vals *symbolic.Values) bool {
	for _, d := range ds {
		if v, ok := d.f(vals); ok && (v != 0) == d.when {
			return true
		}
	}
	return false
}

// laneAddresses evaluates addr, when there is one, at the lanes of mask
// into m.lanes: false when a lane of mask cannot be evaluated.
func (m *warpModel) laneAddresses(addr symbolic.VecFunc, mask uint32) bool {
	if addr == nil || mask == 0 {
		return true
	}
	r := addr(m.vals)
	if mask&^r.OK != 0 {
		return false
	}
	for lane := range symbolic.Lanes {
		if mask>>lane&1 != 0 {
			m.lanes[lane] = r.V[lane]
		}
	}
	return true
}
