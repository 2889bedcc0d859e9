package launch

import "testing"

func TestFillBlock(t *testing.T) {
	cases := []struct {
		name  string
		given Dim3
		known [3]bool
		want  Dim3
		ok    bool
	}{
		{"dim3(1, n): y fills the block", Dim3{1, 0, 1}, [3]bool{true, false, true}, Dim3{1, 256, 1}, true},
		{"dim3(32, n): y takes 8", Dim3{32, 0, 1}, [3]bool{true, false, true}, Dim3{32, 8, 1}, true},
		{"dim3(n, 4): x takes 64", Dim3{0, 4, 1}, [3]bool{false, true, true}, Dim3{64, 4, 1}, true},
		{"dim3(512, n, m): the first unknown takes 1 when x is enough", Dim3{512, 0, 0}, [3]bool{true, false, false}, Dim3{512, 1, 1}, true},
		{"dim3(n, m, 3): x takes a power of two, 64, not 85", Dim3{0, 0, 3}, [3]bool{false, false, true}, Dim3{64, 1, 3}, true},
		{"dim3(n, 12): x takes 16", Dim3{0, 12, 1}, [3]bool{false, true, true}, Dim3{16, 12, 1}, true},
		{"nothing known: not a partial block", Dim3{}, [3]bool{}, Dim3{}, false},
		{"too many threads", Dim3{1024, 0, 4}, [3]bool{true, false, true}, Dim3{1024, 1, 4}, false},
	}
	for _, c := range cases {
		got, ok := fillBlock(c.given, c.known)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("%s: fillBlock(%v, %v) = %v, %v; want %v, %v", c.name, c.given, c.known, got, ok, c.want, c.ok)
		}
	}
}
