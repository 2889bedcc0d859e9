package parser

import (
	"strings"
	"testing"
)

// C++ that real projects write in kernels reads without a note: each of
// these statements was skipped as not understood before.
func TestKernelCxxConstructsRead(t *testing.T) {
	tests := []struct{ name, stmt string }{
		{"member template", "load.template load<4>(a, i);"},
		{"arrow member template", "p->template get<float>(i);"},
		{"qualified template", "a[i] = T::template cast<float>(a[i]);"},
		{"member template in an index", "a[s.template off<2>(i)] = 0;"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(t, "template <typename T, typename L> __global__ void k(float *a, L load, L *p, L s, int i) {\n    "+tt.stmt+"\n}\n")
			if len(f.Notes) != 0 {
				t.Errorf("%s: notes %v", tt.stmt, f.Notes)
			}
		})
	}
}

// Variadic templates read: parameter packs, pack expansions in calls,
// braces, template arguments and member initializers, and sizeof...; a
// pack parameter is marked so that arguments are not bound past it.
func TestVariadicTemplatesRead(t *testing.T) {
	tests := []struct{ name, stmt string }{
		{"expansion in a call", "f(x, args...);"},
		{"pattern expansion", "f((args.elem[i])...);"},
		{"braced expansion", "int v[4] = {i, static_cast<int>(args)...};"},
		{"sizeof...", "constexpr int n = 1 + sizeof...(args);"},
		{"left fold", "x = (..., (x = x + a[args]));"},
		{"left fold with an operator", "x = (... + args);"},
		{"pack template argument", "a[i] = G<float, Ts...>()(x, args...);"},
		{"decltype and a pack in template arguments", "a[i] = F<4, decltype(x), Ts...>(x, (args)...);"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(t, "template <typename... Ts> __device__ void k(float *a, int i, float x, const Ts&... args) {\n    "+tt.stmt+"\n}\n")
			if len(f.Notes) != 0 {
				t.Errorf("%s: notes %v", tt.stmt, f.Notes)
			}
		})
	}
	f := parse(t, "template <typename... Ts> struct W { W(Ts&&... args) : d(std::forward<Ts>(args)...) {} int d; };\n"+
		"template <typename T, typename... Ts> __global__ void g(T d0, const Ts*... srcs, T* dst) { dst[0] = d0; }\n")
	if len(f.Notes) != 0 {
		t.Errorf("notes %v", f.Notes)
	}
	var packs []string
	for _, fn := range f.Funcs {
		for _, p := range fn.Params {
			if p.Pack {
				packs = append(packs, fn.Name+"."+p.Name)
			}
		}
	}
	if got := strings.Join(packs, " "); got != "g.srcs" {
		t.Errorf("packs %q, want g.srcs", got)
	}
}

// A C++20 lambda template, [&]<typename T>(...) { }, reads as a lambda
// whose function has the template parameters.
func TestLambdaTemplateRead(t *testing.T) {
	f := parse(t, "__device__ void k(float *a) {\n  auto f = [&]<typename T, int N>(int i) { a[i] = N; };\n  g([&]<typename T>() { a[0] = 1; });\n}\n")
	if len(f.Notes) != 0 {
		t.Fatalf("notes %v", f.Notes)
	}
	var got []int
	Inspect(f.Funcs[0].Body, func(n Node) bool {
		if l, ok := n.(*Lambda); ok {
			got = append(got, len(l.Fn.Template))
		}
		return true
	})
	if len(got) != 2 || got[0] != 2 || got[1] != 1 {
		t.Errorf("lambda template parameters %v, want [2 1]", got)
	}
}
