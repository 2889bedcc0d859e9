package main

import (
	findingreport "github.com/cudalint/cudalint/internal/report"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/sources"

	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cudalint/cudalint/driver"
)

// Only what is new: --new-from-rev and --new-from-patch keep the findings
// on lines a diff adds or changes, as golangci-lint's new-from-rev does;
// --baseline drops the findings recorded by --write-baseline, matched by
// the line-independent fingerprint SARIF carries, so that moving code
// does not bring a recorded finding back.

// changedLines maps a file (absolute, links resolved) to the lines of its
// new version that a diff adds.
type changedLines map[string]map[int]bool

// parseUnifiedDiff reads a unified diff (git's or diff -u's) whose paths
// are relative to base: every '+' line of a hunk is changed. A "+++"
// path starting with b/ is git's prefix and is dropped. Hunks are read by
// their counts, so a removed line that reads "--- x" is not a header.
func parseUnifiedDiff(r io.Reader, base string) (changedLines, error) {
	out := changedLines{}
	var lines map[int]bool
	next, oldLeft, newLeft := 0, 0, 0
	sawFile := false
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		l := sc.Text()
		if oldLeft > 0 || newLeft > 0 {
			switch {
			case strings.HasPrefix(l, "+"):
				if lines != nil {
					lines[next] = true
				}
				next++
				newLeft--
			case strings.HasPrefix(l, "-"):
				oldLeft--
			case strings.HasPrefix(l, " ") || l == "":
				next++
				oldLeft--
				newLeft--
			}
			continue
		}
		switch {
		case strings.HasPrefix(l, "+++ "):
			name := strings.TrimPrefix(l, "+++ ")
			if i := strings.IndexByte(name, '\t'); i >= 0 {
				name = name[:i]
			}
			if strings.HasPrefix(name, `"`) {
				if unq, err := strconv.Unquote(name); err == nil {
					name = unq
				}
			}
			lines, sawFile = nil, true
			if name == "/dev/null" {
				continue
			}
			name = strings.TrimPrefix(name, "b/")
			if !filepath.IsAbs(name) {
				name = filepath.Join(base, name)
			}
			key := canonical(name)
			if out[key] == nil {
				out[key] = map[int]bool{}
			}
			lines = out[key]
		case strings.HasPrefix(l, "@@ "):
			// @@ -a[,b] +c[,d] @@
			f := strings.Fields(l)
			if len(f) < 3 || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
				return nil, fmt.Errorf("malformed hunk header %q", l)
			}
			_, o, err1 := hunkRange(f[1][1:])
			c, n, err2 := hunkRange(f[2][1:])
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("malformed hunk header %q", l)
			}
			next, oldLeft, newLeft = c, o, n
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if !sawFile {
		return out, errNoDiff
	}
	return out, nil
}

// errNoDiff: the text names no file. From git that is a change that
// touches nothing; from a patch file given by the user it is a diff step
// that failed or wrote something else, which must not pass for one.
var errNoDiff = errors.New("holds no unified diff (no +++ line): check the step that wrote it")

// hunkRange reads "start[,count]" (count 1 when absent).
func hunkRange(s string) (start, count int, err error) {
	a, b, ok := strings.Cut(s, ",")
	if start, err = strconv.Atoi(a); err != nil {
		return 0, 0, err
	}
	count = 1
	if ok {
		count, err = strconv.Atoi(b)
	}
	return start, count, err
}

// canonical is a path's absolute form with links resolved, so that a
// finding's file and a diff's file compare whatever their spelling.
func canonical(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	// A file that does not exist (deleted): resolve its folder.
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs))
	}
	return abs
}

