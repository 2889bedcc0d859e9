package launch

import (
	"fmt"
	"maps"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/cudalint/cudalint/internal/deepkey"

	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/parser"
)

// Memo keeps what host functions launch from one analysis to the next
// of a program that changes a little at a time (an editor's session),
// and the names each parsed item mentions, from which the analyzer's
// memo keys kernels too.
//
// A host function's launches are keyed by what its interpretation can
// read: the parsed items its names reach, in turn (host and device
// functions, kernels, types, file-scope variables), the translation
// unit it runs in and its using-declarations. An item is known by its
// identity: a parser.ItemCache hands back the same item for the same
// tokens at the same positions, and a new one otherwise. Host function
// templates are instantiated afresh every time.
//
// A Memo serves one analysis at a time.
type Memo struct {
	mu       sync.Mutex
	gen      int
	mentions map[any]*mentions
	hosts    map[string]*hostRun
	closures map[closureKey]*closureRun
	last     [2]int // host runs reused, interpreted
	// focus holds the files the analyses report, absolute (see Focus);
	// inFocus says whether a position's file is one, by its spelling.
	focus   map[string]bool
	inFocus map[string]bool
}

// closureKey names one closure: its root and whether it follows host
// code (opaque kernels) or device code only.
type closureKey struct {
	root   any
	opaque bool
}

// closureRun is a closure as an earlier analysis computed it, with what
// it read of that analysis's index: the names it looked up, in order,
// and the items each named then. The closure is the same while every
// one of those names gives the same items (the items' names are theirs
// for good: see names), so an analysis checks those lookups instead of
// walking the items again.
type closureRun struct {
	names   []string
	lookups [][]any
	always  []any
	out     []any
	used    int
}

type mentions struct {
	names []string
	named bool     // names is known
	sig   string   // a kernel's signature, when asked for (see signature)
	files []string // the files of its positions
	filed bool     // files is known
	used  int
}

type hostRun struct {
	launches []*interp.Launch
	insts    []interp.Instantiation
	used     int
}

// memoKeep is how many analyses an entry outlives its last use: a
// session alternating between a few open files keeps each one's.
const memoKeep = 8

// NewMemo makes an empty memo.
func NewMemo() *Memo {
	return &Memo{mentions: map[any]*mentions{}, hosts: map[string]*hostRun{}, closures: map[closureKey]*closureRun{}}
}

// Last says how many host functions the latest analysis took from the
// memo and how many it interpreted.
func (m *Memo) Last() (reused, interpreted int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.last[0], m.last[1]
}

// Index is one analysis's view of a memo: the program's items by the
// names they declare, and each file's translation unit.
type Index struct {
	m *Memo
	// device holds what a kernel's interpretation can read (device
	// functions, types, variables); all holds host functions and
	// kernels too.
	device, all map[string][]any
	always      []any // device operators: reached without their names
	mu          sync.Mutex
	units       map[*parser.File]map[any]bool
	stats       [2]int
	// focus is the memo's focus for this analysis; reportable what
	// Reportable said of each kernel.
	focus      map[string]bool
	reportable map[*parser.Func]bool
}

// Begin starts an analysis of files; nil for a nil memo.
func (m *Memo) Begin(files []*parser.File) *Index {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	m.gen++
	focus := m.focus
	m.mu.Unlock()
	x := &Index{m: m, device: map[string][]any{}, all: map[string][]any{}, units: map[*parser.File]map[any]bool{}, focus: focus, reportable: map[*parser.Func]bool{}}
	seen := map[any]bool{}
	add := func(name string, item any, device bool) {
		x.all[name] = append(x.all[name], item)
		if device {
			x.device[name] = append(x.device[name], item)
		}
	}
	for _, f := range files {
		for _, d := range []parser.Decls{f.UnitDecls(), {Funcs: f.Funcs, Structs: f.Structs, Typedefs: f.Typedefs, Globals: f.Globals}} {
			for _, fn := range d.Funcs {
				if seen[fn] {
					continue
				}
				seen[fn] = true
				// A kernel's interpretation inlines device functions only.
				add(fn.Name, fn, fn.Device)
				if fn.Device && strings.HasPrefix(fn.Name, "operator") {
					x.always = append(x.always, fn)
				}
			}
			for _, s := range d.Structs {
				if !seen[s] {
					seen[s] = true
					add(s.Name, s, true)
				}
			}
			for _, t := range d.Typedefs {
				if !seen[t] {
					seen[t] = true
					add(t.Name, t, true)
				}
			}
			for _, g := range d.Globals {
				if seen[g] {
					continue
				}
				seen[g] = true
				for _, dc := range g.Declarators {
					add(dc.Name, g, true)
				}
			}
		}
	}
	return x
}

