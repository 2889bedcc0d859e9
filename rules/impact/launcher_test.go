package impact

import (
	"strings"
	"testing"

	"github.com/cudalint/cudalint/rules/lint"
)

// A strided store in a small kernel that a host function launches
// beside a kernel moving 512 times its bytes (each launch large enough
// that its start-up is no part of it): its fix saves most of its
// own kernel and almost none of what the function launches, unless the
// two do not run together (other arms of a conditional, other loops).
func TestLauncherShare(t *testing.T) {
	const kernels = `__global__ void small(float* a) { a[32 * (blockIdx.x * blockDim.x + threadIdx.x)] = 0; }
__global__ void big(const float* a, float* b) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int j = 0; j < 64; j++) b[i + j * 262144] = a[i + j * 262144];
}
`
	tests := []struct {
		name, host string
		together   bool
	}{
		{"one after the other", `void h(float* a, float* b) { small<<<4096, 256>>>(a); big<<<262144, 256>>>(a, b); }`, true},
		{"both in one loop", `void h(float* a, float* b) { for (int k = 0; k < 10; k++) { small<<<4096, 256>>>(a); big<<<262144, 256>>>(a, b); } }`, true},
		{"the arms of an if", `void h(float* a, float* b, int n) { if (n < 100) small<<<4096, 256>>>(a); else big<<<262144, 256>>>(a, b); }`, false},
		{"the cases of a switch", `void h(float* a, float* b, int n) { switch (n) { case 1: small<<<4096, 256>>>(a); break; case 2: big<<<262144, 256>>>(a, b); break; } }`, false},
		{"the big one in a loop of its own", `void h(float* a, float* b, int n) { small<<<4096, 256>>>(a); for (int k = 0; k < n; k++) big<<<262144, 256>>>(a, b); }`, false},
		// At the assumed size, 4096 blocks: both compare at the one value.
		{"a grid the code does not give", `void h(float* a, float* b, int g) { small<<<g, 256>>>(a); big<<<262144, 256>>>(a, b); }`, true},
		// Grids that shrink with a host loop's counter compare at its
		// first iteration (lud's perimeter beside its interior).
		{"a grid of a host loop", `void h(float* a, float* b, int n) {
    for (int i = 0; i < n; i += 16) { small<<<(n - i) / 16, 256>>>(a); big<<<dim3((n - i) / 16, (n - i) / 16), 256>>>(a, b); }
}`, true},
		// A kernel that reads gridDim does the same work on any grid: its
		// time does not scale to the assumed one.
		{"a grid-stride kernel on a grid the code does not give", `__global__ void strided(float* a, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) a[32 * i] = 0;
}
void h(float* a, float* b, int g) { small<<<4096, 256>>>(a); strided<<<g, 256>>>(a, 1 << 20); big<<<262144, 256>>>(a, b); }`, false},
		{"another function", `void g(float* a) { small<<<4096, 256>>>(a); }
void h(float* a, float* b) { big<<<262144, 256>>>(a, b); }`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, costs := loadSource(t, kernels+tt.host)
			var imp lint.Impact
			found := false
			sites := NewSites()
			sites.Add(costs)
			for _, p := range res.Analysis.Predictions {
				if p.Access.Kernel.Name == "small" {
					imp, found = costs.Impact(p)
					imp.Launcher = sites.Launcher(res.Analysis.Program, p, &imp)
				}
			}
			if !found {
				t.Fatal("no impact for small's store")
			}
			// (At the assumed grid small is priced over its 64 blocks along x,
			// and its start-up outweighs its store.)
			if imp.Share < MinShare && !strings.HasPrefix(tt.name, "a grid") {
				t.Fatalf("small's store: share %v of its own kernel, want at least %v", imp.Share, MinShare)
			}
			if got := imp.Launcher != nil; got != tt.together {
				t.Fatalf("launcher %+v, want one: %v", imp.Launcher, tt.together)
			}
			if !tt.together {
				return
			}
			l := imp.Launcher
			if l.Function != "h" || l.Heaviest != "big" || l.Part >= 0.01 || l.Share >= MinShare {
				t.Errorf("launcher %+v, want h, heaviest big, a part under 1%% and a share under %v", l, MinShare)
			}
			if ShareSeverity(lint.Warning, &imp) != lint.Info {
				t.Error("a fix worth under 5% of its function's launches is a warning")
			}
		})
	}
}
