package driver

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/lex"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/sources"
)

// Host context from C and C++ sources. Many projects keep main() and the
// code that sets sizes in .cpp files that call host functions defined in
// the .cu files (cuda-samples' histogram: main.cpp sets byteCount and
// calls histogram256(), which launches the kernels). When a CUDA file of
// the run defines a host function that launches kernels, itself or
// through the host functions it calls, the C and C++ files under the
// root whose tokens call that function by name are read too: their host
// code is interpreted like a CUDA file's, so that the values it passes
// reach the launches. They are never reported (they are not CUDA):
// --stats counts them, and lists what in them could not be read.
//
// Which files, by their tokens as written (nothing is preprocessed): a
// file whose text calls (an identifier followed by '(') a launching host
// function that it does not define itself, defined in a CUDA file of its
// folder, of a folder above it or of one below it (a sample's main.cpp
// next to its .cu; a project's src/main.cpp above src/cuda/): a
// function of the same name in an unrelated program of the tree pulls
// nothing in. A host function of a file taken that calls a launching
// function launches in turn. Files over MaxHostFileSize are not read.

// MaxHostFileSize is the largest C or C++ file read for host context.
const MaxHostFileSize = 1 << 20

// hostDef is a function definition of a file's text: its name, whether
// its body launches a kernel itself, and what it calls.
type hostDef struct {
	name     string
	launches bool
	calls    []string
}

// hostFacts are what a file's tokens say of its host functions.
type hostFacts struct {
	// defs are its function definitions that are not __global__ or
	// __device__ only.
	defs []hostDef
	// calls are the identifiers followed by '(' anywhere in it.
	calls map[string]bool
	// defined are the names of every function it defines.
	defined map[string]bool
	// includes are the names its #include lines give.
	includes []string
}

// templateCall reports whether the '<' at toks[i] opens the template
// arguments of a call: f<T>(...), the '>' that closes it (within 64
// tokens, on no ';', '{' or '}') followed by '('.
func templateCall(toks []lex.Token, i int) bool {
	depth := 0
	for end := min(len(toks), i+64); i < end; i++ {
		switch toks[i].Text {
		case "<":
			depth++
		case ">":
			depth--
		case ">>":
			depth -= 2
		case ";", "{", "}":
			return false
		}
		if depth <= 0 {
			return depth == 0 && i+1 < len(toks) && toks[i+1].Text == "("
		}
	}
	return false
}

// notDefs are the words before '(' ... ')' '{' that make no function
// definition.
var notDefs = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true,
	"return": true, "sizeof": true, "decltype": true, "alignof": true, "static_assert": true, "do": true, "else": true}

// afterParams are the words that may stand between a definition's
// parameters and its body.
var afterParams = map[string]bool{"const": true, "noexcept": true, "override": true, "final": true,
	"volatile": true, "mutable": true, "&": true, "&&": true}

// launchCalls are the runtime calls that launch a kernel, as
// analyzer/interp models them.
var launchCalls = map[string]bool{"cudaLaunchKernel": true, "cudaLaunchCooperativeKernel": true}