// End closes the analysis: entries unused for memoKeep analyses go.
func (x *Index) End() {
	if x == nil {
		return
	}
	m := x.m
	m.mu.Lock()
	defer m.mu.Unlock()
	maps.DeleteFunc(m.hosts, func(_ string, e *hostRun) bool { return e.used < m.gen-memoKeep })
	maps.DeleteFunc(m.mentions, func(_ any, e *mentions) bool { return e.used < m.gen-memoKeep })
	maps.DeleteFunc(m.closures, func(_ closureKey, e *closureRun) bool { return e.used < m.gen-memoKeep })
	m.last = x.stats
}

// unit is the set of items f's translation unit defines.
func (x *Index) unit(f *parser.File) map[any]bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	if u, ok := x.units[f]; ok {
		return u
	}
	d := f.UnitDecls()
	u := map[any]bool{}
	for _, fn := range d.Funcs {
		u[fn] = true
	}
	for _, s := range d.Structs {
		u[s] = true
	}
	for _, t := range d.Typedefs {
		u[t] = true
	}
	for _, g := range d.Globals {
		u[g] = true
	}
	x.units[f] = u
	return u
}

// names are the identifiers item mentions, from the memo when it has
// seen the item before.
func (x *Index) names(item any) []string {
	return x.mentioned(item, collectNames,
		func(e *mentions) ([]string, bool) { return e.names, e.named },
		func(e *mentions, names []string) { e.names, e.named = names, true })
}

// mentioned is the sorted set collect finds under item, from the memo's
// entry for item when it holds one (get), else collected and kept there
// (set). The entry is read and written under the lock: host functions
// run in parallel.
func (x *Index) mentioned(item any, collect func(reflect.Value, map[string]bool, map[uintptr]bool),
	get func(*mentions) ([]string, bool), set func(*mentions, []string)) []string {
	m := x.m
	m.mu.Lock()
	if e, ok := m.mentions[item]; ok {
		e.used = m.gen
		if out, done := get(e); done {
			m.mu.Unlock()
			return out
		}
	}
	m.mu.Unlock()
	found := map[string]bool{}
	collect(reflect.ValueOf(item), found, map[uintptr]bool{})
	out := make([]string, 0, len(found))
	for n := range found {
		out = append(out, n)
	}
	sort.Strings(out)
	m.mu.Lock()
	e, ok := m.mentions[item]
	if !ok {
		e = &mentions{used: m.gen}
		m.mentions[item] = e
	}
	set(e, out)
	m.mu.Unlock()
	return out
}

func isKernel(item any) bool {
	fn, ok := item.(*parser.Func)
	return ok && fn.Global
}

// signature is what host code reads of kernel fn: its name, scope,
// execution spaces, template and parameters (with where they are
// written), not its body.
func (x *Index) signature(fn *parser.Func) string {
	m := x.m
	m.mu.Lock()
	var known string
	if e, ok := m.mentions[fn]; ok {
		e.used, known = m.gen, e.sig // read under the lock: host functions run in parallel
	}
	m.mu.Unlock()
	if known != "" {
		return known
	}
	var b strings.Builder
	deepkey.Write(&b, reflect.ValueOf(struct {
		P                        parser.Pos
		Name, Namespace, Class   string
		Global, Device, Host, St bool
		Template                 []parser.TemplateParam
		Params                   []*parser.Param
	}{fn.P, fn.Name, fn.Namespace, fn.Class, fn.Global, fn.Device, fn.Host, fn.Static, fn.Template, fn.Params}), nil)
	sig := b.String()
	m.mu.Lock()
	if e, ok := m.mentions[fn]; ok {
		e.sig = sig
	} else {
		m.mentions[fn] = &mentions{sig: sig, used: m.gen}
	}
	m.mu.Unlock()
	return sig
}

