package main

import (
	"fmt"
	"testing"
)

const (
	pairs12    = "../../testdata/truth/timing/pairs.cu"
	probes12   = "../../testdata/truth/probes12.cu"
	measured12 = "../../testdata/truth/source12.csv.gz"
)

// records12 are the kernels of the record pairs and probes12.cu whose
// rows measure12.sh exported: records written or read whole in scalar
// pieces, a float3 through a cast, float4 records 32 bytes a lane, and
// four stores nvcc merges into an STG.128 where the pointer's alignment
// is given (__builtin_assume_aligned).
var records12 = map[string]bool{
	"f2store_slow": true, "f2store_fast": true, "f3store_slow": true, "f3load_slow": true, "f3load_fast": true,
	"st4_slow": true, "st4_fast": true, "st8_slow": true, "st8_fast": true, "st8_planes": true,
	"ld8_slow": true, "ld8_fast": true, "ld8_planes": true, "triple_slow": true, "triple_fast": true,
	"st4_assumed": true, "st2_assumed": true, "st4_plain": true,
}

// TestMeasuredRecords compares the access table with what Nsight Compute
// measured on an H200 per SASS row, for the record probes: the sectors
// per instruction stay what each instruction costs (a float3 store is
// three STG.32 of 12 sectors each, whatever the L2 merges after), and the
// grading of records (docs/severity.md) leaves them as they are.
func TestMeasuredRecords(t *testing.T) {
	byKey := map[string][]accessJSON{}
	for _, src := range []string{pairs12, probes12} {
		for _, r := range accessTable(t, "--accesses", "--format", "json", src) {
			k := fmt.Sprintf("%s:%d:%s:%s", r.Kernel, r.Line, r.Op, r.Space)
			byKey[k] = append(byKey[k], r)
		}
	}
	checked := 0
	for _, m := range readMeasuredFile(t, measured12) {
		if m.Space != "global" || !records12[measuredKernel(m.Function)] {
			continue
		}
		k := fmt.Sprintf("%s:%d:%s:%s", measuredKernel(m.Function), m.Line, m.Op, m.Space)
		got := byKey[k]
		checked++
		switch len(got) {
		case 0:
			t.Errorf("%s: no prediction for a measured line", k)
		case 1:
			checkProbeLine(t, k, got[0], m, nil, nil)
		default:
			// Loads on one line (a.x + a.y + ..., in[i] + in[T + i]):
			// Nsight sums their SASS rows, so their mean per instruction.
			if spi := meanPerInstruction(got); !near(spi, m.SectorsPerRequest()) {
				t.Errorf("%s: %d loads predicted %.3f sectors per instruction together, measured %.3f", k, len(got), spi, m.SectorsPerRequest())
			}
		}
	}
	if checked < 30 {
		t.Errorf("only %d measured record lines checked", checked)
	}
}

// meanPerInstruction is the sectors per instruction of several accesses
// of one line, weighed by their instructions.
func meanPerInstruction(rows []accessJSON) float64 {
	var sectors, n float64
	for _, r := range rows {
		if r.SectorsPerInstruction != nil {
			sectors += *r.SectorsPerInstruction * float64(r.Instructions)
			n += float64(r.Instructions)
		}
	}
	if n == 0 {
		return 0
	}
	return sectors / n
}
