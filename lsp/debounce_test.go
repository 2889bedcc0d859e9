package lsp

import (
	"testing"
	"time"
)

// The debounce follows the file's analysis cost unless the options fix
// it: a cheap analysis runs after each keystroke, a dear one waits.
func TestDelay(t *testing.T) {
	for _, tc := range []struct {
		fixed, cost, want time.Duration
	}{
		{0, 0, 0},
		{0, 8 * time.Millisecond, 8 * time.Millisecond},
		{0, 120 * time.Millisecond, 120 * time.Millisecond},
		{0, 2 * time.Second, maxDebounce},
		{20 * time.Millisecond, 2 * time.Second, 20 * time.Millisecond},
		{20 * time.Millisecond, time.Millisecond, 20 * time.Millisecond},
	} {
		s := &Server{debounce: tc.fixed}
		if got := s.delay(&document{cost: tc.cost}); got != tc.want {
			t.Errorf("fixed %v, cost %v: delay %v, want %v", tc.fixed, tc.cost, got, tc.want)
		}
	}
}
