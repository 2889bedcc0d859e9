package launch

import (
	"path/filepath"
	"reflect"

	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/lex"
)

// An editor reports the findings of one file, the one open: the other
// files of the program (its headers, the files that include it or launch
// its kernels) are read for what they tell of it, and their own findings
// are dropped. A memo given a focus (Memo.Focus) spares an analysis the
// work whose results would be dropped: only the kernels whose findings
// can land in a focused file are analyzed (see Index.Reportable), and
// only the host functions that can launch one of them are interpreted
// (see findLaunches). What is analyzed is analyzed exactly as without a
// focus, so the focused files' findings are the same.

// Focus restricts the analyses after it to what can be reported in
// files (absolute paths); none: every kernel and host function, as
// without a memo.
func (m *Memo) Focus(files []string) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.focus = nil
	if len(files) > 0 {
		m.focus = map[string]bool{}
		for _, f := range files {
			m.focus[filepath.Clean(f)] = true
		}
	}
	m.inFocus = map[string]bool{}
}

// Focused reports whether the analysis has a focus.
func (x *Index) Focused() bool { return x.focused() }

// focused reports whether the analysis has a focus.
func (x *Index) focused() bool {
	return x != nil && x.focus != nil
}

// inFocus reports whether a position's file is a focused one, as the
// driver matches a finding's file to the files named: absolute.
func (x *Index) inFocus(file string) bool {
	m := x.m
	m.mu.Lock()
	in, ok := m.inFocus[file]
	m.mu.Unlock()
	if ok {
		return in
	}
	abs := file
	if a, err := filepath.Abs(file); err == nil {
		abs = a
	}
	in = x.focus[filepath.Clean(abs)]
	m.mu.Lock()
	m.inFocus[file] = in
	m.mu.Unlock()
	return in
}

// Reportable reports whether a finding of kernel fn can land in a
// focused file: whether fn or an item its interpretation can read (the
// device functions, types and variables its names reach, in turn) holds
// a token written there. A finding is marked at an access or at the call
// of the helper holding it, and an access's tokens are where they were
// written (a macro's body too): all inside those items. True without a
// focus.
func (x *Index) Reportable(fn *parser.Func) bool {
	if !x.focused() {
		return true
	}
	x.mu.Lock()
	r, ok := x.reportable[fn]
	x.mu.Unlock()
	if ok {
		return r
	}
	r = x.writesFocus(fn)
	if !r {
		for _, d := range x.closure(fn, x.device, x.always, false) {
			if x.writesFocus(d) {
				r = true
				break
			}
		}
	}
	x.mu.Lock()
	x.reportable[fn] = r
	x.mu.Unlock()
	return r
}

// writesFocus reports whether item holds a position in a focused file.
func (x *Index) writesFocus(item any) bool {
	for _, f := range x.files(item) {
		if x.inFocus(f) {
			return true
		}
	}
	return false
}

// launchesReportable reports whether host function fn can launch a
// kernel in need (a reportable one): whether one is among the items its
// names reach, in turn, through host code. A launch names its kernel
// (or a value that a caller, reached the same way, set to it), and
// launches are matched to kernels by name.
func (x *Index) launchesReportable(fn *parser.Func, need map[*parser.Func]bool) bool {
	for _, d := range x.closure(fn, x.all, nil, true) {
		if k, ok := d.(*parser.Func); ok && need[k] {
			return true
		}
	}
	return false
}

var posType = reflect.TypeOf(lex.Pos{})

// files are the files item's positions name, from the memo when it has
// seen the item before.
func (x *Index) files(item any) []string {
	return x.mentioned(item, collectFiles,
		func(e *mentions) ([]string, bool) { return e.files, e.filed },
		func(e *mentions, files []string) { e.files, e.filed = files, true })
}

// collectFiles adds the file of every position under v.
func collectFiles(v reflect.Value, set map[string]bool, seen map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		collectFiles(v.Elem(), set, seen)
	case reflect.Interface:
		if !v.IsNil() {
			collectFiles(v.Elem(), set, seen)
		}
	case reflect.Struct:
		if v.Type() == posType {
			set[v.Field(0).String()] = true
			return
		}
		for i := 0; i < v.NumField(); i++ {
			collectFiles(v.Field(i), set, seen)
		}
	case reflect.Slice, reflect.Array:
		if k := v.Type().Elem().Kind(); k != reflect.Struct && k != reflect.Pointer && k != reflect.Interface && k != reflect.Slice && k != reflect.Array && k != reflect.Map {
			return
		}
		for i := 0; i < v.Len(); i++ {
			collectFiles(v.Index(i), set, seen)
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			collectFiles(it.Key(), set, seen)
			collectFiles(it.Value(), set, seen)
		}
	}
}

// unreported says which host functions findLaunches may leave out under
// memo's focus: those that cannot launch a reportable kernel. Host
// function templates are instantiated by the host functions that call
// them, under a program-wide cap on instantiations; when one can launch
// a reportable kernel, every host function is interpreted as without a
// focus, so that the cap leaves out what it would have. Otherwise no
// template's launch is of a reportable kernel, and none is needed.
func (p *Program) unreported(memo *Index) func(*parser.Func) bool {
	none := func(*parser.Func) bool { return false }
	if !memo.focused() {
		return none
	}
	need := map[*parser.Func]bool{}
	for _, k := range p.Kernels {
		if memo.Reportable(k) {
			need[k] = true
		}
	}
	if len(need) > 0 {
		for _, f := range p.Files {
			for _, fn := range hostCandidates(f) {
				if fn.Host && !fn.Global && fn.Body != nil && interp.IsHostTemplate(fn) && memo.launchesReportable(fn, need) {
					return none
				}
			}
		}
	}
	if len(need) == 0 {
		return func(*parser.Func) bool { return true }
	}
	return func(fn *parser.Func) bool { return !memo.launchesReportable(fn, need) }
}
