package deepkey

import (
	"reflect"
	"strings"
	"testing"
)

type node struct {
	Name string
	Next *node
	Tags map[string]int
}

type item struct{ N int }

func key(v any, identity func(reflect.Type) bool) string {
	var b strings.Builder
	Write(&b, reflect.ValueOf(v), identity)
	return b.String()
}

// Equal content is one key, different content another; a cycle ends; a
// map's order does not matter; an identity type is its address.
func TestWrite(t *testing.T) {
	a := &node{Name: "a", Tags: map[string]int{"x": 1, "y": 2}}
	b := &node{Name: "a", Tags: map[string]int{"y": 2, "x": 1}}
	if key(a, nil) != key(b, nil) {
		t.Errorf("equal content, keys %q and %q", key(a, nil), key(b, nil))
	}
	b.Tags["y"] = 3
	if key(a, nil) == key(b, nil) {
		t.Errorf("different content, one key %q", key(a, nil))
	}
	a.Next = a // a cycle
	if k := key(a, nil); !strings.Contains(k, "^0") {
		t.Errorf("cycle written as %q, want a back reference", k)
	}
	isItem := func(t reflect.Type) bool { return t == reflect.TypeOf(item{}) }
	x, y := &item{1}, &item{1}
	if key(x, isItem) == key(y, isItem) || key(x, nil) != key(y, nil) {
		t.Errorf("identity: %q %q; content: %q %q", key(x, isItem), key(y, isItem), key(x, nil), key(y, nil))
	}
}

type pair struct {
	A struct{ N int }
	B *struct{ N int }
}

// A struct and its first field share an address: meeting one after the
// other is not a back reference; and a map's entries are numbered alike
// whatever order the map iterates in.
func TestWritePlaces(t *testing.T) {
	p := &pair{}
	p.B = &p.A
	q := &pair{B: &struct{ N int }{}}
	if key(p, nil) != key(q, nil) {
		t.Errorf("a pointer to the first field is its own content: %q vs %q", key(p, nil), key(q, nil))
	}
	shared := &item{1}
	m := map[string]*item{"a": shared, "b": shared, "c": {2}}
	first := key(m, nil)
	for i := 0; i < 20; i++ {
		if k := key(m, nil); k != first {
			t.Fatalf("a map's key changed between writes: %q vs %q", first, k)
		}
	}
}
