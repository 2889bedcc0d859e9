package symbolic

import (
	"math/rand/v2"
	"sort"
	"testing"
)

// FalseWhen finds the lane-free operands that decide a condition false,
// and each one it gives does: whenever it evaluates to its truth value,
// the condition evaluates to 0, known, whatever the lanes hold (or when
// they hold nothing).
func TestFalseWhen(t *testing.T) {
	by := BlockIdx(Y).Sym()
	n := Sym("n", Uniform)
	lane := func(id SymID) bool { return id == idOf(tx) || id == idOf(ty) }
	and := func(x, y Expr) Expr { return Binary(OpLAnd, x, y) }
	or := func(x, y Expr) Expr { return Binary(OpLOr, x, y) }
	lt := func(x, y Expr) Expr { return Binary(OpLt, x, y) }
	tests := []struct {
		name string
		cond Expr
		want []string // the deciders, "part=when", sorted
	}{
		{"lanes only", lt(tx, c(7)), nil},
		{"and", and(lt(bx, c(3)), lt(tx, n)), []string{"(blockIdx.x < 3)=false"}},
		{"early return", Not(or(or(lt(c(0), by), lt(c(0), bx)), lt(n, Add(tx, c(1))))),
			[]string{"((0 < blockIdx.x) || (0 < blockIdx.y))=true"}},
		{"nested and under not or", and(Not(or(lt(n, c(4)), lt(tx, c(2)))), and(lt(ty, n), Binary(OpEq, bx, c(0)))),
			[]string{"(0 == blockIdx.x)=false", "(n < 4)=true"}},
		{"or of lanes decides nothing false", or(lt(bx, c(3)), lt(tx, n)), nil},
		{"a comparison mixing both", lt(Add(bx, tx), n), nil},
		{"a division that may be undefined", and(lt(Binary(OpDiv, c(8), n), c(2)), lt(tx, c(9))), []string{"((8 / n) < 2)=false"}},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds := FalseWhen(tt.cond, lane)
			var got []string
			for _, d := range ds {
				s := "(" + d.Part.String() + ")=false"
				if d.When {
					s = "(" + d.Part.String() + ")=true"
				}
				got = append(got, s)
			}
			sort.Strings(got)
			if len(got) != len(tt.want) {
				t.Fatalf("deciders %q, want %q", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("deciders %q, want %q", got, tt.want)
				}
			}
			fired := 0
			for k := 0; k < 2000; k++ {
				bind := map[SymID]int64{idOf(bx): rng.Int64N(5), idOf(by): rng.Int64N(3)}
				if k%3 != 0 {
					bind[idOf(n)] = rng.Int64N(6) // 0 makes 8 / n undefined
				}
				if k%5 != 0 {
					bind[idOf(tx)], bind[idOf(ty)] = rng.Int64N(12), rng.Int64N(12)
				}
				for _, d := range ds {
					v, ok := Eval(d.Part, bind)
					if !ok || (v != 0) != d.When {
						continue
					}
					fired++
					if cv, cok := Eval(tt.cond, bind); !cok || cv != 0 {
						t.Fatalf("%s is %d, decided false by %s at %v: got %d (known %v)", tt.cond, v, d.Part, bind, cv, cok)
					}
				}
			}
			if len(ds) > 0 && fired == 0 {
				t.Errorf("no decider fired in 2000 bindings: the case tests nothing")
			}
		})
	}
}
