// Package par runs independent pieces of work on every core.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Each runs f(0..n-1) on GOMAXPROCS goroutines, each taking the next
// index as it finishes one, and returns when all have run.
func Each(n int, f func(int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		}()
	}
	wg.Wait()
}
