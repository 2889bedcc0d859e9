package parser

import (
	"github.com/cudalint/cudalint/parser/lex"
	"reflect"
	"testing"
)

// The hand-written readers build what the grammar builds, or decline.
func TestFastReadersMatchTheGrammar(t *testing.T) {
	decls := []string{
		"int i = blockIdx.x * blockDim.x + threadIdx.x, j",
		"const float* __restrict__ p = in + 4",
		"__shared__ float tile[32][33]",
		"unsigned const int n",
		"struct Particle* ps = (Particle*)base",
		"T acc = T(0)",
		"float4 v = src[j]",
		"extern __shared__ char smem[]",
		"int a[] = {1, 2, 3}",
		"dim3 block(16, 16)",              // a constructor: declined
		"std::vector<int> v",              // qualified, templated: declined
		"Vec<float, 4> x",                 // template arguments: declined
		"int x = ",                        // broken: declined, participle's error
		"float a, *b, c[4] = {0}, &d = a", // several declarators
	}
	params := []string{
		"const float* __restrict__ in, float* out, int n, float a",
		"int",
		"float x = 1.0f, int y[]",
		"T* data, size_t n",
		"const Particle* ps",
		"cudaTextureObject_t tex, int n = 4",
		"cg::thread_block b", // qualified: declined
	}
	declined := map[string]bool{"dim3 block(16, 16)": true, "std::vector<int> v": true, "Vec<float, 4> x": true,
		"int x = ": true, "cg::thread_block b": true}
	check := func(t *testing.T, src string, fast func(*unit) (any, bool), slow func(*unit) (any, error)) {
		u := newUnit("f.cu")
		u.types["T"], u.types["Particle"], u.types["Vec"] = true, true, true
		var notes Notes
		u.toks = lex.Scan("f.cu", []byte(src), &notes)
		f, ok := fast(u)
		s, err := slow(u)
		wantFast := !declined[src]
		switch {
		case ok != wantFast:
			t.Errorf("%q: read by hand %v, want %v", src, ok, wantFast)
		case ok && err != nil:
			t.Errorf("%q: read by hand, but the grammar says %v", src, err)
		case ok && !reflect.DeepEqual(f, s):
			t.Errorf("%q: trees differ:\nhand    %#v\ngrammar %#v", src, f, s)
		}
	}
	for _, src := range decls {
		check(t, src, func(u *unit) (any, bool) {
			pl, _ := u.lexSpan(0, len(u.toks))
			return fastDecl(pl)
		}, func(u *unit) (any, error) {
			pl, _ := u.lexSpan(0, len(u.toks))
			return declParser.ParseFromLexer(pl)
		})
	}
	for _, src := range params {
		check(t, src, func(u *unit) (any, bool) {
			pl, _ := u.lexSpan(0, len(u.toks))
			return fastParamList(pl)
		}, func(u *unit) (any, error) {
			pl, _ := u.lexSpan(0, len(u.toks))
			return paramsParser.ParseFromLexer(pl)
		})
	}
}
