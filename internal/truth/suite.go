package truth

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// A Program is one measured program of a suite as its programs.txt names
// it: the folder it is built in, relative to the suite's source root,
// its sources (relative to the folder: the .cu ones are what cudalint
// analyzes) and its own compiler flags, of which the -I folders are
// given to cudalint too.
type Program struct {
	Name    string
	Folder  string
	Sources []string
	Flags   []string
	// Cudalint are the flags cudalint is run with: the run's sizes that
	// its arguments set and the source cannot know (--param NAME=V), as a
	// user would give them.
	Cudalint []string
	// Line is where the program was first named in programs.txt.
	Line int
}

// CUDASources are the sources cudalint analyzes: the .cu files.
func (p Program) CUDASources() []string {
	var out []string
	for _, s := range p.Sources {
		if strings.HasSuffix(s, ".cu") {
			out = append(out, s)
		}
	}
	return out
}

// IncludeDirs are the program's -I folders, relative to its folder.
func (p Program) IncludeDirs() []string {
	var out []string
	for i, f := range p.Flags {
		switch {
		case f == "-I" && i+1 < len(p.Flags):
			out = append(out, p.Flags[i+1])
		case strings.HasPrefix(f, "-I") && len(f) > 2:
			out = append(out, f[2:])
		}
	}
	return out
}

// ReadPrograms reads a suite's programs.txt: one run a line,
// name|run|folder|sources|flags|arguments, and optionally |cudalint flags
// ('#' lines and blank lines skipped). A program run several times (several lines of one name)
// must be built alike. name is the file's name, for errors.
func ReadPrograms(name string, r io.Reader) (map[string]Program, error) {
	progs := map[string]Program{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "|")
		if len(f) != 6 && len(f) != 7 {
			return nil, fmt.Errorf("%s:%d: %d fields, want 6 or 7 (name|run|folder|sources|flags|arguments[|cudalint flags])", name, n, len(f))
		}
		p := Program{Name: strings.TrimSpace(f[0]), Folder: strings.TrimSpace(f[2]), Sources: strings.Fields(f[3]), Flags: strings.Fields(f[4]), Line: n}
		if len(f) == 7 {
			p.Cudalint = strings.Fields(f[6])
		}
		switch {
		case p.Name == "" || strings.ContainsAny(p.Name, "-/ \t"):
			return nil, fmt.Errorf("%s:%d: program name %q: want a name without '-', '/' or spaces", name, n, p.Name)
		case strings.TrimSpace(f[1]) == "" || strings.ContainsAny(strings.TrimSpace(f[1]), "-/ \t"):
			return nil, fmt.Errorf("%s:%d: run %q: want a name without '-', '/' or spaces", name, n, f[1])
		case p.Folder == "" || filepath.IsAbs(p.Folder) || strings.HasPrefix(filepath.Clean(p.Folder), ".."):
			return nil, fmt.Errorf("%s:%d: folder %q: want a path inside the suite's sources", name, n, p.Folder)
		case len(p.CUDASources()) == 0:
			return nil, fmt.Errorf("%s:%d: %s has no .cu source", name, n, p.Name)
		}
		if prev, ok := progs[p.Name]; ok {
			if prev.Folder != p.Folder || strings.Join(prev.Sources, " ") != strings.Join(p.Sources, " ") || strings.Join(prev.Flags, " ") != strings.Join(p.Flags, " ") ||
				strings.Join(prev.Cudalint, " ") != strings.Join(p.Cudalint, " ") {
				return nil, fmt.Errorf("%s:%d: %s is built otherwise than at line %d", name, n, p.Name, prev.Line)
			}
			continue
		}
		progs[p.Name] = p
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(progs) == 0 {
		return nil, fmt.Errorf("%s: no program", name)
	}
	return progs, nil
}

// IsHeader reports whether a row's file is a header (where the compiler
// puts an inlined helper's or an intrinsic's instructions) rather than a
// program's source.
func IsHeader(file string) bool {
	switch filepath.Ext(file) {
	case ".h", ".hpp", ".cuh", ".hxx", ".inl":
		return true
	}
	return false
}
