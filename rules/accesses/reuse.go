package accesses

import (
	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/symbolic"
)

// Reused is the earlier load of the same thread whose value nvcc reuses
// for p, nil when p is an instruction of its own: a load of the same
// address, type, guards and loops as an earlier one, with no store or
// atomic to global memory between them, or through a pointer parameter
// declared __restrict__ (then no store elsewhere reaches it). nvcc emits
// no instruction for it: measured in SASS (testdata/truth/cse.cu,
// cse.sass), a[3*i + j] read three times each is 3 LDG without stores
// between, 6 with a store or atomic between the reads of a plain
// pointer, 3 with the store between when the pointers are __restrict__.
func (r *Result) Reused(p *analyzer.Prediction) *analyzer.Prediction { return r.reused[p] }

// findReused marks the loads of one kernel's predictions whose value nvcc
// reuses, under each launch configuration in the order the accesses run.
func findReused(kernel []*analyzer.Prediction, out map[*analyzer.Prediction]*analyzer.Prediction) {
	byConfig := map[*analyzer.LaunchConfig][]*analyzer.Prediction{}
	var order []*analyzer.LaunchConfig
	for _, p := range kernel {
		if byConfig[p.Config] == nil {
			order = append(order, p.Config)
		}
		byConfig[p.Config] = append(byConfig[p.Config], p)
	}
	for _, c := range order {
		reusedIn(byConfig[c], out)
	}
}

// reusedIn marks the reused loads of ps, one configuration's accesses in
// program order.
func reusedIn(ps []*analyzer.Prediction, out map[*analyzer.Prediction]*analyzer.Prediction) {
	type loaded struct {
		p     *analyzer.Prediction
		key   string
		store bool // a global store or atomic came after it
	}
	var seen []*loaded
	for _, q := range ps {
		a := q.Access
		if a.Space != interp.Global {
			continue
		}
		if a.Op != interp.Load {
			for _, l := range seen {
				l.store = true
			}
			continue
		}
		key := symbolic.Key(a.Addr)
		for _, l := range seen {
			b := l.p.Access
			if l.key == key && b.Base == a.Base && b.Type != nil && a.Type != nil && b.Type.Size == a.Type.Size &&
				b.SameConditions(a) && (!l.store || RestrictParam(a)) {
				out[q] = l.p
				break
			}
		}
		if out[q] == nil {
			seen = append(seen, &loaded{p: q, key: key})
		}
	}
}

// RestrictParam: a goes through a pointer parameter of its kernel
// declared __restrict__.
func RestrictParam(a *interp.Access) bool {
	if a.Base.Kind != interp.AllocParam || a.Kernel == nil {
		return false
	}
	for _, prm := range a.Kernel.Params {
		if prm.Name == a.Base.Name && prm.Type != nil && prm.Type.Restrict {
			return true
		}
	}
	return false
}
