package driver

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/lex"
	"github.com/cudalint/cudalint/sources"
)

// Warning is a setting that took no effect: a block shape or a parameter
// value naming no kernel or parameter of the files analyzed. It is not an
// error (a shared configuration may name kernels of files not analyzed
// this time), but it is most often a typo, so it is said.
type Warning struct {
	File      string // the configuration file, or "" for a flag
	Line, Col int
	Message   string // starts with the setting: "blocks: ..." or "--block k=32: ..."
}

func (w Warning) String() string {
	if w.File == "" {
		return "warning: " + w.Message
	}
	return fmt.Sprintf("%s:%d:%d: warning: %s", w.File, w.Line, w.Col, w.Message)
}

// names are the kernels of a run and their parameters.
type names struct {
	kernels map[string]map[string]bool // kernel -> its parameters
	params  map[string]bool            // every kernel's parameters
}

func namesOf(res *analyzer.Result) names {
	n := names{kernels: map[string]map[string]bool{}, params: map[string]bool{}}
	if res == nil {
		return n
	}
	for _, k := range res.Kernels {
		ps := n.kernels[k.Func.Name]
		if ps == nil {
			ps = map[string]bool{}
			n.kernels[k.Func.Name] = ps
		}
		for _, p := range k.Func.Params {
			if p.Name != "" {
				ps[p.Name], n.params[p.Name] = true, true
			}
		}
	}
	return n
}

// block says why a block shape for kernel takes no effect, or "".
func (n names) block(kernel string) string {
	if n.kernels[kernel] != nil {
		return ""
	}
	return fmt.Sprintf("no kernel named %q in the files analyzed%s", kernel, didYouMean(kernel, keys(n.kernels)))
}

// param says why a value for NAME or KERNEL.NAME takes no effect, or ""
// (the analyzer looks parameters up under both spellings).
func (n names) param(key string) string {
	kernel, name, qualified := strings.Cut(key, ".")
	if !qualified {
		if n.params[key] {
			return ""
		}
		return fmt.Sprintf("no kernel in the files analyzed has a parameter %q%s", key, didYouMean(key, keys(n.params)))
	}
	ps := n.kernels[kernel]
	switch {
	case ps == nil:
		return n.block(kernel)
	case ps[name]:
		return ""
	case len(ps) == 0:
		return fmt.Sprintf("kernel %s has no parameters", kernel)
	}
	return fmt.Sprintf("kernel %s has no parameter %q%s", kernel, name, hintOr(name, keys(ps), " (it has "+orList(keys(ps))+")"))
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// configWarnings lists the blocks and params entries of c that take no
// effect, in the order they are written, but those that elsewhere says
// name a kernel or parameter of a file the run left out.
func configWarnings(c *Config, n names, elsewhere func(setting, name string) bool) []Warning {
	var out []Warning
	name := displayPath(c.path)
	for _, e := range c.entries() {
		why := n.block(e.name)
		if e.setting == "params" {
			why = n.param(e.name)
		}
		if why != "" && elsewhere != nil && elsewhere(e.setting, e.name) {
			continue
		}
		if why != "" {
			out = append(out, Warning{File: name, Line: e.at.line, Col: e.at.col, Message: e.setting + ": " + why})
		}
	}
	return out
}

// leftOut is what the CUDA files under a folder that a run did not
// analyze declare, read as text (as contextFiles reads them): their
// kernels, and their words for parameter names. pre-commit and editors
// analyze the files named, so a configuration's entry for a kernel of
// another file is no typo; an entry that no file declares still is.
type leftOut struct {
	kernels map[string]bool
	texts   [][]byte // of the files that declare a kernel
}

func (d *run) leftOut(dir string, analyzed map[string]bool) *leftOut {
	lo := &leftOut{kernels: map[string]bool{}}
	read := d.opts.ReadFile
	if read == nil {
		read = sources.ReadFile
	}
	files, _ := sources.Find([]string{dir})
	for _, f := range files {
		if analyzed[absPath(f)] || d.configFor(f).excludes(f) {
			continue
		}
		src, err := d.opts.Context.text(f, read)
		if err != nil {
			continue
		}
		ks := kernelNames(src)
		for _, k := range ks {
			lo.kernels[string(k)] = true
		}
		if len(ks) > 0 {
			lo.texts = append(lo.texts, src)
		}
	}
	return lo
}

// declares says whether the files left out declare what the entry of
// setting (blocks, grids, params) names: a kernel, or for params a
// kernel's parameter (NAME, or KERNEL.NAME).
func (lo *leftOut) declares(setting, name string) bool {
	if setting != "params" {
		return lo.kernels[name]
	}
	if kernel, _, ok := strings.Cut(name, "."); ok {
		return lo.kernels[kernel]
	}
	for _, src := range lo.texts {
		if hasWord(src, name) {
			return true
		}
	}
	return false
}

// hasWord reports whether word occurs in src as a whole identifier.
func hasWord(src []byte, word string) bool {
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte(word))
		if j < 0 {
			return false
		}
		s, e := i+j, i+j+len(word)
		if (s == 0 || !isIdent(src[s-1])) && (e == len(src) || !isIdent(src[e])) {
			return true
		}
		i = s + 1
	}
}

