package main

import (
	"fmt"
	"go/token"
	"strings"

	"github.com/cudalint/cudalint/driver"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/rules/impact"
	"github.com/cudalint/cudalint/rules/lint"
)

// summary is the last line of text output: the findings by severity, the
// files read, and how much was not analyzed, pointing at --stats. Without
// it a clean run and a run that analyzed nothing look the same.
func summary(rep *driver.Report) string {
	var b strings.Builder
	if n := len(rep.Findings); n == 0 {
		b.WriteString("no findings")
	} else {
		fmt.Fprintf(&b, "%d finding%s (%s)", n, plural(n), bySeverity(rep.Findings))
	}
	files := countFiles(rep.Fset, rep.Reported)
	fmt.Fprintf(&b, " in %d file%s", files, plural(files))
	return b.String() + summaryGaps(rep)
}

// summaryGaps ends the summary: what was not analyzed, and the finding
// that wastes the most.
func summaryGaps(rep *driver.Report) string {
	var b strings.Builder
	var gaps []string
	spent := map[string]bool{}
	for _, n := range rep.Notes {
		if driver.BudgetSpent(n.Kind) {
			spent[n.Pos.File] = true
		}
	}
	if n := len(spent); n > 0 {
		gaps = append(gaps, fmt.Sprintf("%d file%s not analyzed whole (a budget spent)", n, plural(n)))
	}
	if n := countKind(rep, lint.ToolFailure); n > 0 {
		gaps = append(gaps, fmt.Sprintf("%d internal error%s (a kernel not analyzed)", n, plural(n)))
	}
	if n := partlyAnalyzed(rep); n > 0 {
		gaps = append(gaps, fmt.Sprintf("%d kernel%s partly analyzed", n, plural(n)))
	}
	if n := len(rep.Notes); n > 0 {
		gaps = append(gaps, fmt.Sprintf("%d parse note%s", n, plural(n)))
	}
	if len(gaps) > 0 {
		fmt.Fprintf(&b, "; %s: see --stats", strings.Join(gaps, ", "))
	}
	hints := driver.IncludeHints(rep)
	for _, h := range hints[:min(len(hints), maxIncludeHints)] {
		fmt.Fprintf(&b, "; %s not found: %s in %s (give -I %s)", listHeaders(h.Headers), map[bool]string{true: "it is", false: "they are"}[len(h.Headers) == 1], h.Dir, h.Dir)
	}
	if n := len(hints) - maxIncludeHints; n > 0 {
		fmt.Fprintf(&b, "; headers not found in %d more folder%s under the root", n, plural(n))
	}
	if f, ok := costliest(rep); ok {
		fmt.Fprintf(&b, "; most waste: kernel %s, %s (--sort impact)", escape(f.Prediction.Access.Kernel.Name), wasteText(f.Figures.Impact))
	}
	return b.String()
}

// maxIncludeHints is how many folders of headers not found the summary
// names.
const maxIncludeHints = 2

// listHeaders names headers, the first three and how many more.
func listHeaders(hs []string) string {
	if len(hs) <= 3 {
		return strings.Join(hs, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(hs[:3], ", "), len(hs)-3)
}

// bySeverity counts findings as "1 error, 2 warnings, 3 info".
func bySeverity(fs []*lint.Finding) string {
	count := map[lint.Severity]int{}
	for _, f := range fs {
		count[f.Severity]++
	}
	var parts []string
	for _, s := range []lint.Severity{lint.Error, lint.Warning, lint.Info} {
		n := count[s]
		switch {
		case n == 0:
		case s == lint.Info:
			parts = append(parts, fmt.Sprintf("%d info", n))
		default:
			parts = append(parts, fmt.Sprintf("%d %s%s", n, s, plural(n)))
		}
	}
	return strings.Join(parts, ", ")
}

// countFiles is the files read, headers included: each has its place in
// the file set. When files named alone were read with their project, it
// is the files reported on.
func countFiles(fset *token.FileSet, reported func(string) bool) int {
	n := 0
	if fset != nil {
		fset.Iterate(func(f *token.File) bool {
			if reported == nil || reported(f.Name()) {
				n++
			}
			return true
		})
	}
	return n
}

// partlyAnalyzed counts the kernels with a statement the parser skipped
// or a call the interpreter could not follow;
// a template kernel counts once, however many instantiations.
func partlyAnalyzed(rep *driver.Report) int {
	if rep.Result == nil || rep.Result.Analysis == nil {
		return 0
	}
	seen := map[parser.Pos]bool{}
	n := 0
	// The kernels of the files reported, as --stats counts them: a file
	// named alone is analyzed with the kernels of its context too, and
	// the summary said 'partly analyzed' of kernels --stats then left out.
	for _, k := range reportedPart(rep).Kernels {
		if !seen[k.Func.P] {
			seen[k.Func.P] = true
			if countBad(k.Func.Body) > 0 || k.Unresolved > 0 {
				n++
			}
		}
	}
	return n
}

// countKind counts the findings of rules of one kind.
func countKind(rep *driver.Report, kind lint.Kind) int {
	n := 0
	for _, f := range rep.Findings {
		if f.Rule.Kind == kind {
			n++
		}
	}
	return n
}

// costliest is the finding whose fix saves the most memory time per
// launch, by the time model, among those counted at the code's own sizes
// (a figure at assumed sizes would rank the guess).
func costliest(rep *driver.Report) (*lint.Finding, bool) {
	var best *lint.Finding
	for _, f := range rep.Findings {
		imp := f.Figures.Impact
		if imp == nil || imp.Assumed || imp.SavedSeconds <= 0 {
			continue
		}
		if best == nil || imp.SavedSeconds > best.Figures.Impact.SavedSeconds {
			best = f
		}
	}
	return best, best != nil
}

// wasteText says what the costliest finding wastes: "1.9 GB per launch,
// up to 4.5x for the kernel", its wavefronts for shared memory.
func wasteText(imp *lint.Impact) string {
	var parts []string
	if imp.ExcessBytesPerLaunch > 0 {
		parts = append(parts, bytesText(imp.ExcessBytesPerLaunch))
	}
	if imp.ExcessWavefrontsPerLaunch > 0 {
		parts = append(parts, countText(imp.ExcessWavefrontsPerLaunch)+" shared-memory wavefronts")
	}
	return strings.Join(parts, " and ") + " per launch, up to " + impact.SpeedupText(imp.EstimatedSpeedup) + "x for the kernel"
}

// countText writes a count as people read it: 15.7 million.
func countText(n int64) string {
	units := []string{"", " thousand", " million", " billion"}
	x, u := float64(n), 0
	for x >= 1000 && u < len(units)-1 {
		x, u = x/1000, u+1
	}
	if u == 0 {
		return fmt.Sprint(n)
	}
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.1f", x), "0"), ".") + units[u]
}

// bytesText writes a byte count as people read it: 15 GB, 12.6 MB.
func bytesText(n float64) string {
	units := []string{"bytes", "kB", "MB", "GB", "TB"}
	x, u := n, 0
	for x >= 1000 && u < len(units)-1 {
		x, u = x/1000, u+1
	}
	if u == 0 {
		return fmt.Sprintf("%.0f bytes", n)
	}
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.1f", x), "0"), ".") + " " + units[u]
}
