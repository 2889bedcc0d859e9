package accesses

import (
	"testing"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/parser"
)

// Excess bytes per launch, worked by hand: sectors above the ideal x 32
// bytes x the requests the launch makes; unknown when the launch was not
// counted whole.
func TestExcessBytesPerLaunch(t *testing.T) {
	tests := []struct {
		name, src string
		want      int64
		ok        bool
	}{
		// 64 blocks x 8 warps = 512 requests, 16 sectors for an ideal of 4.
		{"stride 4", "__global__ void k(float* a) { a[4 * threadIdx.x] = 0; }\nvoid h(float* a) { k<<<64, 256>>>(a); }\n", 512 * 12 * 32, true},
		// ... and a loop of 10 iterations per thread.
		{"in a loop", "__global__ void k(float* a) { for (int j = 0; j < 10; j++) a[4 * threadIdx.x + 1024 * j] = 0; }\nvoid h(float* a) { k<<<64, 256>>>(a); }\n", 5120 * 12 * 32, true},
		{"coalesced: no excess", "__global__ void k(float* a) { a[threadIdx.x] = 0; }\nvoid h(float* a) { k<<<64, 256>>>(a); }\n", 0, false},
		{"grid from the host at run time", "__global__ void k(float* a) { a[4 * threadIdx.x] = 0; }\nvoid h(float* a, int g) { k<<<g, 256>>>(a); }\n", 0, false},
		{"no launch", "__global__ void k(float* a) { a[4 * threadIdx.x] = 0; }\n", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parser.Parse("k.cu", []byte(tt.src), parser.Config{})
			r := analyzer.Analyze([]*parser.File{f}, analyzer.Options{})
			if len(r.Predictions) != 1 {
				t.Fatalf("%d predictions", len(r.Predictions))
			}
			got, ok := ExcessBytesPerLaunch(r.Predictions[0])
			if got != tt.want || ok != tt.ok {
				t.Errorf("excess %d, %v; want %d, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}
