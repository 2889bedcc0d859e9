package cpp

import (
	"slices"
	"testing"
)

// build makes the set of names by adding them one at a time.
func build(s *hideSets, names ...string) *hideSet {
	var h *hideSet
	for _, n := range names {
		h = s.with(h, n)
	}
	return h
}

func members(s *hideSets, h *hideSet, universe []string) []string {
	var in []string
	for _, n := range universe {
		if s.has(h, n) {
			in = append(in, n)
		}
	}
	return in
}

// Equal sets are one value however they were made, so the caches keyed by
// pointer serve every way of reaching a set; the operations are set
// operations.
func TestHideSetsOperations(t *testing.T) {
	universe := []string{"A", "B", "C", "D", "E"}
	tests := []struct {
		name      string
		a, b      []string
		union     []string
		intersect []string
	}{
		{"disjoint", []string{"A", "B"}, []string{"C"}, []string{"A", "B", "C"}, nil},
		{"overlap", []string{"C", "A", "B"}, []string{"B", "D", "C"}, []string{"A", "B", "C", "D"}, []string{"B", "C"}},
		{"same names, other order", []string{"E", "A"}, []string{"A", "E"}, []string{"A", "E"}, []string{"A", "E"}},
		{"one empty", nil, []string{"D"}, []string{"D"}, nil},
		{"repeats", []string{"A", "A", "B"}, []string{"B", "B"}, []string{"A", "B"}, []string{"B"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newHideSets()
			a, b := build(s, tt.a...), build(s, tt.b...)
			for _, op := range []struct {
				name      string
				got, want *hideSet
				names     []string
			}{
				{"union", s.union(a, b), build(s, tt.union...), tt.union},
				{"union reversed", s.union(b, a), build(s, tt.union...), tt.union},
				{"intersect", s.intersect(a, b), build(s, tt.intersect...), tt.intersect},
				{"intersect reversed", s.intersect(b, a), build(s, tt.intersect...), tt.intersect},
			} {
				if op.got != op.want {
					t.Errorf("%s: not the interned set of %v", op.name, op.names)
				}
				if got := members(s, op.got, universe); !slices.Equal(got, op.names) {
					t.Errorf("%s = %v, want %v", op.name, got, op.names)
				}
			}
			if s.has(a, "Z") {
				t.Errorf("a name never seen is in a set")
			}
		})
	}
}
