package policy

import (
	"testing"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/analyzertest"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/lint"
)

// The severity policy of docs/severity.md, one row per clause: severity
// follows the waste, not the certainty of the sizes behind it.
func TestCostSeverity(t *testing.T) {
	const launch1D = "\nvoid h(float* a, int n) { k<<<64, 256>>>(a, n); }\n"
	const launch2D = "\nvoid h(float* a, int n) { k<<<dim3(8, 8), dim3(16, 16)>>>(a, n); }\n"
	tests := []struct {
		name, src string
		want      lint.Severity
	}{
		{"stride 4: four times the ideal", "__global__ void k(float* a, int n) { a[4 * threadIdx.x] = 0; }" + launch1D, lint.Warning},
		{"stride 2: at most twice the ideal", "__global__ void k(float* a, int n) { a[2 * threadIdx.x] = 0; }" + launch1D, lint.Info},
		{"shifted by one: small", "__global__ void k(float* a, int n) { a[blockIdx.x * blockDim.x + threadIdx.x + 1] = 0; }" + launch1D, lint.Info},
		{"column walk of an assumed size", "__global__ void k(float* a, int n) { for (int j = 0; j < n; j++) a[threadIdx.x * n + j] = 0; }", lint.Warning},
		{"a row pitch never compared", "__global__ void k(float* a, int height) { a[threadIdx.x * height] = 0; }", lint.Warning},
		{"a stride compared as a bound", "__global__ void k(float* a, int stride) { if (threadIdx.x < stride) a[threadIdx.x * stride] = 0; }", lint.Warning},
		{"column walk under a guessed 2D block", "__global__ void k(float* a, int n) { if (threadIdx.y < n) a[threadIdx.x * n + threadIdx.y] = 0; }", lint.Warning},
		{"an assumed stride that may be 1", "__global__ void k(float* a, long s00) { a[threadIdx.x * s00] = 0; }", lint.Info},
		// darknet's supp_kernel: INCX inside a subscript of a compared
		// value is an address, not a size compared.
		{"a BLAS increment beside a comparison of data", "__global__ void k(float* X, int INCX, float ALPHA) { X[threadIdx.x * INCX] = X[threadIdx.x * INCX + 1] < ALPHA; }", lint.Info},
		// kaldi's CMVN: a leading dimension is a row length, never 1
		// where lanes step by it, so the column walk is real.
		{"a column walk over a leading dimension", "__global__ void k(float* a, int lda, int rows) { for (int r = 0; r < rows; r++) a[r + threadIdx.x * lda] = 0; }", lint.Warning},
		{"a column walk over ld", "__global__ void k(float* a, int ld) { a[threadIdx.x * ld] = 0; }", lint.Warning},
		// darknet's shortcut_kernel (sample = w2/w1, 1 for layers of one
		// size), its softmax's group_offset and Rodinia srad's d_mul:
		// multipliers of the lane index that are 1 as often as not.
		{"a ratio that may be 1", "__global__ void k(float* a, int sample) { a[threadIdx.x * sample] = 0; }", lint.Info},
		{"a group offset that may be 1", "__global__ void k(float* a, int group_offset) { a[threadIdx.x * group_offset] = 0; }", lint.Info},
		{"ggml's dilation times its stride", "__global__ void k(float* a, int d0, int s0) { a[threadIdx.x * d0 * s0] = 0; }", lint.Info},
		// darknet's col2im: at stride 1 the lane step the other assumed
		// size makes cancels (w * hw + (w / stride) * (1 - stride * hw)).
		{"a waste that goes with the stride at 1", "__global__ void k(float* a, int stride, int hw) { int w = blockIdx.x * blockDim.x + threadIdx.x; a[w * hw + (w / stride) * (1 - stride * hw)] = 0; }\nvoid h(float* a, int s, int n) { k<<<64, 256>>>(a, s, n); }\n", lint.Info},
		{"a waste that stays with the stride at 1", "__global__ void k(float* a, int stride, int hw) { int w = blockIdx.x * blockDim.x + threadIdx.x; a[w * hw + (w / stride)] = 0; }\nvoid h(float* a, int s, int n) { k<<<64, 256>>>(a, s, n); }\n", lint.Warning},
		{"a multiplier that may be 1", "__global__ void k(float* a, int d_mul) { a[threadIdx.x * d_mul] = 0; }", lint.Info},
		{"a flag used as a factor", "__global__ void k(float* a, int scale_is_vector) { a[threadIdx.x * scale_is_vector] = 0; }", lint.Info},
		{"a byte stride named for its tensor", "__global__ void k(float* a, int src1_nb1) { a[threadIdx.x * (src1_nb1 / 4)] = 0; }", lint.Info},
		{"1D stride under the default block: any block of a warp", "__global__ void k(float* a, int n) { a[4 * threadIdx.x] = 0; }", lint.Warning},
		{"2D rows under a guessed block", "__global__ void k(float* a, int n) { a[4 * threadIdx.x + 4096 * threadIdx.y] = 0; }", lint.Info},
		{"2D rows under a launched block", "__global__ void k(float* a, int n) { a[4 * threadIdx.x + 4096 * threadIdx.y] = 0; }" + launch2D, lint.Warning},
		{"set-up code: one block", "__global__ void k(float* a, int n) { a[4 * threadIdx.x] = 0; }\nvoid h(float* a, int n) { k<<<1, 256>>>(a, n); }\n", lint.Info},
		{"data-dependent", "__global__ void k(float* a, int* idx) { a[idx[threadIdx.x]] = 0; }", lint.Info},
		// Three lanes 256 bytes apart at n = 8195: 3 sectors for an
		// ideal of 1, but only a remainder of the block runs it.
		{"a remainder, wasteful per request", "__global__ void k(float* a, int n) { if (threadIdx.x >= 256 - n % 4) a[64 * threadIdx.x] = 0; }" + launch1D, lint.Info},
		{"a remainder no lane reaches at the sizes tried", "__global__ void k(float* a, int n) { if (threadIdx.x > n) a[8 * threadIdx.x] = 0; }" + launch1D, lint.Info},
		{"behind a guard on data: an upper bound", "__global__ void k(float* a, int* m) { if (m[threadIdx.x]) a[8 * threadIdx.x] = 0; }" + launch1D, lint.Info},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := analyzertest.PredictWith(t, tt.src, interp.Store, analyzer.Options{UnitStride: accesses.StrideName})
			if got := CostSeverity(p); got != tt.want {
				t.Errorf("%s: %.2f sectors, ideal %.2f, block %v from %s: %v, want %v",
					p.Access.Expr, p.Sectors, p.Ideal, p.Config.Block, p.Config.BlockSource, got, tt.want)
			}
		})
	}
}
