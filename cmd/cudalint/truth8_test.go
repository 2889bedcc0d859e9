package main

import (
	"fmt"
	"testing"

	"github.com/cudalint/cudalint/internal/ncu"
)

const (
	probes8   = "../../testdata/truth/probes8.cu"
	measured8 = "../../testdata/truth/source8.csv.gz"
)

// predicated8 are the probes8 rows the model predicts nvcc predicates
// (sass8.txt shows their instructions under @P, and the rest of them
// under a branch or behind @P EXIT): each side of every condition of
// analyzer/warp/predication.go.
var predicated8 = map[string]bool{
	"p_t0_mid:19:store:global": true, "p_t0_mid:19:load:shared": true, // code follows the if
	"p_t0_load:35:load:global": true, "p_t0_load:35:store:shared": true, // v = x[b]: the __shared__ scalar's STS too
	"p_t0_three:45:load:shared":  true,                                                                         // s[1..3]: one LDS.128
	"p_t0_three:45:store:global": true, "p_t0_three:46:store:global": true, "p_t0_three:47:store:global": true, // three statements
	"p_t0_512:101:store:global": true, "p_t0_512:101:load:shared": true,
	"p_t0_128:110:store:global": true, "p_t0_128:110:load:shared": true,
	"p_tail_mid:120:load:global": true, // the last block's warps 2..7 issue it
	// Not: p_t0_end (the kernel's end: @P0 EXIT), p_t0_five (five
	// statements), p_t0_loop and p_t0_call (a loop, a helper with one),
	// p_tail_end, and p_lane0_mid, predicated but with a lane on in every
	// warp, so that its figures are the same either way.
}

// unmodelled8 are measured lines with no row, which predication does not
// explain: a store nvcc moves to another line.
var unmodelled8 = map[string]string{
	"p_tail_mid:122:store:shared": "nvcc stores s[t] once, the select of 0 and x[i], at the next line",
}

// TestMeasuredPredication compares the access table for probes8.cu
// (guarded bodies nvcc predicates, or branches around) with what Nsight
// Compute measured on an H200: every measured line's figures per
// instruction issued (sectors, Nsight's ideal, or shared wavefronts) are
// the row's per-instruction ones, and the rows said to be predicated are
// those listed.
func TestMeasuredPredication(t *testing.T) {
	lines := readMeasuredFile(t, measured8)
	rows := accessTable(t, "--accesses", "--format", "json", probes8)
	byKey := map[string][]accessJSON{}
	for _, r := range rows {
		k := fmt.Sprintf("%s:%d:%s:%s", r.Kernel, r.Line, r.Op, r.Space)
		byKey[k] = append(byKey[k], r)
	}
	seen := map[string]bool{}
	for _, m := range lines {
		k := fmt.Sprintf("%s:%d:%s:%s", m.Function, m.Line, m.Op, m.Space)
		got := byKey[k]
		if _, ok := unmodelled8[k]; ok && len(got) == 0 {
			continue
		}
		if len(got) != 1 {
			t.Errorf("%s: %d predictions for one measured line", k, len(got))
			continue
		}
		seen[k] = true
		p := got[0]
		if p.Predicated != predicated8[k] {
			t.Errorf("%s %s: predicated %v, want %v", k, p.Expr, p.Predicated, predicated8[k])
		}
		checkPerInstruction(t, k, p, m)
		if m.Space != "shared" && p.Predicated && (p.SectorsPerRequest == nil || p.SectorsPerInstruction == nil || *p.SectorsPerRequest <= *p.SectorsPerInstruction) {
			t.Errorf("%s %s: predicated, but %v sectors per request is not above %v per instruction", k, p.Expr, deref(p.SectorsPerRequest), deref(p.SectorsPerInstruction))
		}
	}
	for k := range predicated8 {
		if !seen[k] {
			t.Errorf("%s: listed as predicated, but not measured", k)
		}
	}
	if len(lines) < 30 {
		t.Errorf("only %d measured lines; the table is incomplete", len(lines))
	}
}

// checkPerInstruction compares one access row's per-instruction figures
// with the measured line: wavefronts for shared memory, sectors and their
// checkProbeLine checks one measured line's prediction: a line listed in
// gaps must still be predicted wrong (else it comes off the list), any
// other must be predicated as predicated says and match per instruction.
func checkProbeLine(t *testing.T, k string, p accessJSON, m ncu.Line, gaps, predicated map[string]bool) {
	t.Helper()
	if gaps[k] {
		if p.SectorsPerInstruction != nil && near(*p.SectorsPerInstruction, m.SectorsPerRequest()) {
			t.Errorf("%s %s: listed as a gap, but predicted right: take it off the list", k, p.Expr)
		}
		return
	}
	if p.Predicated != predicated[k] {
		t.Errorf("%s %s: predicated %v, want %v", k, p.Expr, p.Predicated, predicated[k])
	}
	checkPerInstruction(t, k, p, m)
}

// ideal for global.
func checkPerInstruction(t *testing.T, k string, p accessJSON, m ncu.Line) {
	t.Helper()
	switch m.Space {
	case "shared":
		want := float64(m.SharedWavefronts) / float64(m.Instructions)
		if p.WavefrontsPerInstruction == nil || !near(*p.WavefrontsPerInstruction, want) {
			t.Errorf("%s %s: predicted %v wavefronts per instruction, measured %.3f", k, p.Expr, deref(p.WavefrontsPerInstruction), want)
		}
	default:
		if p.SectorsPerInstruction == nil || !near(*p.SectorsPerInstruction, m.SectorsPerRequest()) || !near(*p.NcuIdealPerInstruction, m.IdealPerRequest()) {
			t.Errorf("%s %s: predicted %v sectors per instruction (ideal %v), measured %.3f (%.3f)", k, p.Expr,
				deref(p.SectorsPerInstruction), deref(p.NcuIdealPerInstruction), m.SectorsPerRequest(), m.IdealPerRequest())
		}
	}
}
