package parser

import (
	"strings"
	"testing"
)

// TestMemberOperators: a member operator[] and a conversion operator to
// a pointer are kept as methods (the interpreter runs them: obj[i], T* p
// = Cls<T>()), the conversion with its result type; other operators are
// dropped, without a note.
func TestMemberOperators(t *testing.T) {
	f := parse(t, `template<class T, int N> struct A {
  T a[N];
  __device__ T& operator[](int i) { return a[i]; }
  __device__ operator T *() { return a; }
  __device__ operator const T *() const { return a; }
  __device__ T operator()(T x, T y) const { return x + y; }
  __device__ A& operator=(const A& o) { return *this; }
  __device__ A operator+(const A& o) const { return o; }
};`)
	for _, n := range f.Notes {
		t.Errorf("note %s", n.Msg)
	}
	var s *Struct
	for _, x := range f.Structs {
		if x.Name == "A" {
			s = x
		}
	}
	if s == nil {
		t.Fatal("struct A not parsed")
	}
	want := map[string]int{"operator[]": 1, "operator()": 2, "operator T *": 0, "operator const T *": 0} // name: parameters
	got := map[string]*Func{}
	for _, m := range s.Methods {
		got[m.Name] = m
	}
	if len(got) != len(want) {
		t.Errorf("methods %v, want %v", got, want)
	}
	for name, params := range want {
		m := got[name]
		if m == nil || len(m.Params) != params || m.Body == nil {
			t.Errorf("method %q: %+v", name, m)
			continue
		}
		if strings.HasPrefix(name, "operator ") && (m.Result == nil || m.Result.Ptr != 1 || len(m.Result.Words) != 1 || m.Result.Words[0] != "T") {
			t.Errorf("%s: result %+v, want T*", name, m.Result)
		}
	}
}

// TestMemberTypedefs: a class's aliases are its own (size_type, a
// typedef of T), never the file's, and do not become type names of the
// file's code; a typedef of a struct body is not one.
func TestMemberTypedefs(t *testing.T) {
	f := parse(t, `template<class T> struct A {
  using size_type = int;
  typedef T value_type;
  typedef struct { int x; } inner_t;
  T v[4];
};
__global__ void k(float* p) { int size_type = 2; p[size_type] = 0; }`)
	var s *Struct
	for _, x := range f.Structs {
		if x.Name == "A" {
			s = x
		}
	}
	if s == nil {
		t.Fatal("struct A not parsed")
	}
	var names []string
	for _, td := range s.Typedefs {
		names = append(names, td.Name)
	}
	if strings.Join(names, " ") != "size_type value_type" {
		t.Errorf("member aliases %v, want size_type value_type", names)
	}
	for _, td := range f.Typedefs {
		if td.Name == "size_type" || td.Name == "value_type" {
			t.Errorf("%s is a file-scope alias", td.Name)
		}
	}
	for _, n := range f.Notes {
		t.Errorf("note %s", n.Msg)
	}
	if k := funcNamed(f, "k"); k == nil || len(k.Body.Stmts) != 2 {
		t.Errorf("kernel k: %+v", k)
	}
}