type entry struct {
	setting, name string
	at            position
}

func (c *Config) entries() []entry {
	var out []entry
	for _, setting := range []string{"blocks", "grids", "params"} {
		for name, at := range c.at[setting] {
			out = append(out, entry{setting, name, at})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].at, out[j].at
		return a.line < b.line || a.line == b.line && a.col < b.col
	})
	return out
}

// FlagWarnings lists the --block and --param values (KERNEL or NAME to
// value, as in Options) that name no kernel or parameter of res.
func FlagWarnings(res *analyzer.Result, blocks map[string]analyzer.Dim3, params map[string]int64) []Warning {
	n := namesOf(res)
	var out []Warning
	for _, k := range keys(blocks) {
		if why := n.block(k); why != "" {
			out = append(out, Warning{Message: fmt.Sprintf("--block %s=%s: %s", k, blocks[k], why)})
		}
	}
	for _, k := range keys(params) {
		if why := n.param(k); why != "" {
			out = append(out, Warning{Message: fmt.Sprintf("--param %s=%d: %s", k, params[k], why)})
		}
	}
	return out
}

// checkOptions rejects options a caller could not have meant, before the
// run: the command line checks its flags too, but a library caller
// deserves the same messages rather than a failure deep in a pass.
func checkOptions(o Options) []error {
	var errs []error
	for _, l := range []struct {
		flag string
		ids  []string
	}{{"--enable", o.Enable}, {"--disable", o.Disable}} {
		for _, id := range l.ids {
			if err := CheckRule(id); err != nil {
				errs = append(errs, fmt.Errorf("%s: %v", l.flag, err))
			}
		}
	}
	for _, k := range keys(o.Grids) {
		if err := CheckGrid(o.Grids[k]); err != nil {
			errs = append(errs, fmt.Errorf("--grid %s=%s: %v", k, o.Grids[k], err))
		}
	}
	for _, k := range keys(o.Blocks) {
		if err := CheckBlock(o.Blocks[k]); err != nil {
			errs = append(errs, fmt.Errorf("--block %s=%s: %v", k, o.Blocks[k], err))
		}
	}
	return errs
}

// splitErrors undoes errors.Join, so that each mistake is its own line.
func splitErrors(err error) []error {
	if err == nil {
		return nil
	}
	var j interface{ Unwrap() []error }
	if errors.As(err, &j) {
		return j.Unwrap()
	}
	return []error{err}
}

// refusedIncludes says, once, that includes were refused for lying
// outside the root: the macros and types they define are then unknown
// and the predictions rest on assumptions. It happens when cudalint runs
// from one repository on another's files, and must not pass for a clean
// run; --stats lists each include.
func refusedIncludes(notes []parser.Note, root string) []Warning {
	var first *parser.Note
	n := 0
	for i := range notes {
		if notes[i].Kind == lex.NoteIncludeOutsideRoot {
			if n == 0 {
				first = &notes[i]
			}
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return []Warning{{Message: fmt.Sprintf("%d #include%s outside the root %s not read (the first at %s:%d): macros and types they define are unknown; run cudalint from the project's repository or give --root",
		n, plural(n), root, first.Pos.File, first.Pos.Line)}}
}
