package analyzer

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/parser"
)

// Memo keeps kernels' interpretations and predictions from one analysis
// to the next of a program that changes a little at a time (an editor's
// session), so that an edit re-analyzes the kernels it touches and
// those whose launches it changes, not every kernel of the file.
//
// A kernel's interpretation is keyed by what it can read: the parsed
// items of the kernel and of every device function, type and
// file-scope variable its names reach, in turn (the items' identities:
// a parser.ItemCache hands back the same item for the same tokens at the
// same positions, and a new one otherwise), the translation unit it runs
// in with its using-declarations, and the template arguments and
// value-parameter sizes its launches give it. Host functions and other
// kernels are not read by a kernel's interpretation (it inlines device
// functions only), so an edit of a host function's body leaves it.
// Predictions are keyed by the interpretation and the launch
// configuration's values (not where the launch is written: the
// prediction reads its numbers, and names the configuration it is
// given). Launch discovery and configurations are computed afresh
// every time: they are host code's.
//
// A Memo is used by one analysis at a time, and is safe for the
// concurrent kernels of one analysis.
type Memo struct {
	mu    sync.Mutex
	gen   int
	runs  map[string]*memoRun
	preds map[string]*memoPreds
	// mentions are the identifiers each parsed item mentions, by item.
	mentions map[any]*memoMentions
	last     MemoStats
}

type memoRun struct {
	run  interp.Run
	used int
}

type memoPreds struct {
	preds []*Prediction
	used  int
}

type memoMentions struct {
	names []string
	used  int
}

// memoKeep is how many analyses an entry outlives its last use: a
// session alternating between a few open files keeps each one's.
const memoKeep = 8

// NewMemo makes an empty memo.
func NewMemo() *Memo {
	return &Memo{runs: map[string]*memoRun{}, preds: map[string]*memoPreds{}, mentions: map[any]*memoMentions{}}
}

// MemoStats are what a memo served and computed in its latest analysis.
type MemoStats struct {
	RunsReused, RunsComputed   int
	PredsReused, PredsComputed int
}

// memoIndex is one analysis's view of a memo: the program's items by
// the names they declare, and each file's translation unit.
type memoIndex struct {
	m      *Memo
	byName map[string][]any
	always []any // device operators: reached without their names
	mu     sync.Mutex
	units  map[*parser.File]map[any]bool
	stats  MemoStats
}

// begin starts an analysis of files; nil for a nil memo.
func (m *Memo) begin(files []*parser.File) *memoIndex {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	m.gen++
	m.mu.Unlock()
	x := &memoIndex{m: m, byName: map[string][]any{}, units: map[*parser.File]map[any]bool{}}
	seen := map[any]bool{}
	add := func(name string, item any) {
		x.byName[name] = append(x.byName[name], item)
	}
	for _, f := range files {
		for _, d := range []parser.Decls{f.UnitDecls(), {Funcs: f.Funcs, Structs: f.Structs, Typedefs: f.Typedefs, Globals: f.Globals}} {
			for _, fn := range d.Funcs {
				// A kernel's interpretation inlines device functions only.
				if seen[fn] || !fn.Device {
					continue
				}
				seen[fn] = true
				add(fn.Name, fn)
				if strings.HasPrefix(fn.Name, "operator") {
					x.always = append(x.always, fn)
				}
			}
			for _, s := range d.Structs {
				if !seen[s] {
					seen[s] = true
					add(s.Name, s)
				}
			}
			for _, t := range d.Typedefs {
				if !seen[t] {
					seen[t] = true
					add(t.Name, t)
				}
			}
			for _, g := range d.Globals {
				if seen[g] {
					continue
				}
				seen[g] = true
				for _, dc := range g.Declarators {
					add(dc.Name, g)
				}
			}
		}
	}
	return x
}

// end closes the analysis: entries unused for memoKeep analyses go.
func (x *memoIndex) end() {
	if x == nil {
		return
	}
	m := x.m
	m.mu.Lock()
	defer m.mu.Unlock()
	for k, e := range m.runs {
		if e.used < m.gen-memoKeep {
			delete(m.runs, k)
		}
	}
	for k, e := range m.preds {
		if e.used < m.gen-memoKeep {
			delete(m.preds, k)
		}
	}
	for k, e := range m.mentions {
		if e.used < m.gen-memoKeep {
			delete(m.mentions, k)
		}
	}
	m.last = x.stats
}

// Last is what the memo served and computed in its latest analysis.
func (m *Memo) Last() MemoStats {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.last
}

// unit is the set of items f's translation unit defines.
func (x *memoIndex) unit(f *parser.File) map[any]bool {
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
func (x *memoIndex) names(item any) []string {
	m := x.m
	m.mu.Lock()
	e, ok := m.mentions[item]
	if ok {
		e.used = m.gen
	}
	m.mu.Unlock()
	if ok {
		return e.names
	}
	set := map[string]bool{}
	collectNames(reflect.ValueOf(item), set, map[uintptr]bool{})
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	m.mu.Lock()
	m.mentions[item] = &memoMentions{names: names, used: m.gen}
	m.mu.Unlock()
	return names
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
		ident := i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9' || s[i] >= 0x80)
		switch {
		case ident && start < 0:
			start = i
		case !ident && start >= 0:
			set[s[start:i]] = true
			start = -1
		}
	}
}

