// Package report holds what several front ends (the command's formats,
// the language server) say alike about a finding: its fingerprint and
// the picture of its first warp's sectors.
package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/rules/lint"
)

// FingerprintKey identifies a finding without its line: the rule, the
// file, the kernel, the access and its operation, and for an access in a
// helper the call of the kernel that reaches it. Moving code up or down
// keeps it; the occurrence count tells repeats apart.
func FingerprintKey(f *lint.Finding, uri string) string {
	parts := []string{f.Rule.ID, uri}
	if p := f.Prediction; p != nil {
		a := p.Access
		parts = append(parts, a.Kernel.Name, a.Op.String(), strings.Join(strings.Fields(a.Expr), ""))
		if a.InHelper() {
			parts = append(parts, strings.Join(strings.Fields(a.Via[a.SiteIndex()].Text), ""))
		}
	} else {
		parts = append(parts, f.Message)
	}
	return strings.Join(parts, "\x00")
}

// Fingerprint is the hex fingerprint of the n-th finding with key.
func Fingerprint(key string, n int) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d", key, n)))
	return hex.EncodeToString(sum[:16])
}

// WarpPicture draws the sectors the first warp touches, one character
// each by how much of it the lanes use (█ all, ▆ ¾, ▄ ½, ▂ ¼, ▁ less),
// with · where the touched sectors are not adjacent.
func WarpPicture(p *analyzer.Prediction) string {
	if p == nil || !p.Known || p.Warp == nil || p.Access.Space != interp.Global {
		return ""
	}
	pc := ctype.Pieces(p.Access.Type)[0]
	used := map[int64]int64{} // sector -> bytes used
	seen := map[int64]bool{}
	for _, a := range p.Warp {
		if a < 0 {
			continue
		}
		for b := a + pc[0]; b < a+pc[0]+pc[1]; b++ {
			if !seen[b] {
				seen[b] = true
				used[b>>5]++
			}
		}
	}
	var secs []int64
	for s := range used {
		secs = append(secs, s)
	}
	sortInts(secs)
	var b strings.Builder
	total := int64(0)
	for i, s := range secs {
		if i > 0 && s != secs[i-1]+1 {
			b.WriteString("·")
		}
		if i == 48 {
			b.WriteString("…")
			break
		}
		u := used[s]
		total += u
		switch {
		case u >= 32:
			b.WriteString("█")
		case u >= 24:
			b.WriteString("▆")
		case u >= 16:
			b.WriteString("▄")
		case u >= 8:
			b.WriteString("▂")
		default:
			b.WriteString("▁")
		}
	}
	for _, s := range secs[min(len(secs), 48):] {
		total += used[s]
	}
	unit := "sectors"
	if len(secs) == 1 {
		unit = "sector"
	}
	return fmt.Sprintf("first warp: %s  %d %s, %d of %d bytes used", b.String(), len(secs), unit, total, int64(len(secs))*32)
}

func sortInts(s []int64) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// HidesText reports runes that move or hide text when printed: C1
// controls (NEL breaks lines), line and paragraph separators, and
// bidirectional controls (the "Trojan Source" attack). Every output
// format shows them escaped.
func HidesText(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f,
		r == 0x2028, r == 0x2029,
		r == 0x200e, r == 0x200f, r == 0x061c,
		r >= 0x202a && r <= 0x202e,
		r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