// scanHost reads src's host function definitions and calls.
func scanHost(src []byte) *hostFacts {
	var notes lex.Notes
	toks := lex.Scan("", src, &notes)
	directive := make([]bool, len(toks))
	for i := 0; i < len(toks); i++ {
		if toks[i].BOL && toks[i].Kind == lex.KPunct && toks[i].Text == "#" {
			for directive[i] = true; i+1 < len(toks) && !toks[i+1].BOL; i++ {
				directive[i+1] = true
			}
		}
	}
	h := &hostFacts{calls: map[string]bool{}, defined: map[string]bool{}}
	called := func(i int) bool {
		return toks[i].Kind == lex.KIdent && !directive[i] && !notDefs[toks[i].Text] && i+1 < len(toks) && (toks[i+1].Text == "(" || toks[i+1].Text == "<" && templateCall(toks, i+1))
	}
	for i, t := range toks {
		if directive[i] && t.Kind == lex.KIdent && t.Text == "include" && i > 0 && toks[i-1].Text == "#" {
			if name, ok := includeName(toks, i+1, t.Pos.Line); ok {
				h.includes = append(h.includes, name)
			}
		}
	}
	for i := 0; i < len(toks); i++ {
		if called(i) {
			h.calls[toks[i].Text] = true
		}
		if directive[i] || toks[i].Kind != lex.KPunct || toks[i].Text != "{" {
			continue
		}
		name, host, ok := definitionBefore(toks, directive, i)
		if !ok {
			continue
		}
		h.defined[name] = true
		end, depth := i+1, 1
		d := hostDef{name: name}
		seen := map[string]bool{}
		for ; end < len(toks) && depth > 0; end++ {
			t := toks[end]
			if directive[end] {
				continue
			}
			switch {
			case t.Kind == lex.KPunct && t.Text == "{":
				depth++
			case t.Kind == lex.KPunct && t.Text == "}":
				depth--
			case t.Kind == lex.KPunct && t.Text == "<<<":
				d.launches = true
			case called(end):
				h.calls[t.Text] = true
				if launchCalls[t.Text] {
					d.launches = true
				}
				if !seen[t.Text] && t.Text != name {
					seen[t.Text] = true
					d.calls = append(d.calls, t.Text)
				}
			}
		}
		if host {
			h.defs = append(h.defs, d)
		}
		i = end - 1
	}
	return h
}

// definitionBefore reads the definition whose body opens at toks[i]: its
// name, and whether it is host code (neither __global__ nor __device__
// without __host__).
func definitionBefore(toks []lex.Token, directive []bool, i int) (name string, host, ok bool) {
	j := i - 1
	for j >= 0 && !directive[j] && afterParams[toks[j].Text] {
		j--
	}
	if j < 0 || directive[j] || toks[j].Text != ")" {
		return "", false, false
	}
	depth := 0
	for ; j >= 0; j-- {
		switch toks[j].Text {
		case ")":
			depth++
		case "(":
			depth--
		}
		if depth == 0 {
			break
		}
	}
	if j < 1 || directive[j-1] || toks[j-1].Kind != lex.KIdent || notDefs[toks[j-1].Text] {
		return "", false, false
	}
	name = toks[j-1].Text
	global, device, hostAttr := false, false, false
	for k := j - 2; k >= 0 && k > j-66 && !directive[k]; k-- {
		t := toks[k]
		if t.Kind == lex.KPunct && (t.Text == ";" || t.Text == "{" || t.Text == "}") {
			break
		}
		switch t.Text {
		case "__global__":
			global = true
		case "__device__":
			device = true
		case "__host__":
			hostAttr = true
		}
	}
	return name, !global && (!device || hostAttr), true
}

// host is path's host facts, from the cache while the file is
// unchanged (see facts).
func (c *ContextCache) host(path string, read func(string) ([]byte, error)) (*hostFacts, error) {
	if c == nil {
		return scanned(nil, nil, path, read, scanHost)
	}
	return scanned(&c.mu, c.hosts, path, read, scanHost)
}

