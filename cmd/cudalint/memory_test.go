package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// The memory policy sets the soft limit after a collection when the live
// heap leaves room for it, and lifts it when stopped; small inputs get no
// limit at all.
func TestGovernMemory(t *testing.T) {
	if _, set := lookupGOMEMLIMIT(); set {
		t.Skip("GOMEMLIMIT is set")
	}
	current := func() int64 { return debug.SetMemoryLimit(-1) }
	stop := governMemory(1 << 30) // 9 GiB: far above this test's live heap
	deadline := time.Now().Add(5 * time.Second)
	for current() != memoryPerInputByte<<30 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(20 * time.Millisecond)
	}
	if got := current(); got != memoryPerInputByte<<30 {
		t.Errorf("limit %d after a collection, want %d", got, int64(memoryPerInputByte<<30))
	}
	stop()
	if got := current(); got != math.MaxInt64 {
		t.Errorf("limit %d after stop, want none", got)
	}
	governMemory(1 << 20)() // 9 MiB: under the floor, nothing to do
	if got := current(); got != math.MaxInt64 {
		t.Errorf("limit %d for a small input, want none", got)
	}
}
