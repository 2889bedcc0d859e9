package ptx

import (
	"strings"
	"testing"
)

// One row per instruction form the model follows, and the forms it must
// refuse with a cause.
func TestDecode(t *testing.T) {
	four := []string{"", "", "", "", ""}
	tests := []struct {
		name, tmpl string
		names      []string
		class      Class
		space      string
		width      int64
		addr       int   // the asm operand of the (first) address, -1 for none
		off        int64 // its byte offset
		why        string
	}{
		{"ld.global.nc.v4.f32", "ld.global.nc.v4.f32 {%0,%1,%2,%3}, [%4];", four, Load, "global", 16, 4, 0, ""},
		{"ld with an offset", "ld.global.v2.u32 {%0, %1}, [%2+8];", []string{"", "", ""}, Load, "global", 8, 2, 8, ""},
		{"ld with cache qualifiers", "ld.global.nc.L1::no_allocate.L2::256B.v4.s32 {%0,%1,%2,%3}, [%4];", four, Load, "global", 16, 4, 0, ""},
		{"ld generic", "ld.b32 %0, [%1];", []string{"", ""}, Load, "", 4, 1, 0, ""},
		{"ld.shared.b16", "ld.shared.b16 %0, [%1];", []string{"", ""}, Load, "shared", 2, 1, 0, ""},
		{"ld.volatile.shared::cta", "ld.volatile.shared::cta.u64 %0, [%1 - 16];", []string{"", ""}, Load, "shared", 8, 1, -16, ""},
		{"st.global.v4", "st.global.v4.f32 [%0], {%1, %2, %3, %4};", four, Store, "global", 16, 0, 0, ""},
		{"st.shared.v2", "st.shared.v2.b32 [%0], {%1, %2};", []string{"", "", ""}, Store, "shared", 8, 0, 0, ""},
		{"named operands", "st.global.b32 [%[dst]], %[v];", []string{"v", "dst"}, Store, "global", 4, 1, 0, ""},
		{"red.global.add", "red.global.add.f32 [%0], %1;", []string{"", ""}, Atomic, "global", 4, 0, 0, ""},
		{"red with a scope", "red.relaxed.gpu.global.add.noftz.f16x2 [%0], %1;", []string{"", ""}, Atomic, "global", 4, 0, 0, ""},
		{"atom.global.cas", "atom.global.cas.b32 %0, [%1], %2, %3;", four, Atomic, "global", 4, 1, 0, ""},
		{"cp.async.cg with an operand size", "cp.async.cg.shared.global.L2::128B [%0], [%1], %2;\n", []string{"", "", ""}, AsyncCopy, "global", 0, 0, 0, ""},
		{"cp.async.ca with a number", "cp.async.ca.shared.global [%0], [%1], 4;", []string{"", ""}, AsyncCopy, "global", 4, 0, 0, ""},
		{"ldmatrix x4", "ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];\n", four, LoadMatrix, "shared", 16, 4, 0, ""},
		{"ldmatrix x1 trans", "ldmatrix.sync.aligned.x1.trans.m8n8.shared.b16 {%0}, [%1];", []string{"", ""}, LoadMatrix, "shared", 16, 1, 0, ""},
		{"stmatrix x2", "stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};", []string{"", "", ""}, StoreMatrix, "shared", 16, 0, 0, ""},
		{"mma", "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};",
			make([]string, 10), Compute, "", 0, -1, 0, ""},
		{"commit_group", "cp.async.commit_group;\n", nil, Compute, "", 0, -1, 0, ""},
		{"wait_group", "cp.async.wait_group %0;\n", []string{""}, Compute, "", 0, -1, 0, ""},
		{"laneid", "mov.u32 %0, %%laneid;", []string{""}, LaneID, "", 0, -1, 0, ""},
		{"cvta to a global address: the same place", "cvta.to.global.u64 %0, %1;", []string{"", ""}, Move, "", 0, -1, 0, ""},
		{"cvta from a global address", "cvta.global.u64 %0, %1;", []string{"", ""}, Move, "", 0, -1, 0, ""},
		{"a 64-bit mov copies", "mov.b64 %0, %1;", []string{"", ""}, Move, "", 0, -1, 0, ""},
		{"a 32-bit mov computes", "mov.b32 %0, %1;", []string{"", ""}, Compute, "", 0, -1, 0, ""},
		{"cvta to shared is not followed", "cvta.to.shared.u64 %0, %1;", []string{"", ""}, Unmodelled, "", 0, -1, 0, "cvta.to.shared.u64 is not modelled"},
		{"ld.local", "ld.local.b32 %0, [%1];", []string{"", ""}, Unmodelled, "", 0, -1, 0, "state space"},
		{"ld.shared::cluster", "ld.shared::cluster.b32 %0, [%1];", []string{"", ""}, Unmodelled, "", 0, -1, 0, "state space"},
		{"cp.async.bulk", "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];", four, Unmodelled, "", 0, -1, 0, "not modelled"},
		{"wgmma", "wgmma.fence.sync.aligned;", nil, Unmodelled, "", 0, -1, 0, "wgmma.fence.sync.aligned is not modelled"},
		{"address computed in the asm", "ld.global.b32 %0, [r1];", []string{""}, Unmodelled, "", 0, -1, 0, "computed inside the asm"},
		{"ldmatrix m16n16", "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%0, %1}, [%2];", []string{"", "", ""}, Unmodelled, "", 0, -1, 0, "m8n8"},
		{"ld.global.v8.f32 is wider than modelled", "ld.global.v8.f32 {%0,%1,%2,%3,%4,%5,%6,%7}, [%8];", make([]string, 9), Unmodelled, "", 0, -1, 0, "wider than 16 bytes"},
		{"a predicate nothing sets", "@%0 ld.global.b32 %1, [%2];", []string{"", "", ""}, Unmodelled, "", 0, -1, 0, "predicate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ins, err := Decode(tt.tmpl, tt.names)
			if err != nil {
				t.Fatal(err)
			}
			if len(ins) != 1 {
				t.Fatalf("%d instructions %+v, want 1", len(ins), ins)
			}
			in := ins[0]
			if in.Class != tt.class || in.Space != tt.space || in.Width != tt.width {
				t.Errorf("class %d space %q width %d, want %d %q %d (%s)", in.Class, in.Space, in.Width, tt.class, tt.space, tt.width, in.Why)
			}
			if tt.why != "" && !strings.Contains(in.Why, tt.why) {
				t.Errorf("why %q, want it to mention %q", in.Why, tt.why)
			}
			a, ok := in.Addr()
			if tt.addr < 0 {
				return
			}
			if !ok || a.Index != tt.addr || a.Value != tt.off {
				t.Errorf("address %+v (%v), want operand %d + %d", a, ok, tt.addr, tt.off)
			}
		})
	}
}