// hostFiles are the C and C++ files under root that a run of the CUDA
// files cuda reads for host context (see above), spelled as the CUDA
// files are, and what could not be used, one line each. skip says which
// files the configuration excludes.
func hostFiles(root string, cuda []string, read func(string) ([]byte, error), cache *ContextCache, skip func(string) bool) (files, problems []string) {
	if root == "" || len(cuda) == 0 {
		return nil, nil
	}
	// launchers are the launching host functions, each with the folders
	// of the files that define it.
	launchers := map[string]map[string]bool{}
	add := func(name, dir string) bool {
		if launchers[name][dir] {
			return false
		}
		if launchers[name] == nil {
			launchers[name] = map[string]bool{}
		}
		launchers[name][dir] = true
		return true
	}
	type fileDefs struct {
		dir  string
		defs []hostDef
	}
	scanned := make([]*hostFacts, len(cuda))
	eachParallel(len(cuda), func(i int) {
		scanned[i], _ = cache.host(cuda[i], read)
	})
	var all []fileDefs
	for i, f := range cuda {
		if scanned[i] != nil {
			all = append(all, fileDefs{filepath.Dir(absPath(f)), scanned[i].defs})
		}
	}
	spread := func() {
		for changed := true; changed; {
			changed = false
			for _, fd := range all {
				for _, d := range fd.defs {
					if d.launches || callsAny(d.calls, launchers) {
						changed = add(d.name, fd.dir) || changed
					}
				}
			}
		}
	}
	spread()
	if len(launchers) == 0 {
		return nil, nil
	}
	walkRoot := root
	if cwd, err := os.Getwd(); err == nil && !allAbs(cuda) {
		if rel, err := filepath.Rel(cwd, root); err == nil {
			walkRoot = rel
		}
	}
	found, _ := sources.FindHost(walkRoot)
	facts := map[string]*hostFacts{}
	var candidates, big []string
	for _, f := range found {
		info, err := os.Stat(f)
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		if info.Size() > MaxHostFileSize {
			big = append(big, f)
			continue
		}
		candidates = append(candidates, f)
	}
	// A file is lexed only once its text names a launching function near
	// it, read byte by byte: most C and C++ files of a tree (ggml's
	// thousands of lines of CPU code) call nothing of the CUDA files'.
	failed := map[string]bool{}
	factsOf := func(f string) *hostFacts {
		if h, ok := facts[f]; ok || failed[f] {
			return h
		}
		names, err := cache.namesLauncherNear(f, read, launchers)
		if err != nil {
			problems = append(problems, err.Error())
			failed[f] = true
			return nil
		}
		if !names {
			return nil
		}
		h, err := cache.host(f, read)
		if err != nil {
			problems = append(problems, err.Error())
			failed[f] = true
			return nil
		}
		facts[f] = withIncluded(f, h, read, cache)
		return facts[f]
	}
	// The first look, at the launchers of the CUDA files, on every core.
	first := make([]*hostFacts, len(candidates))
	firstErr := make([]error, len(candidates))
	eachParallel(len(candidates), func(i int) {
		f := candidates[i]
		names, err := cache.namesLauncherNear(f, read, launchers)
		if err != nil {
			firstErr[i] = err
			return
		}
		if !names {
			return
		}
		h, err := cache.host(f, read)
		if err != nil {
			firstErr[i] = err
			return
		}
		first[i] = withIncluded(f, h, read, cache)
	})
	for i, f := range candidates {
		switch {
		case firstErr[i] != nil:
			problems = append(problems, firstErr[i].Error())
			failed[f] = true
		case first[i] != nil:
			facts[f] = first[i]
		}
	}
	taken := map[string]bool{}
	for round := 0; ; round++ {
		changed := false
		for _, f := range candidates {
			if taken[f] {
				continue
			}
			h := facts[f]
			if round > 0 {
				h = factsOf(f)
			}
			if h == nil || !callsNear(h, filepath.Dir(absPath(f)), launchers) || skip(f) {
				continue
			}
			taken[f], changed = true, true
			files = append(files, f)
			all = append(all, fileDefs{filepath.Dir(absPath(f)), h.defs})
		}
		if !changed {
			break
		}
		spread()
	}
	sort.Strings(files)
	// A file over the limit is worth a line only where it would have
	// been read: when its text calls a launching function near it.
	for _, f := range big {
		if names, err := cache.namesLauncherNear(f, read, launchers); err == nil && names && !skip(f) {
			problems = append(problems, fmt.Sprintf("%s: over %d bytes, not read", f, MaxHostFileSize))
		}
	}
	return files, problems
}

// namesNear reports whether src, read byte by byte (comments and strings
// too), has a word followed by '(' or '<' that is a launcher defined
// near dir: what a file must have to call one.
func namesNear(src []byte, dir string, launchers map[string]map[string]bool) bool {
	found := false
	eachCallWord(src, func(w []byte) bool {
		found = launcherNear(string(w), dir, launchers)
		return !found
	})
	return found
}

