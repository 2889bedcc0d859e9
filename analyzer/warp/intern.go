package warp

import "sync"

// Lanes shares the lane addresses of predictions (Prediction.Warp) that
// are equal: a run's predictions hold few distinct ones (a 1 MB
// kernel-dense file: 7,339 warps, 20 distinct; the same shapes of
// threadIdx under the same few blocks), and each costs 256 bytes for as
// long as the rules and the report need the prediction. A Warp is never
// written after its prediction is made, so sharing it is safe; Lanes
// lives as long as the run that made it, so an editor's later runs do not
// keep the addresses of earlier ones. Safe for concurrent use; the zero
// value is ready.
type Lanes struct {
	mu   sync.Mutex
	seen map[[32]int64][]int64
}

// Share replaces each prediction's Warp by the run's one copy of it.
func (l *Lanes) Share(ps []*Prediction) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen == nil {
		l.seen = map[[32]int64][]int64{}
	}
	for _, p := range ps {
		if len(p.Warp) != 32 {
			continue
		}
		key := [32]int64(p.Warp)
		if w, ok := l.seen[key]; ok {
			p.Warp = w
		} else {
			l.seen[key] = p.Warp
		}
	}
}
