package analyzer

import (
	"fmt"
	"maps"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/cudalint/cudalint/internal/deepkey"

	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/launch"
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
// given). What host functions launch is launch.Memo's, keyed alike by
// the items their names reach; the configurations made of the launches
// are computed afresh every time.
//
// A Memo is used by one analysis at a time, and is safe for the
// concurrent kernels of one analysis.
type Memo struct {
	mu    sync.Mutex
	gen   int
	runs  map[string]*memoRun
	preds map[string]*memoPreds
	// hosts keeps host functions' launches, and the names items mention.
	hosts *launch.Memo
	last  MemoStats
}

type memoRun struct {
	run  interp.Run
	used int
}

type memoPreds struct {
	preds []*Prediction
	used  int
}

// memoKeep is how many analyses an entry outlives its last use: a
// session alternating between a few open files keeps each one's.
const memoKeep = 8

// NewMemo makes an empty memo.
func NewMemo() *Memo {
	return &Memo{runs: map[string]*memoRun{}, preds: map[string]*memoPreds{}, hosts: launch.NewMemo()}
}

// MemoStats are what a memo served and computed in its latest analysis.
type MemoStats struct {
	RunsReused, RunsComputed      int
	PredsReused, PredsComputed    int
	HostsReused, HostsInterpreted int
}

// memoIndex is one analysis's view of a memo.
type memoIndex struct {
	m     *Memo
	items *launch.Index
	stats MemoStats
}

// begin starts an analysis of files; nil for a nil memo.
func (m *Memo) begin(files []*parser.File) *memoIndex {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	m.gen++
	m.mu.Unlock()
	return &memoIndex{m: m, items: m.hosts.Begin(files)}
}

// reportable reports whether kernel fn's findings can be reported
// under the memo's focus (launch.Index.Reportable); true without one.
func (x *memoIndex) reportable(fn *parser.Func) bool {
	return x == nil || x.items.Reportable(fn)
}

// Focus restricts the analyses after it to what can be reported in
// files: the kernels whose findings can land there and the host
// functions that can launch them (see launch.Memo.Focus). An editor
// reports the findings of the file open, and analyzes the rest of its
// program only for what it tells of that file.
func (m *Memo) Focus(files []string) {
	if m != nil {
		m.hosts.Focus(files)
	}
}

// hostIndex is what launch discovery takes from the memo.
func (x *memoIndex) hostIndex() *launch.Index {
	if x == nil {
		return nil
	}
	return x.items
}

// end closes the analysis: entries unused for memoKeep analyses go.
func (x *memoIndex) end() {
	if x == nil {
		return
	}
	x.items.End()
	m := x.m
	m.mu.Lock()
	defer m.mu.Unlock()
	maps.DeleteFunc(m.runs, func(_ string, e *memoRun) bool { return e.used < m.gen-memoKeep })
	maps.DeleteFunc(m.preds, func(_ string, e *memoPreds) bool { return e.used < m.gen-memoKeep })
	x.stats.HostsReused, x.stats.HostsInterpreted = m.hosts.Last()
	m.last = x.stats
}

// Last is what the memo served and computed in its latest analysis.
func (m *Memo) Last() MemoStats {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.last
}

// interpKey is the key of kernel fn's interpretation in file f's unit
// with the given template arguments and sizes: "" when there is no memo.
func (x *memoIndex) interpKey(f *parser.File, fn *parser.Func, instance string, typeArgs map[string]*ctype.Type, funcArgs map[string]string, dimArgs map[string]int64) string {
	if x == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%q|%v|%v|", instance, funcArgs, dimArgs)
	names := make([]string, 0, len(typeArgs))
	for n := range typeArgs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "%q=", n)
		deepkey.Write(&b, reflect.ValueOf(typeArgs[n]), isParsedItem)
		b.WriteByte(';')
	}
	x.items.WriteKey(&b, f, fn, true)
	return b.String()
}

// isParsedItem: a value of the parser's, which its item cache returns as
// the same object while unchanged, so its address is its content.
func isParsedItem(t reflect.Type) bool {
	return t.PkgPath() == reflect.TypeOf(parser.Func{}).PkgPath()
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