// collectNames adds every identifier of every string under v.
func collectNames(v reflect.Value, set map[string]bool, seen map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		collectNames(v.Elem(), set, seen)
	case reflect.Interface:
		if !v.IsNil() {
			collectNames(v.Elem(), set, seen)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			collectNames(v.Field(i), set, seen)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			collectNames(v.Index(i), set, seen)
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			collectNames(it.Key(), set, seen)
			collectNames(it.Value(), set, seen)
		}
	case reflect.String:
		addIdents(v.String(), set)
	}
}

func addIdents(s string, set map[string]bool) {
	start := -1
	for i := 0; i <= len(s); i++ {
		c := byte(0)
		if i < len(s) {
			c = s[i]
		}
		ident := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
		switch {
		case ident && start < 0:
			start = i
		case !ident && start >= 0:
			set[s[start:i]] = true
			start = -1
		}
	}
}

// closure is the items root's names reach, in turn, through index; a
// kernel other than root is reached but not followed when opaque is set
// (host code reads a kernel's signature, never its body).
func (x *Index) closure(root any, index map[string][]any, always []any, opaque bool) []any {
	m := x.m
	k := closureKey{root, opaque}
	m.mu.Lock()
	e, ok := m.closures[k]
	m.mu.Unlock()
	if ok && e.valid(index, always) {
		m.mu.Lock()
		e.used = m.gen
		m.mu.Unlock()
		return e.out
	}
	if ok && opaque {
		if moved, ok := x.kernelsRenewed(e, index, always); ok {
			m.mu.Lock()
			e.used = m.gen
			m.closures[k] = moved
			m.mu.Unlock()
			return moved.out
		}
	}
	e = &closureRun{always: always}
	e.out = x.walkClosure(root, index, always, opaque, e)
	m.mu.Lock()
	e.used = m.gen
	m.closures[k] = e
	m.mu.Unlock()
	return e.out
}

// kernelsRenewed is host closure e brought up to index when what
// changed of the items it reached is kernels' bodies: a host closure
// reaches kernels but does not follow them, so an edit inside a kernel
// (a new item, its signature the same) leaves the closure as it was but
// for that item. ok is false when anything else changed.
func (x *Index) kernelsRenewed(e *closureRun, index map[string][]any, always []any) (*closureRun, bool) {
	if !sameItems(e.always, always) {
		return nil, false
	}
	renewed := map[any]any{}
	for i, n := range e.names {
		was, now := e.lookups[i], index[n]
		if len(was) != len(now) {
			return nil, false
		}
		for j := range was {
			if was[j] == now[j] {
				continue
			}
			old, okOld := was[j].(*parser.Func)
			fresh, okNew := now[j].(*parser.Func)
			if !okOld || !okNew || !old.Global || !fresh.Global || x.signature(old) != x.signature(fresh) {
				return nil, false
			}
			renewed[old] = fresh
		}
	}
	out := make([]any, len(e.out))
	for i, d := range e.out {
		out[i] = d
		if r, ok := renewed[d]; ok {
			out[i] = r
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return reflect.ValueOf(out[i]).Pointer() < reflect.ValueOf(out[j]).Pointer()
	})
	lookups := make([][]any, len(e.names))
	for i, n := range e.names {
		lookups[i] = index[n]
	}
	return &closureRun{names: e.names, lookups: lookups, always: e.always, out: out}, true
}

// valid reports whether the closure e recorded is the one index gives.
func (e *closureRun) valid(index map[string][]any, always []any) bool {
	if !sameItems(e.always, always) {
		return false
	}
	for i, n := range e.names {
		if !sameItems(e.lookups[i], index[n]) {
			return false
		}
	}
	return true
}