// eachCallWord calls f with each word of src followed by '(' or '<'
// while f returns true.
func eachCallWord(src []byte, f func([]byte) bool) {
	for i := 0; i < len(src); {
		if !identByte[src[i]] {
			i++
			continue
		}
		s := i
		for i < len(src) && identByte[src[i]] {
			i++
		}
		j := i
		for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		if j < len(src) && (src[j] == '(' || src[j] == '<') && !f(src[s:i]) {
			return
		}
	}
}

// identByte is isIdent as a table: eachCallWord reads every byte of
// every C and C++ file under the root (50 MB in FasterTransformer).
var identByte = func() (t [256]bool) {
	for c := range t {
		t[c] = isIdent(byte(c))
	}
	return t
}()

func launcherNear(name, dir string, launchers map[string]map[string]bool) bool {
	for d := range launchers[name] {
		if near(d, dir) {
			return true
		}
	}
	return false
}

// callWords are the words of a file that eachCallWord gives. A server
// keeps them per file (ContextCache.callWords), so that an edit's run
// looks names up rather than reading and scanning the tree again.
type callWords map[string]bool

func scanCallWords(src []byte) callWords {
	words := callWords{}
	eachCallWord(src, func(w []byte) bool {
		words[string(w)] = true
		return true
	})
	return words
}

// namesLauncherNear is namesNear of path's text: from its call words
// kept in the cache while the file is unchanged (see facts), or, with no
// cache, from the text read now.
func (c *ContextCache) namesLauncherNear(path string, read func(string) ([]byte, error), launchers map[string]map[string]bool) (bool, error) {
	dir := filepath.Dir(absPath(path))
	if c == nil {
		src, err := read(path)
		if err != nil {
			return false, err
		}
		return namesNear(src, dir, launchers), nil
	}
	words, err := scanned(&c.mu, c.words, path, read, scanCallWords)
	if err != nil {
		return false, err
	}
	for name := range launchers {
		if words[name] && launcherNear(name, dir, launchers) {
			return true, nil
		}
	}
	return false, nil
}

// callsAny reports whether one of calls is a launcher.
func callsAny(calls []string, launchers map[string]map[string]bool) bool {
	for _, c := range calls {
		if launchers[c] != nil {
			return true
		}
	}
	return false
}

// callsNear reports whether h calls a launcher it does not define,
// defined in dir, above it or below it.
func callsNear(h *hostFacts, dir string, launchers map[string]map[string]bool) bool {
	for name := range h.calls {
		if h.defined[name] {
			continue
		}
		for d := range launchers[name] {
			if near(d, dir) {
				return true
			}
		}
	}
	return false
}

// near reports whether folder a is b, or one holds the other.
func near(a, b string) bool {
	sep := string(filepath.Separator)
	return a == b || strings.HasPrefix(a, strings.TrimSuffix(b, sep)+sep) || strings.HasPrefix(b, strings.TrimSuffix(a, sep)+sep)
}

// hostContext lists the host files of a run of the files analyzed
// (hostFiles), unless the options or the files' configuration turn it
// off. A configuration met only for a host file that has mistakes
// governs nothing here: the file is read as if it had none, and the run
// is not stopped for a file it does not report.
func (d *run) hostContext(analyzed []string) ([]string, []string) {
	if d.opts.NoHostCpp || d.root == "" {
		return nil, nil
	}
	read := d.opts.ReadFile
	if read == nil {
		read = sources.ReadFile
	}
	have := map[string]bool{}
	for _, f := range analyzed {
		have[absPath(f)] = true
	}
	skip := func(f string) bool {
		if have[absPath(f)] {
			return true
		}
		n := len(d.configErrs)
		c := d.configFor(f)
		d.configErrs = d.configErrs[:n]
		return c.excludes(f) || c != nil && c.HostCpp != nil && !*c.HostCpp
	}
	return hostFiles(d.root, analyzed, read, d.opts.Context, skip)
}

