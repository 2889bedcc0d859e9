package parser

import (
	"strings"
	"testing"

	"github.com/cudalint/cudalint/parser/ptx"
)

// asmOf parses a kernel whose body is stmt and returns its one statement.
func asmOf(t *testing.T, pre, stmt string) (Stmt, *File) {
	t.Helper()
	f := Parse("k.cu", []byte(pre+"\n__global__ void k(float* p, unsigned a) {\n"+stmt+"\n}\n"), Config{})
	k := funcNamed(f, "k")
	if k == nil || len(k.Body.Stmts) != 1 {
		t.Fatalf("kernel body %+v", k)
	}
	return k.Body.Stmts[0], f
}

func TestAsmStatements(t *testing.T) {
	tests := []struct {
		name, pre, stmt string
		outputs, ops    int
		instrs          []ptx.Class
		bad             string // the BadStmt's note, when skipped
	}{
		{"a load with its outputs and inputs", "", `float x, y; asm volatile("ld.global.v2.f32 {%0, %1}, [%2];" : "=f"(x), "=f"(y) : "l"(p));`, 2, 3, []ptx.Class{ptx.Load}, ""},
		{"inputs only, after ::", "", `asm volatile("st.global.b32 [%0], %1;" :: "l"(p), "f"(1.0f) : "memory");`, 0, 2, []ptx.Class{ptx.Store}, ""},
		{"a template in pieces through a macro", "#define CP(d, s) asm volatile(\"cp.async.cg.shared.global\" \".L2::128B [%0], \" \"[%1], %2;\\n\" ::\"r\"(d), \"l\"(s), \"n\"(16))",
			`CP(a, p);`, 0, 3, []ptx.Class{ptx.AsyncCopy}, ""},
		{"__asm__ __volatile__ and named operands", "", `__asm__ __volatile__("red.global.add.f32 [%[ptr]], %[v];" :: [ptr] "l"(p + 1), [v] "f"(2.0f));`, 0, 2, []ptx.Class{ptx.Atomic}, ""},
		{"a fence alone", "", `asm volatile("fence.acq_rel.gpu;" ::: "memory");`, 0, 0, []ptx.Class{ptx.Compute}, ""},
		{"wgmma stays skipped, named", "", `asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");`, 0, 0, nil, "wgmma.fence.sync.aligned is not modelled"},
		{"a memory operand for the address", "", `asm volatile("ld.global.b32 %0, [%1];" : "=r"(a) : "m"(p));`, 0, 0, nil, "not an input operand held in a register"},
		{"an operand past the list", "", `asm volatile("ld.global.b32 %0, [%3];" : "=r"(a) : "l"(p));`, 0, 0, nil, "template not understood"},
		{"asm goto", "", `asm goto("bra %l0;" :::: done);`, 0, 0, nil, "asm goto"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, f := asmOf(t, tt.pre, "{"+tt.stmt+"}") // a block: declarations may come first
			b := s.(*Block)
			last := b.Stmts[len(b.Stmts)-1]
			if tt.bad != "" {
				bs, ok := last.(*BadStmt)
				if !ok || !strings.Contains(bs.Note, tt.bad) {
					t.Fatalf("got %#v, want a BadStmt noting %q", last, tt.bad)
				}
				found := false
				for _, n := range f.Notes {
					found = found || strings.Contains(n.Msg, tt.bad)
				}
				if !found {
					t.Errorf("no note names the cause; notes %v", f.Notes)
				}
				return
			}
			a, ok := last.(*Asm)
			if !ok {
				t.Fatalf("got %#v, want an Asm", last)
			}
			if a.Outputs != tt.outputs || len(a.Operands) != tt.ops {
				t.Errorf("%d outputs of %d operands, want %d of %d", a.Outputs, len(a.Operands), tt.outputs, tt.ops)
			}
			var got []ptx.Class
			for _, in := range a.Instrs {
				got = append(got, in.Class)
			}
			if len(got) != len(tt.instrs) || (len(got) > 0 && got[0] != tt.instrs[0]) {
				t.Errorf("instructions %v, want %v", got, tt.instrs)
			}
			if len(f.Notes) > 0 {
				t.Errorf("notes %v", f.Notes)
			}
		})
	}
}

func TestUnescape(t *testing.T) {
	for lit, want := range map[string]string{`"a\n\tb"`: "a\n\tb", `"\"q\""`: `"q"`, `"\x41\101"`: "AA", `"%%laneid"`: "%%laneid"} {
		if got, ok := unescape(lit); !ok || got != want {
			t.Errorf("unescape(%s) = %q, %v; want %q", lit, got, ok, want)
		}
	}
}
