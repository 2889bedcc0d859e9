package impact

import (
	"strings"
	"testing"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/rules/lint"
)

// A kernel that walks a range of faces whose bounds it loads, then
// stores its pixel with lanes 32 floats apart (pytorch3d's naive
// rasterizer): the store's share holds at the model's 8 iterations of
// the walk and not at 256, so it is no warning; a strided load inside
// the walk grows with it and keeps its share.
const faceWalk = `__global__ void k(const int* first, const int* count, const float* faces, const float* w, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0;
    for (int f = first[blockIdx.x]; f < first[blockIdx.x] + count[blockIdx.x]; f++) {
        float x = faces[f];
        s += x * x + s * 0.5f + x * 3.0f;
        s += w[32 * i + f];
    }
    out[32 * i] = s;
}
void h(int* first, int* count, float* faces, float* w, float* out) { k<<<65536, 256>>>(first, count, faces, w, out); }`

func TestLongerLoops(t *testing.T) {
	res, costs := loadSource(t, faceWalk)
	byExpr := map[string]*analyzer.Prediction{}
	for _, p := range res.Analysis.Predictions {
		byExpr[p.Access.Expr] = p
	}
	store, load := byExpr["out[32 * i]"], byExpr["w[32 * i + f]"]
	if store == nil || load == nil {
		t.Fatalf("predictions %v: no store out[32 * i] or load w[32 * i + f]", byExpr)
	}
	imp, ok := costs.Impact(store)
	if !ok || imp.Longer == nil {
		t.Fatalf("store: impact %+v (%v), want a second pricing with the walk longer", imp, ok)
	}
	if imp.Share < MinShare || imp.Longer.Share >= MinShare || imp.Longer.Factor != LongerLoops || imp.Longer.Loop.Line != 4 {
		t.Errorf("store: share %v, at longer loops %+v; want at least %v as priced, under it with the loop of line 4 run %dx",
			imp.Share, imp.Longer, MinShare, LongerLoops)
	}
	if got := ShareSeverity(lint.Warning, &imp); got != lint.Info {
		t.Errorf("store: %v, want info", got)
	}
	want := "at 8 iterations of the loop at k.cu:4, whose trip count the code does not give"
	if text := Text(&imp, true); !strings.Contains(text, want) {
		t.Errorf("store: text %q, want it to say %q", text, want)
	}
	limp, ok := costs.Impact(load)
	if !ok || limp.Longer != nil {
		t.Errorf("load inside the walk: impact %+v, want no second pricing (it grows with its loop)", limp)
	}
	// Folded together, the cause has an access inside the walk: it grows
	// with it, and has no second pricing.
	if c := Combined([]*lint.Impact{&imp, &limp}); c.Longer != nil {
		t.Errorf("store and load folded: %+v, want no second pricing", c.Longer)
	}
	if c := Combined([]*lint.Impact{&imp, &imp}); c.Longer == nil || c.Longer.Share <= imp.Longer.Share {
		t.Errorf("store folded with itself: %+v, want the excess of both at the longer pricing", c.Longer)
	}
}

// Without a loop of unknown trip count there is no second pricing.
func TestLongerLoopsNone(t *testing.T) {
	res, costs := loadSource(t, `__global__ void k(const float* a, float* b) { int i = blockIdx.x * blockDim.x + threadIdx.x; for (int j = 0; j < 10; j++) b[32 * i] += a[i + j]; }
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`)
	for _, p := range res.Analysis.Predictions {
		if imp, ok := costs.Impact(p); ok && imp.Longer != nil {
			t.Errorf("%s: second pricing %+v, want none", p.Access.Expr, imp.Longer)
		}
	}
}
