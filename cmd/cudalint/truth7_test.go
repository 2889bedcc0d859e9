package main

import (
	"fmt"
	"slices"
	"testing"

	"github.com/cudalint/cudalint/internal/ncu"
)

const (
	probes7   = "../../testdata/truth/probes7.cu"
	measured7 = "../../testdata/truth/source7.csv.gz"
)

// narrowed7 are the probes7 lines whose instruction nvcc narrows below
// the access as written, which the model does not follow: the figures
// still match, the width does not.
var narrowed7 = map[string]string{
	// __low2float(s[i]) uses the low half of a __half2: nvcc loads it
	// alone, an LDS.U16, where the model prices a 4-byte load (the same
	// one wavefront).
	"s_h2x2_st:144:load:shared": "only the low half of the __half2 is read",
}

// TestMeasuredMerges compares the access table for probes7.cu (adjacent
// scalar accesses that nvcc merges, or not) with what Nsight Compute
// measured on an H200, per SASS instruction, global and shared alike:
// every measured line has one row, with as many instructions as the line
// has SASS instructions, of the widths measured, and the wavefronts (or
// sectors) per request and their ideal; a row merged into another's
// instruction has no line of its own; every other row was measured.
func TestMeasuredMerges(t *testing.T) {
	lines := readMeasuredFile(t, measured7)
	rows := accessTable(t, "--accesses", "--format", "json", probes7)
	keyOf := func(kernel string, line int, op, space string) string {
		return fmt.Sprintf("%s:%d:%s:%s", kernel, line, op, space)
	}
	predicted := map[string][]accessJSON{}
	merged := 0
	for _, r := range rows {
		if r.Space != "global" && r.Space != "shared" {
			t.Errorf("%s line %d: space %q", r.Kernel, r.Line, r.Space)
		}
		if r.MergedInto != nil {
			merged++
			if !slices.ContainsFunc(rows, func(q accessJSON) bool {
				return q.Line == r.MergedInto.Line && q.Kernel == r.Kernel && q.MergedInto == nil && len(q.MergedWith) > 0
			}) {
				t.Errorf("%s line %d: merged into line %d, which carries no merged instruction", r.Kernel, r.Line, r.MergedInto.Line)
			}
			continue
		}
		k := keyOf(r.Kernel, r.Line, r.Op, r.Space)
		predicted[k] = append(predicted[k], r)
	}
	matched := map[string]bool{}
	shared, wide := 0, 0
	for _, m := range lines {
		k := keyOf(m.Function, m.Line, m.Op, m.Space)
		got := predicted[k]
		if len(got) != 1 {
			t.Errorf("%s: %d predictions for one measured line (%d SASS)", k, len(got), m.SASS)
			continue
		}
		matched[k] = true
		p := got[0]
		if m.Space == "shared" {
			shared++
			checkShared(t, k, p, m)
		} else if p.SectorsPerRequest == nil || !near(*p.SectorsPerRequest, m.SectorsPerRequest()) || !near(*p.NcuIdealPerRequest, m.IdealPerRequest()) {
			t.Errorf("%s %s: predicted %v sectors/request (ncu ideal %v), measured %.3f (%.3f)", k, p.Expr, deref(p.SectorsPerRequest), deref(p.NcuIdealPerRequest), m.SectorsPerRequest(), m.IdealPerRequest())
		}
		widths := instructionWidths(p)
		var measuredWidths []int64
		for _, in := range m.PerSASS {
			measuredWidths = append(measuredWidths, in.Bits/8)
			wide += int(in.Bits / 128)
		}
		slices.Sort(widths)
		slices.Sort(measuredWidths)
		if why, ok := narrowed7[k]; ok {
			if slices.Equal(widths, measuredWidths) {
				t.Errorf("%s: listed as narrowed (%s), but the widths match: drop it from narrowed7", k, why)
			}
			continue
		}
		if !slices.Equal(widths, measuredWidths) {
			t.Errorf("%s %s: predicted instructions of %v bytes, measured %v", k, p.Expr, widths, measuredWidths)
		}
	}
	for k, r := range predicted {
		if !matched[k] {
			t.Errorf("%s %s: predicted but not measured", k, r[0].Expr)
		}
	}
	if shared < 20 || wide < 8 || merged < 3 {
		t.Errorf("only %d shared lines, %d 128-bit instructions, %d merged rows: the export is incomplete", shared, wide, merged)
	}
}

// checkShared compares a shared row with its measured line: wavefronts
// and their ideal per instruction executed, and, where the row lists
// copies of an unrolled loop, each instruction's.
func checkShared(t *testing.T, k string, p accessJSON, m ncu.Line) {
	t.Helper()
	if p.WavefrontsPerRequest == nil || p.IdealWavefrontsPerRequest == nil || p.SectorsPerRequest != nil {
		t.Errorf("%s %s: a shared row without wavefronts (or with sectors)", k, p.Expr)
		return
	}
	want := float64(m.SharedWavefronts) / float64(m.Instructions)
	ideal := float64(m.SharedIdeal) / float64(m.Instructions)
	if !near(*p.WavefrontsPerRequest, want) || !near(*p.IdealWavefrontsPerRequest, ideal) {
		t.Errorf("%s %s: predicted %.3f wavefronts/request, ideal %.3f; measured %.3f, ideal %.3f", k, p.Expr, *p.WavefrontsPerRequest, *p.IdealWavefrontsPerRequest, want, ideal)
	}
	if p.Unrolled == nil || len(p.Unrolled.Copies) != len(m.PerSASS) {
		return
	}
	// Per instruction, as multisets: Nsight lists them by address.
	var got, meas []string
	for _, c := range p.Unrolled.Copies {
		got = append(got, fmt.Sprintf("%.2f/%.2f", deref(c.WavefrontsPerRequest), deref(c.IdealWavefrontsPerRequest)))
	}
	for _, in := range m.PerSASS {
		meas = append(meas, fmt.Sprintf("%.2f/%.2f", float64(in.Wavefronts)/float64(in.Instructions), float64(in.WavefrontsIdeal)/float64(in.Instructions)))
	}
	slices.Sort(got)
	slices.Sort(meas)
	if !slices.Equal(got, meas) {
		t.Errorf("%s %s: per instruction (wavefronts/ideal) predicted %v, measured %v", k, p.Expr, got, meas)
	}
}

// instructionWidths are the per-lane widths of a row's instructions: one
// per copy of an unrolled loop, else one per instruction of the access.
func instructionWidths(p accessJSON) []int64 {
	var out []int64
	if p.Unrolled != nil {
		for _, c := range p.Unrolled.Copies {
			w := c.InstructionBytes
			if w == 0 {
				w = p.InstructionBytes
			}
			out = append(out, w)
		}
		return out
	}
	for range p.Instructions {
		out = append(out, p.InstructionBytes)
	}
	return out
}

func deref(p *float64) float64 {
	if p == nil {
		return -1
	}
	return *p
}
