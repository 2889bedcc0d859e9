// Package udiff writes unified diffs of two versions of a text file, as
// diff -u and git diff do, so that --diff output can be read by people
// and applied with patch -p1 or git apply. Lines are compared with
// Myers' O(ND) algorithm: the fixes it shows change a few lines of large
// files, where D is small.
package udiff

import (
	"fmt"
	"sort"
	"strings"
)

// Context is the number of unchanged lines shown around each change.
const Context = 3

type opKind byte

const (
	equal  opKind = ' '
	delete opKind = '-'
	insert opKind = '+'
)

type op struct {
	kind opKind
	text string // the line, with its "\n" when it has one
}

// Unified returns the diff from a to b under the names oldName and
// newName ("a/k.cu", "b/k.cu"), or "" when they are equal.
func Unified(oldName, newName string, a, b []byte) string {
	if string(a) == string(b) {
		return ""
	}
	ops := diffLines(splitLines(string(a)), splitLines(string(b)))
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	for _, h := range hunks(ops) {
		writeHunk(&out, ops, h)
	}
	return out.String()
}

// splitLines splits s after each "\n"; a last line without one is kept.
func splitLines(s string) []string {
	var lines []string
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return append(lines, s)
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

// diffLines returns an edit script from a to b: the common prefix and
// suffix are kept aside, the middle goes through Myers.
func diffLines(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []op
	for _, l := range a[:pre] {
		ops = append(ops, op{equal, l})
	}
	ops = append(ops, compact(myers(a[pre:len(a)-suf], b[pre:len(b)-suf]))...)
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, op{equal, l})
	}
	return ops
}

// myers finds a shortest edit script. trace[d] keeps the furthest x
// reached on each diagonal k in [-d-1, d+1] before step d, which is what
// walking back from the end needs: O(D²) memory rather than O(N·D).
func myers(a, b []string) []op {
	n, m := len(a), len(b)
	max := n + m
	off := max + 1
	v := make([]int, 2*max+3)
	var trace [][]int
	for d := 0; d <= max; d++ {
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: an insertion
			} else {
				x = v[off+k-1] + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(a, b, trace, d)
			}
		}
	}
	return nil // not reached: d = n+m always ends
}

func backtrack(a, b []string, trace [][]int, dmax int) []op {
	var rev []op
	x, y := len(a), len(b)
	for d := dmax; d > 0; d-- {
		at := func(k int) int { return trace[d][k+d+1] }
		k := x - y
		prevK := k - 1
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			prevK = k + 1
		}
		prevX := at(prevK)
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			rev = append(rev, op{equal, a[x-1]})
			x, y = x-1, y-1
		}
		if x == prevX {
			rev = append(rev, op{insert, b[y-1]})
			y--
		} else {
			rev = append(rev, op{delete, a[x-1]})
			x--
		}
	}
	for x > 0 && y > 0 {
		rev = append(rev, op{equal, a[x-1]})
		x, y = x-1, y-1
	}
	ops := make([]op, len(rev))
	for i, o := range rev {
		ops[len(rev)-1-i] = o
	}
	return ops
}

// compact makes a shortest script read as diff -u's do. Myers may put
// "+q, a, -a" where "-a, +q, a" says the same; a run of deletions (or
// insertions) after an equal line that matches the run's last line
// slides up by one: only the kinds of those two lines change. Then each
// block of changes lists its deletions first.
func compact(ops []op) []op {
	for moved := true; moved; {
		moved = false
		for i := 1; i < len(ops); i++ {
			if ops[i].kind == equal || ops[i-1].kind != equal {
				continue
			}
			e := i
			for e < len(ops) && ops[e].kind == ops[i].kind {
				e++
			}
			if ops[i-1].text == ops[e-1].text {
				ops[i-1].kind, ops[e-1].kind = ops[i].kind, equal
				moved = true
			}
		}
	}
	for i := 0; i < len(ops); {
		e := i
		for e < len(ops) && ops[e].kind != equal {
			e++
		}
		sort.SliceStable(ops[i:e], func(x, y int) bool { return ops[i+x].kind == delete && ops[i+y].kind == insert })
		i = e + 1
	}
	return ops
}

// hunk is a range [from, to) of ops to print.
type hunk struct{ from, to int }

// hunks groups the changes with Context lines around them; changes
// closer than twice Context share a hunk.
func hunks(ops []op) []hunk {
	var out []hunk
	for i := 0; i < len(ops); i++ {
		if ops[i].kind == equal {
			continue
		}
		from := max(i-Context, 0)
		to := i + 1
		for j := i + 1; j < len(ops) && j <= to+2*Context; j++ {
			if ops[j].kind != equal {
				to = j + 1
			}
		}
		to = min(to+Context, len(ops))
		if n := len(out); n > 0 && from <= out[n-1].to {
			out[n-1].to = to
		} else {
			out = append(out, hunk{from, to})
		}
		i = to - 1
	}
	return out
}

func writeHunk(out *strings.Builder, ops []op, h hunk) {
	// Line numbers: count what comes before the hunk on each side.
	aLine, bLine := 0, 0
	for _, o := range ops[:h.from] {
		if o.kind != insert {
			aLine++
		}
		if o.kind != delete {
			bLine++
		}
	}
	aLen, bLen := 0, 0
	for _, o := range ops[h.from:h.to] {
		if o.kind != insert {
			aLen++
		}
		if o.kind != delete {
			bLen++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", span(aLine, aLen), span(bLine, bLen))
	for _, o := range ops[h.from:h.to] {
		out.WriteByte(byte(o.kind))
		out.WriteString(o.text)
		if !strings.HasSuffix(o.text, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// span writes a hunk's range as diff does: "start,len", the start being
// the line before when the range is empty, and ",1" left out.
func span(before, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", before)
	case 1:
		return fmt.Sprint(before + 1)
	}
	return fmt.Sprintf("%d,%d", before+1, n)
}
