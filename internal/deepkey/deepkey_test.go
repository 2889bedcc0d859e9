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
