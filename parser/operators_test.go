package parser

import "testing"

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
	want := map[string]int{"operator[]": 1, "operator T *": 0, "operator const T *": 0} // name: parameters
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
		if name != "operator[]" && (m.Result == nil || m.Result.Ptr != 1 || len(m.Result.Words) != 1 || m.Result.Words[0] != "T") {
			t.Errorf("%s: result %+v, want T*", name, m.Result)
		}
	}
}
