package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/internal/report"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/impact"
	"github.com/cudalint/cudalint/rules/policy"
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
	best, bestStart := -1, -1
	for _, pr := range res.rep.Result.Analysis.Predictions {
		for _, rg := range hoverRanges(pr.Access) {
			if absPath(rg[0].File) != d.path || rg[0].File != rg[1].File {
				continue
			}
			start, end := res.off(int(rg[0].Offset)), res.off(int(rg[1].Offset))
			if off < start || off > end {
				continue
			}
			// The innermost access wins: in[idx[i]] under the cursor on i is
			// the load of idx; a helper's call shows the accesses it reaches.
			switch w := end - start; {
			case best < 0 || w < best:
				best, bestStart, hit = w, start, []*analyzer.Prediction{pr}
			case w == best && start == bestStart:
				hit = append(hit, pr)
			}
		}
	}
	if len(hit) == 0 {
		return nil, nil
	}
	r := res.text.rangeOf(bestStart, bestStart+best, s.enc)
	return &Hover{Contents: MarkupContent{Kind: "markdown", Value: hoverText(hit, res.rep.Result)}, Range: &r}, nil
}

// hoverRanges are the places hovering shows an access: the access, and
// the call in the kernel's body that reaches it when it is in a helper.
func hoverRanges(a *analyzer.Access) [][2]parser.Pos {
	out := [][2]parser.Pos{{a.Pos, a.End}}
	if a.InHelper() {
		pos, end := a.Site()
		out = append(out, [2]parser.Pos{pos, end})
	}
	return out
}

func hoverText(ps []*analyzer.Prediction, r *accesses.Result) string {
	var costs *impact.Costs
	if r != nil {
		costs = impact.Of(r)
	}
	a := ps[0].Access
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** `%s` — %s memory, %s (%d bytes)", a.Op, mdCode(a.Expr), a.Space, mdText(a.Type.String()), a.Type.Size)
	b.WriteString("\n")
	unit := "sectors"
	if a.Space == interp.Shared {
		unit = "wavefronts"
	}
	for _, p := range ps {
		b.WriteString("\n---\n\n")
		fmt.Fprintf(&b, "%s\n\n", mdText(p.Config.Describe()))
		if len(p.Access.Via) > 0 {
			fmt.Fprintf(&b, "through %s\n\n", mdText(chainText(p.Access.Via)))
		}
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
			if line := impactLine(costs, p); line != "" {
				fmt.Fprintf(&b, "- %s\n", mdText(line))
			}
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

// impactLine is what fixing p is worth to its kernel, for an access that
// moves more than its ideal: "fixing it: up to 4.5x for this kernel (78%
// of its time)".
func impactLine(costs *impact.Costs, p *analyzer.Prediction) string {
	if costs == nil || !policy.Wasteful(p) {
		return ""
	}
	imp, ok := costs.Impact(p)
	if !ok {
		return ""
	}
	return impact.Text(&imp, false)
}

// chainText writes a call chain: "get2(in, 3 * i) at k.cu:6 → get(a, i) at
// helpers.cuh:3".
func chainText(via []interp.CallSite) string {
	parts := make([]string, len(via))
	for i, c := range via {
		parts[i] = fmt.Sprintf("%s at %s:%d", c.Text, filepath.Base(c.Pos.File), c.Pos.Line)
	}
	return strings.Join(parts, " → ")
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
