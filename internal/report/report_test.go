package report

import (
	"strings"
	"testing"

	"github.com/cudalint/cudalint/analyzer/analyzertest"
	"github.com/cudalint/cudalint/analyzer/interp"
)

// The picture draws the first warp's lanes wherever they fall, below the
// base too: darknet's col2im steps by 1 - stride * height_col *
// width_col, negative, and its picture read "0 sectors, 0 of 0 bytes
// used" beside a message of 32 sectors per request.
func TestWarpPicture(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"coalesced", "__global__ void k(float* a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0; }", "first warp: ████  4 sectors, 128 of 128 bytes used"},
		{"a negative lane step", "__global__ void k(float* a, int s) { a[(1 - 64 * s) * threadIdx.x] = 0; }", "32 sectors, 128 of 1024 bytes used"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := analyzertest.Predict(t, tt.src, interp.Store)
			if got := WarpPicture(p); !strings.Contains(got, tt.want) {
				t.Errorf("%s (%.0f sectors/request): picture %q, want %q", p.Access.Expr, p.Sectors, got, tt.want)
			}
		})
	}
}