func sameItems(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// walkClosure computes the closure, recording in rec the lookups it
// makes of index.
func (x *Index) walkClosure(root any, index map[string][]any, always []any, opaque bool, rec *closureRun) []any {
	seen := map[any]bool{root: true}
	named := map[string]bool{}
	out := append([]any(nil), always...)
	for _, a := range always {
		seen[a] = true
	}
	queue := append([]any{root}, always...)
	for len(queue) > 0 {
		item := queue[0]
		queue = queue[1:]
		for _, n := range x.names(item) {
			if named[n] {
				continue
			}
			named[n] = true
			rec.names = append(rec.names, n)
			rec.lookups = append(rec.lookups, index[n])
			for _, d := range index[n] {
				if !seen[d] {
					seen[d] = true
					out = append(out, d)
					if !opaque || !isKernel(d) {
						queue = append(queue, d)
					}
				}
			}
		}
	}
	// The key is the set: its order is the items' addresses.
	sort.Slice(out, func(i, j int) bool {
		return reflect.ValueOf(out[i]).Pointer() < reflect.ValueOf(out[j]).Pointer()
	})
	return out
}

// WriteKey writes the key of code root run in file f's translation unit:
// root, the file, every item root's names reach in turn (a kernel's
// interpretation: device items only) with whether f's unit defines it,
// and the unit's using-declarations.
func (x *Index) WriteKey(b *strings.Builder, f *parser.File, root *parser.Func, deviceOnly bool) {
	fmt.Fprintf(b, "%p|%q|", root, f.Path)
	index, always := x.all, []any(nil)
	if deviceOnly {
		index, always = x.device, x.always
	}
	unit := x.unit(f)
	var kernels []string
	for _, d := range x.closure(root, index, always, !deviceOnly) {
		in := "0"
		if unit[d] {
			in = "1"
		}
		if !deviceOnly && isKernel(d) {
			// What host code reads of a kernel: an edit of its body
			// leaves the host functions that launch it.
			// Length-prefixed rather than quoted: the same key, unescaped.
			sig := x.signature(d.(*parser.Func))
			kernels = append(kernels, "k"+strconv.Itoa(len(sig))+":"+sig+"."+in+",")
			continue
		}
		b.WriteString(strconv.FormatUint(uint64(reflect.ValueOf(d).Pointer()), 16))
		b.WriteByte('.')
		b.WriteString(in)
		b.WriteByte(',')
	}
	// The kernels in the order of their signatures, not of their items'
	// addresses (the closure's order): an edited kernel is a new item,
	// at a new address, with the same signature.
	sort.Strings(kernels)
	for _, k := range kernels {
		b.WriteString(k)
	}
	b.WriteByte('|')
	for _, u := range f.UnitDecls().Usings {
		fmt.Fprintf(b, "%p,", u)
	}
}

// hostRun is what host function inst.Func of file f launches, its
// template parameters bound as inst binds them, from the memo when what
// it reads is unchanged.
func (x *Index) hostRun(f *parser.File, inst interp.Instantiation, run func() ([]*interp.Launch, []interp.Instantiation)) ([]*interp.Launch, []interp.Instantiation) {
	if x == nil {
		return run()
	}
	var b strings.Builder
	x.WriteKey(&b, f, inst.Func, false)
	writeBindings(&b, inst)
	key := b.String()
	m := x.m
	m.mu.Lock()
	e, ok := m.hosts[key]
	if ok {
		e.used = m.gen
		x.stats[0]++
	}
	m.mu.Unlock()
	if ok {
		return e.launches, e.insts
	}
	launches, insts := run()
	m.mu.Lock()
	m.hosts[key] = &hostRun{launches: launches, insts: insts, used: m.gen}
	x.stats[1]++
	m.mu.Unlock()
	return launches, insts
}

// writeBindings writes what inst binds a template's parameters to: the
// types whole (a struct's layout, not its name: an edit of its fields
// keeps the name) and the functions by name (the closure of the
// template's own names does not reach them; the key of the run that
// made inst does).
func writeBindings(b *strings.Builder, inst interp.Instantiation) {
	if len(inst.TypeArgs) == 0 && len(inst.FuncArgs) == 0 {
		return
	}
	b.WriteString("|t")
	deepkey.Write(b, reflect.ValueOf(inst.TypeArgs), nil)
	b.WriteString("|f")
	deepkey.Write(b, reflect.ValueOf(inst.FuncArgs), nil)
}
