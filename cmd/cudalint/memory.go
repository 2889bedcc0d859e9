package main

import (
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// Peak memory is held under about ten times the input when the data the
// run must keep (every syntax tree, built before the analysis; the
// findings, as the rules see the model part by part, driver.Options.Stream)
// leaves room for it:
// after each collection the runtime's soft memory limit is set to
// memoryPerInputByte times the input when the live heap is under 70% of
// that, and lifted otherwise (a limit under the live heap would keep the
// collector running for nothing). With no limit the collector lets the
// heap grow to twice the live data; with it, a run whose live data is 6x
// its input peaks near 9x instead of 13x.
const (
	memoryPerInputByte = 9
	minMemoryLimit     = 64 << 20 // below this the runtime's own footprint dominates
)

// governMemory starts the policy for an input of inputBytes and returns
// the function that stops it. GOMEMLIMIT, when set, wins.
func governMemory(inputBytes int64) (stop func()) {
	limit := memoryPerInputByte * inputBytes
	if _, set := lookupGOMEMLIMIT(); set || limit < minMemoryLimit {
		return func() {}
	}
	samples := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/gc/heap/live:bytes"}}
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		var cycles uint64
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			metrics.Read(samples)
			if c := samples[0].Value.Uint64(); c != cycles {
				cycles = c
				if live := int64(samples[1].Value.Uint64()); live < limit*7/10 {
					debug.SetMemoryLimit(limit)
				} else {
					debug.SetMemoryLimit(math.MaxInt64)
				}
			}
		}
	}()
	return func() {
		close(done)
		debug.SetMemoryLimit(math.MaxInt64)
	}
}

func lookupGOMEMLIMIT() (string, bool) { return os.LookupEnv("GOMEMLIMIT") }
