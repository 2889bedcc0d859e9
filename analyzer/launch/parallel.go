package launch

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/parser"
)

// hostWork is one host function findLaunches interprets, and what it
// gave: its launches and the host template instantiations it made.
type hostWork struct {
	f        *parser.File
	fn       *parser.Func
	tmpl     bool // a host function template: interpreted per instantiation
	launches []*interp.Launch
	insts    []interp.Instantiation
}

// parallel runs f(0..n-1) on GOMAXPROCS goroutines.
func parallel(n int, f func(int)) {
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
