package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/internal/report"
)

// hover describes the access under the cursor: for each launch
// configuration that reaches it, its predicted and ideal sectors, the
// efficiency, the lane stride, the block and where it came from, the
// values assumed, and the first warp's sectors.
func (s *Server) hover(ctx context.Context, p *TextDocumentPositionParams) (*Hover, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.fresh(ctx, p.TextDocument.URI)
	if d == nil || d.res.rep.Result == nil {
		return nil, nil
	}
	res := d.res
	off := res.text.offset(p.Position, s.enc)
	var hit []*analyzer.Prediction
	best := -1
	for _, pr := range res.rep.Result.Analysis.Predictions {
		a := pr.Access
		if filepath.Clean(a.Pos.File) != d.path || a.Pos.File != a.End.File {
			continue
		}
		start, end := int(a.Pos.Offset), int(a.End.Offset)
		if off < start || off > end {
			continue
		}
		// The innermost access wins: in[idx[i]] under the cursor on i is
		// the load of idx.
		switch w := end - start; {
		case best < 0 || w < best:
			best, hit = w, []*analyzer.Prediction{pr}
		case w == best && hit[0].Access.Pos == a.Pos:
			hit = append(hit, pr)
		}
	}
	if len(hit) == 0 {
		return nil, nil
	}
	a := hit[0].Access
	r := res.text.rangeOf(int(a.Pos.Offset), int(a.End.Offset), s.enc)
	return &Hover{Contents: MarkupContent{Kind: "markdown", Value: hoverText(hit)}, Range: &r}, nil
}

func hoverText(ps []*analyzer.Prediction) string {
	a := ps[0].Access
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** `%s` — %s memory, %s (%d bytes)", a.Op, mdCode(a.Expr), a.Space, mdText(a.Type.String()), a.Type.Size)
	if len(a.Via) > 0 {
		fmt.Fprintf(&b, ", via %s", mdText(strings.Join(a.Via, " → ")))
	}
	b.WriteString("\n")
	unit := "sectors"
	if a.Space == interp.Shared {
		unit = "wavefronts"
	}
	for _, p := range ps {
		b.WriteString("\n---\n\n")
		fmt.Fprintf(&b, "%s\n\n", mdText(p.Config.Describe()))
		switch {
		case p.NoLane:
			b.WriteString("no lane performs this access under this launch\n")
			continue
		case !p.Known:
			fmt.Fprintf(&b, "- %s/request: unknown, 1 to 32 (%s)\n", unit, mdText(p.Unknown.Describe()))
		default:
			eff := 1.0
			if p.Sectors > 0 {
				eff = p.Ideal / p.Sectors
			}
			fmt.Fprintf(&b, "- %s/request: **%.2f**, ideal %.2f — efficiency **%.0f%%**\n", unit, p.Sectors, p.Ideal, 100*eff)
			if p.LaneStride != nil {
				fmt.Fprintf(&b, "- lane stride: %d bytes\n", *p.LaneStride)
			}
			how := "sampled"
			if p.Exact {
				how = "exact"
			}
			fmt.Fprintf(&b, "- %d requests modelled (%s)\n", p.Requests, how)
		}
		for _, as := range p.Assumptions {
			fmt.Fprintf(&b, "- assuming %s\n", mdText(as.String()))
		}
		if pic := report.WarpPicture(p); pic != "" {
			fmt.Fprintf(&b, "\n```text\n%s\n```\n", pic)
		}
	}
	return b.String()
}

// mdText escapes Markdown's punctuation in source-derived text.
func mdText(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_{}[]<>()#+!|~", r) {
			b.WriteByte('\\')
		}
		if r == '\n' || r == '\r' {
			r = ' '
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mdCode is text for an inline code span: backticks cannot be escaped
// there, so they are replaced.
func mdCode(s string) string {
	return strings.NewReplacer("`", "'", "\n", " ", "\r", " ").Replace(s)
}
