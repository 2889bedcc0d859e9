package parser

import (
	"fmt"
	"strings"
	"testing"
)

// label names a node for the walk tests: an expression by its text, a
// statement by its type.
func label(n Node) string {
	if e, ok := n.(Expr); ok {
		return Format(e)
	}
	return strings.TrimPrefix(fmt.Sprintf("%T", n), "*parser.")
}

func bodyOf(t *testing.T, src string) *Block {
	t.Helper()
	f := parse(t, "__device__ void h(int *p, int n) { "+src+" }")
	h := funcNamed(f, "h")
	if h == nil || len(f.Notes) > 0 {
		t.Fatalf("%s: not parsed; notes %v", src, f.Notes)
	}
	return h.Body
}

func TestInspectOrderAndPruning(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		prune string // the label whose children are skipped
		want  string
	}{
		{"source order", "for (int i = 0; i < n; i++) p[i] = -i;", "",
			"Block For DeclStmt 0 i < n i n i++ i ExprStmt p[i] = -i p[i] p i -i i"},
		{"prune an expression", "if (n > 0 && p[n]) return n + 1;", "n > 0",
			"Block If n > 0 && p[n] n > 0 p[n] p n Return n + 1 n 1"},
		{"prune a statement", "while (n) { n--; } p[0] = 1;", "While",
			"Block While ExprStmt p[0] = 1 p[0] p 0 1"},
		{"lambda bodies and launches", "auto g = [&](int k) { p[k] = 0; }; k<<<1, n>>>(p);", "",
			"Block DeclStmt [](...) {...} Block ExprStmt p[k] = 0 p[k] p k 0 ExprStmt k<<<1, n>>>(p) k 1 n p"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			depth := 0
			Inspect(bodyOf(t, tt.src), func(n Node) bool {
				if n == nil {
					depth--
					return false
				}
				got = append(got, label(n))
				if label(n) == tt.prune {
					return false
				}
				depth++
				return true
			})
			if s := strings.Join(got, " "); s != tt.want {
				t.Errorf("visited\n  %s\nwant\n  %s", s, tt.want)
			}
			if depth != 0 {
				t.Errorf("f(nil) calls do not match the descents: depth %d", depth)
			}
		})
	}
}

// The old walkers keep their meaning on top of Inspect.
func TestWalkersOnInspect(t *testing.T) {
	b := bodyOf(t, "for (int i = 0; i < n; i++) { if (i) break; } auto g = [&]() { return; };")
	var exprs, stmts []string
	WalkStmt(b, func(e Expr) { exprs = append(exprs, Format(e)) })
	EachStmt(b, func(s Stmt) { stmts = append(stmts, label(s)) })
	if got, want := strings.Join(exprs, " "), "0 i < n i n i++ i i [](...) {...}"; got != want {
		t.Errorf("WalkStmt visited %s, want %s", got, want)
	}
	// No for initialiser, nothing inside the lambda.
	if got, want := strings.Join(stmts, " "), "Block For Block If Jump DeclStmt"; got != want {
		t.Errorf("EachStmt visited %s, want %s", got, want)
	}
}
