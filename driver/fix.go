package driver

import (
	"bytes"
	"fmt"
	"go/token"
	"os"
	"sort"

	"github.com/cudalint/cudalint/rules/accesses"
)

type edit struct {
	start, end int
	text       string
}

// ApplyFixes writes the first suggested fix of every finding into its
// files. Identical edits (several findings offering the same fix) are
// applied once; an edit overlapping one already taken is skipped. Running
// it again on fixed code changes nothing, since fixed code has no finding.
// It returns the files changed.
func ApplyFixes(fset *token.FileSet, findings []*accesses.Finding) ([]string, error) {
	byFile := map[string][]edit{}
	for _, f := range findings {
		if len(f.SuggestedFixes) == 0 {
			continue
		}
		for _, te := range f.SuggestedFixes[0].TextEdits {
			start, end := fset.Position(te.Pos), fset.Position(te.End)
			if start.Filename == "" || start.Filename != end.Filename {
				continue
			}
			byFile[start.Filename] = append(byFile[start.Filename], edit{start.Offset, end.Offset, string(te.NewText)})
		}
	}
	var changed []string
	var names []string
	for name := range byFile {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			return changed, err
		}
		out, err := applyEdits(src, byFile[name])
		if err != nil {
			return changed, fmt.Errorf("%s: %v", name, err)
		}
		if bytes.Equal(out, src) {
			continue
		}
		info, _ := os.Stat(name)
		if err := os.WriteFile(name, out, info.Mode().Perm()); err != nil {
			return changed, err
		}
		changed = append(changed, name)
	}
	return changed, nil
}

func applyEdits(src []byte, edits []edit) ([]byte, error) {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var out bytes.Buffer
	last := 0
	prev := edit{start: -1, end: -1}
	for _, e := range edits {
		if e == prev {
			continue
		}
		if e.start < last || e.end > len(src) || e.start > e.end {
			continue // overlaps an edit already applied
		}
		out.Write(src[last:e.start])
		out.WriteString(e.text)
		last = e.end
		prev = e
	}
	out.Write(src[last:])
	return out.Bytes(), nil
}
