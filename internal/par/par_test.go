package par

import (
	"sync/atomic"
	"testing"
)

// Each runs every index once, for any count of work and of cores.
func TestEach(t *testing.T) {
	for _, n := range []int{0, 1, 7, 1000} {
		runs := make([]atomic.Int32, n)
		Each(n, func(i int) { runs[i].Add(1) })
		for i := range runs {
			if got := runs[i].Load(); got != 1 {
				t.Errorf("n=%d: index %d ran %d times", n, i, got)
			}
		}
	}
}