// interpKey is the key of kernel fn's interpretation in file f's unit
// with the given template arguments and sizes: "" when there is no memo.
func (x *memoIndex) interpKey(f *parser.File, fn *parser.Func, instance string, typeArgs map[string]*ctype.Type, funcArgs map[string]string, dimArgs map[string]int64) string {
	if x == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%p|%q|%q|%v|%v|", fn, f.Path, instance, funcArgs, dimArgs)
	names := make([]string, 0, len(typeArgs))
	for n := range typeArgs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "%q=", n)
		writeDeep(&b, reflect.ValueOf(typeArgs[n]), map[uintptr]int{})
		b.WriteByte(';')
	}
	unit := x.unit(f)
	deps := x.closure(fn)
	for _, d := range deps {
		in := 0
		if unit[d] {
			in = 1
		}
		fmt.Fprintf(&b, "%p.%d,", d, in)
	}
	b.WriteByte('|')
	for _, u := range f.UnitDecls().Usings {
		fmt.Fprintf(&b, "%p,", u)
	}
	return b.String()
}

// closure is the items fn's names reach, in turn, in a stable order.
func (x *memoIndex) closure(fn *parser.Func) []any {
	seen := map[any]bool{fn: true}
	named := map[string]bool{}
	var out []any
	queue := append([]any{fn}, x.always...)
	for _, a := range x.always {
		seen[a] = true
	}
	out = append(out, x.always...)
	for len(queue) > 0 {
		item := queue[0]
		queue = queue[1:]
		for _, n := range x.names(item) {
			if named[n] {
				continue
			}
			named[n] = true
			for _, d := range x.byName[n] {
				if !seen[d] {
					seen[d] = true
					out = append(out, d)
					queue = append(queue, d)
				}
			}
		}
	}
	// The order found depends on map-free steps only, but sort by
	// address anyway so that the key is the set.
	sort.Slice(out, func(i, j int) bool {
		return reflect.ValueOf(out[i]).Pointer() < reflect.ValueOf(out[j]).Pointer()
	})
	return out
}

// writeDeep writes v's content: a parsed item by its identity, anything
// else field by field (a type's members, its element types).
func writeDeep(b *strings.Builder, v reflect.Value, seen map[uintptr]int) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		if v.Elem().Type().PkgPath() == reflect.TypeOf(parser.Func{}).PkgPath() {
			fmt.Fprintf(b, "@%x", v.Pointer())
			return
		}
		if i, ok := seen[v.Pointer()]; ok {
			fmt.Fprintf(b, "^%d", i)
			return
		}
		seen[v.Pointer()] = len(seen)
		b.WriteByte('&')
		writeDeep(b, v.Elem(), seen)
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		fmt.Fprintf(b, "(%s)", v.Elem().Type())
		writeDeep(b, v.Elem(), seen)
	case reflect.Struct:
		b.WriteByte('{')
		for i := 0; i < v.NumField(); i++ {
			writeDeep(b, v.Field(i), seen)
			b.WriteByte(',')
		}
		b.WriteByte('}')
	case reflect.Slice, reflect.Array:
		b.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			writeDeep(b, v.Index(i), seen)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case reflect.Map:
		keys := v.MapKeys()
		parts := make([]string, len(keys))
		for i, k := range keys {
			var kb strings.Builder
			writeDeep(&kb, k, seen)
			kb.WriteByte(':')
			writeDeep(&kb, v.MapIndex(k), seen)
			parts[i] = kb.String()
		}
		sort.Strings(parts)
		fmt.Fprintf(b, "map%v", parts)
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		fmt.Fprintf(b, "%s@%x", v.Kind(), v.Pointer())
	case reflect.String:
		fmt.Fprintf(b, "%q", v.String())
	case reflect.Bool:
		fmt.Fprint(b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		fmt.Fprint(b, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		fmt.Fprint(b, v.Uint())
	case reflect.Float32, reflect.Float64:
		fmt.Fprint(b, v.Float())
	default:
		fmt.Fprintf(b, "%v", v.Kind())
	}
}

// run is the interpretation under key, from the memo or computed.
func (x *memoIndex) run(key string, compute func() interp.Run) interp.Run {
	if x == nil {
		return compute()
	}
	m := x.m
	m.mu.Lock()
	e, ok := m.runs[key]
	if ok {
		e.used = m.gen
		x.stats.RunsReused++
	}
	m.mu.Unlock()
	if ok {
		return e.run
	}
	r := compute()
	m.mu.Lock()
	m.runs[key] = &memoRun{run: r, used: m.gen}
	x.stats.RunsComputed++
	m.mu.Unlock()
	return r
}

// configKey is what a prediction reads of a launch configuration: all
// but where the launch is written.
func configKey(c *LaunchConfig) string {
	return fmt.Sprintf("%v|%d|%v|%v|%v|%v|%v|%v", c.Block, c.BlockSource, c.BlockKnown, c.Grid, c.GridKnown, c.Params, c.Bases, c.NonNull)
}

// predictions are a kernel's predictions under cfg, from the memo when
// its interpretation (key) and cfg's values are unchanged.
func (x *memoIndex) predictions(key string, cfg *LaunchConfig, compute func() []*Prediction) []*Prediction {
	if x == nil || key == "" {
		return compute()
	}
	m := x.m
	pk := key + "#" + configKey(cfg)
	m.mu.Lock()
	e, ok := m.preds[pk]
	if ok {
		e.used = m.gen
		x.stats.PredsReused++
	}
	m.mu.Unlock()
	if ok {
		return clonePredictions(e.preds, cfg)
	}
	ps := compute()
	m.mu.Lock()
	m.preds[pk] = &memoPreds{preds: clonePredictions(ps, nil), used: m.gen}
	x.stats.PredsComputed++
	m.mu.Unlock()
	return ps
}

// clonePredictions copies ps, each given cfg when not nil: a reused
// prediction names the configuration of the analysis it is part of.
func clonePredictions(ps []*Prediction, cfg *LaunchConfig) []*Prediction {
	out := make([]*Prediction, len(ps))
	for i, p := range ps {
		q := *p
		if cfg != nil {
			q.Config = cfg
		}
		out[i] = &q
	}
	return out
}