// gitChanges returns the lines changed since rev in the repository
// holding root: committed, staged and not, and every line of a file git
// does not track yet (new, not ignored).
func gitChanges(root, rev string) (changedLines, error) {
	git := func(args ...string) ([]byte, error) {
		cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
		}
		return out, nil
	}
	top, err := git("rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("--new-from-rev: %v", err)
	}
	base := strings.TrimSpace(string(top))
	if _, err := git("rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return nil, fmt.Errorf("--new-from-rev %s: not a commit in %s", rev, base)
	}
	diff, err := git("diff", "-U0", "--no-color", "--no-ext-diff", "--no-renames", "--src-prefix=a/", "--dst-prefix=b/", rev, "--")
	if err != nil {
		return nil, fmt.Errorf("--new-from-rev: %v", err)
	}
	changed, err := parseUnifiedDiff(bytes.NewReader(diff), base)
	if err == errNoDiff {
		err = nil // nothing changed since the revision
	}
	if err != nil {
		return nil, fmt.Errorf("--new-from-rev: %v", err)
	}
	untracked, err := git("ls-files", "-z", "--others", "--exclude-standard", "--full-name", ":/")
	if err != nil {
		return nil, fmt.Errorf("--new-from-rev: %v", err)
	}
	for _, name := range strings.Split(string(untracked), "\x00") {
		if name != "" {
			changed[canonical(filepath.Join(base, name))] = nil // all of it
		}
	}
	return changed, nil
}

// keeps reports whether a finding at file:line is on a changed line: a
// file present with nil lines is new as a whole.
func (c changedLines) keeps(file string, line int) bool {
	lines, ok := c[canonical(file)]
	return ok && (lines == nil || lines[line])
}

// keepsFinding reports whether a finding marked at pos is on a changed
// line, or, for an access in a helper, whether a line between the
// kernel's call and the access changed: the calls inside the helpers and
// the access itself. Editing a helper makes its findings new at every
// call it changes the cost of.
func (c changedLines) keepsFinding(f *lint.Finding, pos token.Position) bool {
	if c.keeps(pos.Filename, pos.Line) {
		return true
	}
	p := f.Prediction
	if p == nil || !p.Access.InHelper() {
		return false
	}
	a := p.Access
	for _, call := range a.Via[a.SiteIndex()+1:] {
		if c.keeps(call.Pos.File, int(call.Pos.Line)) {
			return true
		}
	}
	return c.keeps(a.Pos.File, int(a.Pos.Line))
}

// newChanges reads what --new-from-rev or --new-from-patch say is new, or
// nil when neither is given.
func (o *options) newChanges(root string) (changedLines, error) {
	switch {
	case o.newFromRev != "":
		return gitChanges(root, o.newFromRev)
	case o.newFromPatch != "":
		// Read as sources are: a regular file, bounded (a link to
		// /dev/zero or a FIFO must not hang or exhaust the run).
		patch, err := sources.ReadFile(o.newFromPatch)
		if err != nil {
			return nil, fmt.Errorf("--new-from-patch: %v", err)
		}
		c, err := parseUnifiedDiff(bytes.NewReader(patch), root)
		if err != nil {
			return nil, fmt.Errorf("--new-from-patch %s: %v", o.newFromPatch, err)
		}
		return c, nil
	}
	return nil, nil
}

// baselineFile is what --write-baseline writes.
type baselineFile struct {
	Version  int             `json:"version"`
	Findings []baselineEntry `json:"findings"`
}

type baselineEntry struct {
	Fingerprint string `json:"fingerprint"`
	Rule        string `json:"rule"`
	File        string `json:"file"`
	Line        int    `json:"line"` // for people: matching ignores it
	Message     string `json:"message"`
}

// fingerprints returns each finding's fingerprint, as SARIF's
// partialFingerprints carry it: line-independent, the occurrence count
// telling repeats apart.
func fingerprints(rep *driver.Report) []string {
	base := sarifBase(rep)
	occurrences := map[string]int{}
	out := make([]string, len(rep.Findings))
	for i, f := range rep.Findings {
		key := findingreport.FingerprintKey(f, relURI(base, rep.Fset.Position(f.Pos).Filename))
		occurrences[key]++
		out[i] = findingreport.Fingerprint(key, occurrences[key])
	}
	return out
}

