package driver

import (
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cudalint/cudalint/parser/lex"
)

// IncludeHint is a folder under the run's root that holds headers the
// run could not open (darknet's src/*.cu include "darknet.h", which is
// in include/): giving it with -I would have read them.
type IncludeHint struct {
	Dir     string   // relative to the root
	Headers []string // the includes it holds, as written, sorted
}

// maxHintEntries bounds the walk IncludeHints makes of the root.
const maxHintEntries = 200_000

// IncludeHints are the folders under the report's root where the
// headers its #includes did not find are, each header counted where it
// is the only file of its name: a header with two candidates says
// nothing of which to give. Hidden folders (.git) are not walked. The
// folder holding the most comes first.
func IncludeHints(rep *Report) []IncludeHint {
	missing := map[string]bool{}
	for _, n := range rep.Notes {
		if n.Kind == lex.NoteIncludeNotFound && n.Subject != "" {
			missing[filepath.ToSlash(n.Subject)] = true
		}
	}
	if len(missing) == 0 || rep.Root == "" {
		return nil
	}
	found := map[string][]string{} // include -> folders holding it
	seen := 0
	filepath.WalkDir(rep.Root, func(path string, d fs.DirEntry, err error) error {
		if seen++; seen > maxHintEntries {
			return filepath.SkipAll
		}
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if path != rep.Root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(rep.Root, path)
		if err != nil {
			return nil
		}
		rel = filepath.ToSlash(rel)
		for inc := range missing {
			if dir, ok := strings.CutSuffix(rel, inc); ok && (dir == "" || strings.HasSuffix(dir, "/")) {
				found[inc] = append(found[inc], strings.TrimSuffix(dir, "/"))
			}
		}
		return nil
	})
	byDir := map[string][]string{}
	for inc, dirs := range found {
		if len(dirs) == 1 {
			byDir[dirs[0]] = append(byDir[dirs[0]], inc)
		}
	}
	var out []IncludeHint
	for _, dir := range slices.Sorted(maps.Keys(byDir)) {
		hs := byDir[dir]
		slices.Sort(hs)
		if dir == "" {
			dir = "."
		}
		out = append(out, IncludeHint{Dir: dir, Headers: hs})
	}
	// The folder that would read the most headers first.
	slices.SortStableFunc(out, func(a, b IncludeHint) int { return len(b.Headers) - len(a.Headers) })
	return out
}