// hostOutcome separates, of a run that read host files, the errors of
// loading them (problems, not errors of the run), the files only they
// read (hidden: never reported, their notes never shown), and the parse
// notes in them (problems: what of them could not be read).
func hostOutcome(ar *accesses.Result, host, problems []string) (errs []error, hidden map[string]bool, _ []string) {
	if len(host) == 0 {
		return ar.Errors, nil, problems
	}
	isHost := map[string]bool{}
	for _, f := range host {
		isHost[filepath.Clean(f)] = true
	}
	for _, err := range ar.Errors {
		own := false
		for _, f := range host {
			if strings.HasPrefix(err.Error(), f+":") {
				own = true
				break
			}
		}
		if own {
			problems = append(problems, err.Error())
		} else {
			errs = append(errs, err)
		}
	}
	hidden = map[string]bool{}
	shown := map[string]bool{}
	for _, f := range ar.Analysis.Program.Files {
		for p := range f.Sources {
			if isHost[filepath.Clean(f.Path)] {
				hidden[p] = true
			} else {
				shown[p] = true
			}
		}
		if !isHost[filepath.Clean(f.Path)] {
			continue
		}
		var first parser.Note
		n := 0
		for _, note := range f.Notes {
			if note.Pos.File == f.Path && unreadable(note.Kind) {
				if n == 0 {
					first = note
				}
				n++
			}
		}
		if n > 0 {
			problems = append(problems, fmt.Sprintf("%s: %d parse notes, the first at %d:%d: %s", f.Path, n, first.Pos.Line, first.Pos.Col, first.Msg))
		}
	}
	for p := range shown {
		delete(hidden, p)
	}
	return errs, hidden, problems
}

// dropHidden are the translation units less the host files'.
func dropHidden(files []*parser.File, hidden map[string]bool) []*parser.File {
	var out []*parser.File
	for _, f := range files {
		if !hidden[f.Path] {
			out = append(out, f)
		}
	}
	return out
}

// reportedFunc is Report.Reported: the named files' when some were
// named alone (nil: all), less the hidden ones.
func reportedFunc(reported, hidden map[string]bool) func(string) bool {
	switch {
	case reported == nil && hidden == nil:
		return nil
	case hidden == nil:
		return func(file string) bool { return inNamed(reported, file) }
	}
	return func(file string) bool { return !hidden[file] && (reported == nil || inNamed(reported, file)) }
}

// unreadable reports whether a note of this kind says code was not read:
// the scanner's, the preprocessor's and the parser's notes, less an
// include not found or refused (a host file's headers are often another
// platform's: what it calls is still read).
func unreadable(k lex.NoteKind) bool {
	switch k {
	case lex.NoteIncludeNotFound, lex.NoteIncludeRefused, lex.NoteIncludeOutsideRoot:
		return false
	}
	return k >= lex.NoteUnterminatedComment && k <= lex.NoteCaseValue
}

// withIncluded is h with the functions defined by the files it includes
// by a name relative to its folder (and those they include, 16 files at
// most) counted as its own: test_gpt2.c includes train_gpt2.c, whose
// gpt2_forward it calls, and calls nothing of the CUDA files'.
func withIncluded(path string, h *hostFacts, read func(string) ([]byte, error), cache *ContextCache) *hostFacts {
	if len(h.includes) == 0 {
		return h
	}
	out := &hostFacts{defs: h.defs, calls: h.calls, defined: map[string]bool{}, includes: h.includes}
	for k := range h.defined {
		out.defined[k] = true
	}
	seen := map[string]bool{absPath(path): true}
	type item struct {
		dir  string
		name string
	}
	var queue []item
	for _, n := range h.includes {
		queue = append(queue, item{filepath.Dir(path), n})
	}
	for len(queue) > 0 && len(seen) <= 16 {
		it := queue[0]
		queue = queue[1:]
		p := filepath.Join(it.dir, it.name)
		if seen[absPath(p)] || sources.IsSource(p) {
			continue
		}
		seen[absPath(p)] = true
		info, err := os.Stat(p)
		if err != nil || !info.Mode().IsRegular() || info.Size() > MaxHostFileSize {
			continue
		}
		g, err := cache.host(p, read)
		if err != nil {
			continue
		}
		for k := range g.defined {
			out.defined[k] = true
		}
		for _, n := range g.includes {
			queue = append(queue, item{filepath.Dir(p), n})
		}
	}
	return out
}

// eachParallel runs do(0..n-1) on every core.
func eachParallel(n int, do func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				do(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}
