package main

import (
	"fmt"
	"testing"
)

const (
	probes9   = "../../testdata/truth/probes9.cu"
	measured9 = "../../testdata/truth/source9.csv.gz"
)

// predicated9 are the probes9 rows the model predicts nvcc predicates
// (sass9.txt: @P0 LDG and @P0 STS): a load under c ? x : 0, and under a
// short if with code after it, whose condition leaves every lane of the
// first block off; that block's warps issue it too, under a grid the
// launch gives. Not: q_tern_lane, predicated but with lanes on in every
// warp, so that its figures are the same either way.
var predicated9 = map[string]bool{
	"q_tern_head:44:load:global": true,
	"q_if_head:62:load:global":   true, "q_if_head:62:store:shared": true,
}

// hoisted9 are the probes9 loads nvcc hoists out of their loop (sass9.txt:
// q_hoist's LDG of u[i] before the loop, q_nohoist's inside it, after a
// store that may change it): the measured line runs once per warp, 512
// warps (64 blocks of 256 threads), where the other runs every iteration.
var hoisted9 = map[string]bool{"q_hoist:80:load:global": true, "q_nohoist:93:load:global": false}

// TestMeasuredHostOffsets compares the access table for probes9.cu
// (pointers host code advances before a launch: null-declared and set
// by cudaMalloc, swapped in a host loop, offset by a value a usage check
// fixes; loads under a conditional expression) with what Nsight Compute
// measured on an H200: every measured line's figures per instruction
// issued, and the rows said to be predicated are those listed.
func TestMeasuredHostOffsets(t *testing.T) {
	lines := readMeasuredFile(t, measured9)
	rows := accessTable(t, "--accesses", "--format", "json", probes9)
	byKey := map[string][]accessJSON{}
	for _, r := range rows {
		k := fmt.Sprintf("%s:%d:%s:%s", r.Kernel, r.Line, r.Op, r.Space)
		byKey[k] = append(byKey[k], r)
	}
	seen := map[string]bool{}
	for _, m := range lines {
		k := fmt.Sprintf("%s:%d:%s:%s", m.Function, m.Line, m.Op, m.Space)
		got := byKey[k]
		if len(got) != 1 {
			t.Errorf("%s: %d predictions for one measured line", k, len(got))
			continue
		}
		seen[k] = true
		p := got[0]
		if h, ok := hoisted9[k]; ok {
			if p.Hoisted != h || (m.Instructions == 512) != h {
				t.Errorf("%s %s: hoisted %v, want %v (%d instructions executed for 512 warps)", k, p.Expr, p.Hoisted, h, m.Instructions)
			}
		} else if p.Hoisted {
			t.Errorf("%s %s: hoisted, which the measured SASS does not show", k, p.Expr)
		}
		if p.Predicated != predicated9[k] {
			t.Errorf("%s %s: predicated %v, want %v", k, p.Expr, p.Predicated, predicated9[k])
		}
		checkPerInstruction(t, k, p, m)
	}
	for k := range predicated9 {
		if !seen[k] {
			t.Errorf("%s: listed as predicated, but not measured", k)
		}
	}
	if len(lines) < 20 {
		t.Errorf("only %d measured lines; the table is incomplete", len(lines))
	}
}
