package misaligned

import (
	"fmt"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/policy"
	"github.com/cudalint/cudalint/rules/spec"
	"github.com/cudalint/cudalint/rules/wording"
)

// Rule reports contiguous accesses that use their sectors partly.
var Rule = spec.NewRule(spec.Spec{
	Rule: lint.Rule{ID: "misaligned-access", Title: "Misaligned access", Severity: lint.Warning, Tags: []string{"performance", "alignment"}, Precision: "high"},
	Name: "misaligned", Detect: Detect, Grade: Severity, Describe: describe})

// Analyzer is the rule's analyzer, for go/analysis drivers and tests.
var Analyzer = Rule.Analyzer

// Detect: lanes are contiguous, yet the request wastes sectors, for a
// reason the code gives. Where the warp starts rests on a value the
// code loads (an offset read from an index array or a shared scalar
// thread 0 set), the figures are the mean over the residues it may
// have: a guess about data, which says nothing of the code, as an
// offset given at run time does not (nothing is reported for
// a[i + off], off a parameter, either).
func Detect(res *accesses.Result, p *analyzer.Prediction) bool {
	return p.BaseResidue == nil && policy.Uncoalesced(res, p) && accesses.LaneStrideBytes(p) == accesses.ElemBytes(p.Access) && !accesses.SpreadByGuard(p, wording.LaneSymbol(p))
}

// Severity grades by cost.
func Severity(p *analyzer.Prediction) lint.Severity { return policy.CostSeverity(p) }

func describe(_ *accesses.Result, p *analyzer.Prediction) string {
	return fmt.Sprintf("lanes are contiguous but %s: %s", why(p), wording.Figures(p))
}

// why looks at where each run of contiguous lanes (a row) of the first
// warp starts: mid-sector starts are an offset or a row pitch; rows that
// start aligned but are shorter than a sector are a block too narrow.
func why(p *analyzer.Prediction) string {
	width := ctype.Pieces(p.Access.Type)[0][1]
	var starts []int64
	rowBytes := int64(0)
	prev := int64(-1)
	for _, a := range p.Warp {
		if a < 0 {
			continue
		}
		if prev < 0 || a != prev+width {
			starts = append(starts, a)
		}
		if len(starts) == 1 {
			rowBytes += width
		}
		prev = a
	}
	if off, same := sameOffset(starts); off != 0 && same {
		if len(starts) == 1 {
			return fmt.Sprintf("the warp starts %d bytes into a 32-byte sector", off)
		}
		return fmt.Sprintf("every row starts %d bytes into a 32-byte sector (an offset in the index)", off)
	}
	for _, s := range starts {
		if off := mod(s, 32); off != 0 {
			pitch := starts[1] - starts[0]
			return fmt.Sprintf("its rows start at varying places within a sector (a row starts %d bytes into a sector: the row pitch, %d bytes, is not a multiple of 32)", off, pitch)
		}
	}
	if len(starts) > 1 && !regular(p.Warp, width, rowBytes) {
		return fmt.Sprintf("the warp's lanes form %d separate runs of contiguous addresses", len(starts))
	}
	if len(starts) > 1 && rowBytes < 32 {
		return narrowRuns(p, len(starts), rowBytes, width)
	}
	return "in some warps the lanes start mid-sector (where they start depends on the block or the iteration)"
}

// narrowRuns explains runs of contiguous lanes narrower than a sector: a
// block narrower than a sector in x (each row of the block its own run),
// or a guard that leaves lanes out between the runs.
func narrowRuns(p *analyzer.Prediction, runs int, rowBytes, width int64) string {
	active, idle := 0, 0
	for _, a := range p.Warp {
		if a < 0 {
			idle++
		} else {
			active++
		}
	}
	b := p.Config.Block
	switch {
	case b[1] > 1 && b[0]*width == rowBytes:
		return fmt.Sprintf("each warp covers %d rows of %d bytes, less than a 32-byte sector; make the block wider in x (at least %d threads)",
			runs, rowBytes, 32/width)
	case idle > 0:
		return fmt.Sprintf("only %d of the warp's %d lanes take part, in %d runs of %d bytes: a guard leaves lanes out between them (such as id %% 2 == 0), and each sector is shared with lanes that do nothing",
			active, active+idle, runs, rowBytes)
	}
	return fmt.Sprintf("the warp's lanes form %d runs of %d contiguous bytes, each less than a 32-byte sector", runs, rowBytes)
}

// sameOffset is the offset within a sector of the first row, and whether
// every row starts at that offset.
func sameOffset(starts []int64) (int64, bool) {
	if len(starts) == 0 {
		return 0, false
	}
	off := mod(starts[0], 32)
	for _, s := range starts[1:] {
		if mod(s, 32) != off {
			return off, false
		}
	}
	return off, true
}

// regular reports whether the warp's active lanes form equal rows of
// rowBytes each, equally spaced.
func regular(warp []int64, width, rowBytes int64) bool {
	per := int(rowBytes / width)
	var active []int64
	for _, a := range warp {
		if a >= 0 {
			active = append(active, a)
		}
	}
	if per == 0 || len(active)%per != 0 || len(active) < 2*per {
		return false
	}
	pitch := active[per] - active[0]
	for i, a := range active {
		if a != active[0]+int64(i/per)*pitch+int64(i%per)*width {
			return false
		}
	}
	return true
}

func mod(x, m int64) int64 { return ((x % m) + m) % m }