// A predicated copy in its own scope, CUTLASS's way: the declaration is
// dropped, setp defines the predicate the copy uses.
func TestDecodePredicatedScope(t *testing.T) {
	tmpl := "{\n  .reg .pred p;\n  setp.ne.b32 p, %0, 0;\n  @p cp.async.cg.shared.global [%1], [%2], %3;\n}\n"
	ins, err := Decode(tmpl, []string{"", "", "", ""})
	if err != nil {
		t.Fatal(err)
	}
	if len(ins) != 2 || ins[0].Class != SetPredicate || ins[0].Cmp != "ne" || ins[1].Class != AsyncCopy || ins[1].Pred != "p" || ins[1].PredNot {
		t.Fatalf("got %+v", ins)
	}
	if _, bad := FirstUnmodelled(ins); bad {
		t.Error("an unmodelled instruction in a modelled template")
	}
}

// Templates the decoder cannot read are errors, never a guess.
func TestDecodeErrors(t *testing.T) {
	for _, tmpl := range []string{
		"ld.global.b32 %0, [%5];",         // past the operand list
		"st.global.b32 [%[nope]], %0;",    // no such name
		"ld.global.v2.f32 {%0, %1, [%2];", // unbalanced
		"ld.global.b32 %0, [%1+x];",       // an offset that is no number
	} {
		if _, err := Decode(tmpl, []string{"", "", ""}); err == nil {
			t.Errorf("%q: no error", tmpl)
		}
	}
}

func TestStatements(t *testing.T) {
	got := statements(stripComments("{ .reg .b32 r; // a comment\n mov.u32 r, %0; /* c */ }\n"))
	if len(got) != 2 || got[0] != ".reg .b32 r" || got[1] != "mov.u32 r, %0" {
		t.Errorf("statements %q", got)
	}
}

// MovesMemory reads the opcodes alone, so it answers for templates the
// model refuses: what matters is whether the kernel's cost misses bytes.
func TestMovesMemory(t *testing.T) {
	tests := []struct {
		template string
		want     bool
	}{
		{"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];", true},
		{"cp.async.cg.shared.global [%0], [%1], 16;", true},
		{"{ .reg .pred p; setp.ne.b32 p, %0, 0; @p ld.global.v4.u32 {%1,%2,%3,%4}, [%5]; }", true},
		{"L1: red.global.add.f32 [%0], %1;", true},
		{"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};", false},
		{"cvta.to.shared.u64 %0, %1;", false},
		{"bar.sync 0;", false},
		{"wgmma.fence.sync.aligned;", false},
		{"wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0}, %1, %2, 1, 1, 1, 0, 0;", true},
		{"mov.u32 %0, %%laneid;", false},
	}
	for _, tt := range tests {
		if got := MovesMemory(tt.template); got != tt.want {
			t.Errorf("MovesMemory(%q) = %v, want %v", tt.template, got, tt.want)
		}
	}
}