func writeBaselineFile(path, root string, rep *driver.Report, fps []string) error {
	doc := baselineFile{Version: 1, Findings: []baselineEntry{}}
	for i, f := range rep.Findings {
		p := rep.Fset.Position(f.Pos)
		doc.Findings = append(doc.Findings, baselineEntry{Fingerprint: fps[i], Rule: f.Rule.ID,
			File: filepath.ToSlash(shownPath(rep, p.Filename)), Line: p.Line, Message: message(f.Message, quotedExpr(f))})
	}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if err := driver.WriteOutput(path, root, append(data, '\n')); err != nil {
		return fmt.Errorf("--write-baseline: %v", err)
	}
	return nil
}

func readBaseline(path string) (map[string]bool, error) {
	data, err := sources.ReadFile(path) // a regular file, bounded

	if err != nil {
		return nil, fmt.Errorf("--baseline: %v", err)
	}
	var doc baselineFile
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("--baseline %s: %v", path, err)
	}
	if doc.Version != 1 {
		return nil, fmt.Errorf("--baseline %s: version %d, want 1 (written by --write-baseline)", path, doc.Version)
	}
	set := map[string]bool{}
	for _, e := range doc.Findings {
		if e.Fingerprint == "" {
			return nil, errors.New("--baseline " + path + ": an entry without a fingerprint")
		}
		set[e.Fingerprint] = true
	}
	return set, nil
}

// onlyNew applies --write-baseline, --baseline, --new-from-rev and
// --new-from-patch to the report's findings, and returns the fingerprints
// of those kept (for SARIF). It prints on stderr how many baseline
// entries no longer match a finding.
func (o *options) onlyNew(rep *driver.Report, stderr io.Writer) ([]string, error) {
	fps := fingerprints(rep)
	if o.writeBaseline != "" {
		if err := writeBaselineFile(o.writeBaseline, o.fixRoot(), rep, fps); err != nil {
			return nil, err
		}
		fmt.Fprintf(stderr, "cudalint: wrote %d finding%s to the baseline %s\n", len(fps), plural(len(fps)), escape(o.writeBaseline))
	}
	keep := make([]bool, len(rep.Findings))
	for i := range keep {
		keep[i] = true
	}
	if o.baseline != "" || o.writeBaseline != "" {
		var known map[string]bool
		if o.writeBaseline != "" {
			known = map[string]bool{}
			for _, fp := range fps {
				known[fp] = true
			}
		} else {
			var err error
			if known, err = readBaseline(o.baseline); err != nil {
				return nil, err
			}
		}
		matched := map[string]bool{}
		for i, fp := range fps {
			if known[fp] {
				keep[i], matched[fp] = false, true
			}
		}
		if stale := len(known) - len(matched); stale > 0 {
			fmt.Fprintf(stderr, "cudalint: %d baseline entr%s no longer match%s a finding (fixed or changed); --write-baseline %s rewrites it\n",
				stale, map[bool]string{true: "y", false: "ies"}[stale == 1], map[bool]string{true: "es", false: ""}[stale == 1], escape(o.baseline))
		}
	}
	changed, err := o.newChanges(rep.Root)
	if err != nil {
		return nil, err
	}
	var kept []*lint.Finding
	var keptFPs []string
	for i, f := range rep.Findings {
		// A kernel cudalint failed on is never old news: no baseline or
		// diff hides it.
		internal := f.Rule.Kind == lint.ToolFailure
		if internal || keep[i] && (changed == nil || changed.keepsFinding(f, rep.Fset.Position(f.Pos))) {
			kept = append(kept, f)
			keptFPs = append(keptFPs, fps[i])
		}
	}
	rep.Findings = kept
	return keptFPs, nil
}
