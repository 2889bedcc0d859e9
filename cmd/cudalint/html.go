package main

import (
	"io"

	"github.com/cudalint/cudalint/driver"
	"github.com/cudalint/cudalint/internal/report/html"
	"github.com/cudalint/cudalint/rules/lint"
)

// writeHTML writes --format html: one self-contained page, its kernels
// ranked as --sort impact orders the findings, whatever --sort says.
func writeHTML(w io.Writer, rep *driver.Report, inv *invocation) error {
	ranked := *rep
	ranked.Findings = append([]*lint.Finding(nil), rep.Findings...)
	sortByImpact(ranked.Findings)
	return html.Write(w, &ranked, html.Options{
		Path:    func(name string) string { return shownPath(rep, name) },
		Summary: inv.summary(rep),
		Version: versionLine(),
	})
}
