package udiff

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

func numbered(n int, change map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if s, ok := change[i]; ok {
			b.WriteString(s)
			continue
		}
		fmt.Fprintf(&b, "%d\n", i)
	}
	return b.String()
}

// The expected outputs are what GNU diff -u prints for the same inputs.
func TestUnified(t *testing.T) {
	tests := []struct {
		name, a, b, want string
	}{
		{"equal", "x\n", "x\n", ""},
		{"one line", numbered(12, nil), numbered(12, map[int]string{6: "six\n"}),
			"--- a/f\n+++ b/f\n@@ -3,7 +3,7 @@\n 3\n 4\n 5\n-6\n+six\n 7\n 8\n 9\n"},
		{"changes 6 lines apart share a hunk", numbered(12, nil), numbered(12, map[int]string{1: "X\n", 8: "Y\n"}),
			"--- a/f\n+++ b/f\n@@ -1,11 +1,11 @@\n-1\n+X\n 2\n 3\n 4\n 5\n 6\n 7\n-8\n+Y\n 9\n 10\n 11\n"},
		{"changes 7 lines apart do not", numbered(12, nil), numbered(12, map[int]string{1: "X\n", 9: "Y\n"}),
			"--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n-1\n+X\n 2\n 3\n 4\n@@ -6,7 +6,7 @@\n 6\n 7\n 8\n-9\n+Y\n 10\n 11\n 12\n"},
		{"insertion at the top", "a\n", "new\na\n", "--- a/f\n+++ b/f\n@@ -1 +1,2 @@\n+new\n a\n"},
		{"from empty", "", "a\n", "--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+a\n"},
		{"to empty", "a\nb\n", "", "--- a/f\n+++ b/f\n@@ -1,2 +0,0 @@\n-a\n-b\n"},
		{"no newline at the end", "a\nb", "a\nc", "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"},
		{"newline added at the end", "a", "a\n", "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n"},
		{"replacement reads as one", "d\na\na\na\ne\n", "d\na\nq\na\ne\n", "--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n d\n a\n-a\n+q\n a\n e\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Unified("a/f", "b/f", []byte(tt.a), []byte(tt.b)); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// Applying the diff to the old text gives the new one, for random edits.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for it := 0; it < 2000; it++ {
		a := randomLines(r)
		b := mutate(r, a)
		as, bs := strings.Join(a, "\n"), strings.Join(b, "\n")
		if r.Intn(2) == 0 {
			as += "\n"
		}
		if r.Intn(2) == 0 {
			bs += "\n"
		}
		d := Unified("a", "b", []byte(as), []byte(bs))
		got, err := patch(as, d)
		if err != nil || got != bs {
			t.Fatalf("%q -> %q: patch gives %q (%v)\n%s", as, bs, got, err, d)
		}
	}
}

func randomLines(r *rand.Rand) []string {
	var a []string
	for n := r.Intn(40); n > 0; n-- {
		a = append(a, string(rune('a'+r.Intn(5))))
	}
	return a
}

func mutate(r *rand.Rand, a []string) []string {
	b := append([]string(nil), a...)
	for e := r.Intn(6); e > 0; e-- {
		if len(b) == 0 {
			b = append(b, "z")
			continue
		}
		i := r.Intn(len(b))
		switch r.Intn(3) {
		case 0:
			b[i] = "q"
		case 1:
			b = append(b[:i], b[i+1:]...)
		default:
			b = append(b[:i], append([]string{"n"}, b[i:]...)...)
		}
	}
	return b
}

// patch applies a unified diff strictly: context and deleted lines must
// match, and hunk headers must agree with their bodies.
func patch(old, diff string) (string, error) {
	if diff == "" {
		return old, nil
	}
	src := splitLines(old)
	lines := splitLines(diff)[2:]
	var out []string
	next := 0 // index in src of the next line to copy
	for i := 0; i < len(lines); {
		var aStart, aLen, bStart, bLen int
		if _, err := fmt.Sscanf(expandSpan(lines[i]), "@@ -%d,%d +%d,%d @@", &aStart, &aLen, &bStart, &bLen); err != nil {
			return "", fmt.Errorf("header %q: %v", lines[i], err)
		}
		if aLen > 0 {
			aStart--
		}
		out = append(out, src[next:aStart]...)
		next = aStart
		i++
		gotA, gotB := 0, 0
		for ; i < len(lines) && !strings.HasPrefix(lines[i], "@@"); i++ {
			l := lines[i]
			text := l[1:]
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], `\`) {
				text = strings.TrimSuffix(text, "\n")
				i++
			}
			switch l[0] {
			case ' ', '-':
				if next >= len(src) || src[next] != text {
					return "", fmt.Errorf("line %d: %q does not match %q", next+1, text, src[min(next, len(src)-1)])
				}
				if l[0] == ' ' {
					out = append(out, text)
					gotB++
				}
				next++
				gotA++
			case '+':
				out = append(out, text)
				gotB++
			}
		}
		if gotA != aLen || gotB != bLen {
			return "", fmt.Errorf("hunk counts %d,%d, header says %d,%d", gotA, gotB, aLen, bLen)
		}
	}
	out = append(out, src[next:]...)
	return strings.Join(out, ""), nil
}

// expandSpan writes "-3" as "-3,1" so one Sscanf format reads headers.
func expandSpan(h string) string {
	f := strings.Fields(h)
	for i := 1; i <= 2 && i < len(f); i++ {
		if !strings.Contains(f[i], ",") {
			if _, err := strconv.Atoi(f[i][1:]); err == nil {
				f[i] += ",1"
			}
		}
	}
	return strings.Join(f, " ") + "\n"
}
