package truth

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// A Prediction is one row of cudalint's access table (cudalint --accesses
// --format json): the fields the comparison reads.
type Prediction struct {
	File               string   `json:"file"`
	Line               int      `json:"line"`
	Column             int      `json:"column"`
	Kernel             string   `json:"kernel"`
	TemplateArgs       []string `json:"templateArgs"` // the instance's, "?" where not known
	Op                 string   `json:"op"`
	Space              string   `json:"space"` // "global" or "shared" ("" before the table had shared rows: global)
	Expr               string   `json:"expr"`
	ElementBytes       int64    `json:"elementBytes"`
	Instructions       int      `json:"instructions"`
	SectorsPerRequest  *float64 `json:"sectorsPerRequest"`
	NcuIdealPerRequest *float64 `json:"ncuIdealSectorsPerRequest"`
	// The figures per instruction issued (what Nsight reports): lower
	// than per request where nvcc predicates the access; absent from
	// tables made before they were printed.
	SectorsPerInstruction  *float64 `json:"sectorsPerInstruction"`
	NcuIdealPerInstruction *float64 `json:"ncuIdealSectorsPerInstruction"`
	Block                  Dim3     `json:"block"`
	Grid                   *Dim3    `json:"grid"` // nil when the launch does not give it
	BlockSource            string   `json:"blockSource"`
	// Hoisted is set on a load nvcc moves before its loop: Nsight puts
	// it on another line.
	Hoisted bool `json:"hoisted"`
	// BlockFrom is the launch the configuration came from, "" where no
	// launch reaches the kernel (a header analyzed as a file of its own).
	BlockFrom string `json:"blockFrom"`
	Unknown   string `json:"unknownReason,omitempty"`
	// MergedInto is set on an access whose element another access's
	// instruction reads or writes: it has no instruction of its own.
	MergedInto *struct {
		Line int `json:"line"`
	} `json:"mergedInto,omitempty"`
}

// Compared reports whether p is a row the global comparison takes: a
// global access with an instruction of its own.
func (p Prediction) Compared() bool {
	return (p.Space == "" || p.Space == "global") && p.MergedInto == nil
}

// Verdict is how a measured row compares with its predictions.
type Verdict int

const (
	// Right: every prediction is a number, and their average is within
	// Near of the measured sectors per request and of Nsight's ideal.
	Right Verdict = iota
	// Wrong: a number off the measurement (or "performed by no lane" for
	// an executed line).
	Wrong
	// Unknown: a prediction says unknown (a range of 1 to 32 sectors).
	Unknown
	// Missing: measured, but no prediction to compare with.
	Missing
	// NotExecuted: predicted for the measured launch, but no instruction
	// of the line was executed (or the compiler dropped it).
	NotExecuted
)

func (v Verdict) String() string {
	return [...]string{"right", "wrong", "unknown", "missing", "not executed"}[v]
}

// A Pair is a measured row with the predictions compared with it, or
// (Row nil) predictions no measured row took.
type Pair struct {
	Row   *Row
	Preds []Prediction
	// Moved: the predictions are on other lines than the row's. The
	// compiler attributes an inlined helper's or an intrinsic's
	// instructions to the helper's line (a header's), where cudalint may
	// put the access at the call; a row with no prediction on its line
	// takes the predictions of its kernel, block and operation that no
	// row took, when it is the only such row.
	Moved   bool
	Verdict Verdict
	// Sectors and Ideal are the predictions' averages, weighted by their
	// instructions, when all are numbers.
	Sectors, Ideal float64
	Why            string // what the predictions say, or why there are none
}

// lineKey is where a row or a prediction is.
type lineKey struct {
	file string // base name
	line int
	op   string
}

// groupKey is one measured launch of a kernel.
type groupKey struct {
	kernel string // with template arguments
	block  Dim3
	grid   Dim3 // the measured grid; zero where not compared (MissingBlocks)
}

// Compare pairs the rows of one program with cudalint's predictions for
// it, launch by launch: a row is compared with the predictions for its
// kernel (the template's, for an instance) under the measured block on
// the same file, line and operation, else as a moved row (Pair.Moved).
func Compare(rows []Row, preds []Prediction) []Pair {
	var order []groupKey
	groups := map[groupKey][]*Row{}
	for i := range rows {
		r := &rows[i]
		g := groupKey{r.Kernel, r.Block, r.Grid}
		if _, ok := groups[g]; !ok {
			order = append(order, g)
		}
		groups[g] = append(groups[g], r)
	}
	var pairs []Pair
	for _, g := range order {
		pairs = append(pairs, compareLaunch(groups[g], predictionsFor(preds, g))...)
	}
	return pairs
}

// predictionsFor picks the predictions for one measured launch: its
// kernel (a template's, whatever the instance), its block, and of the
// predictions of one access for several instances those whose element
// size is the instance's; those a launch reaches over those no launch
// does; and of those for several launches with this block, those of the
// launches with the measured grid, where some have it (the
// program's first launch of a kernel is the one measured, and the
// others, at other sizes, may cost otherwise).
func predictionsFor(preds []Prediction, g groupKey) []Prediction {
	base, args := SplitTemplate(g.kernel)
	type access struct {
		file         string
		line, column int
		op, expr     string
	}
	var order []access
	byAccess := map[access][]Prediction{}
	for _, p := range preds {
		if p.Kernel != base || p.Block != g.block {
			continue
		}
		a := access{filepath.Base(p.File), p.Line, p.Column, p.Op, p.Expr}
		if _, ok := byAccess[a]; !ok {
			order = append(order, a)
		}
		byAccess[a] = append(byAccess[a], p)
	}
	size := InstanceBytes(args)
	var out []Prediction
	for _, a := range order {
		ps := byAccess[a]
		if len(ps) > 1 && len(args) > 0 {
			var same []Prediction
			for _, p := range ps {
				if SameInstance(p.TemplateArgs, args) {
					same = append(same, p)
				}
			}
			if len(same) > 0 {
				ps = same
			}
		}
		if len(ps) > 1 && size > 0 {
			var same []Prediction
			for _, p := range ps {
				if p.ElementBytes == size {
					same = append(same, p)
				}
			}
			if len(same) > 0 {
				ps = same
			}
		}
		if len(ps) > 1 {
			// A kernel's header analyzed as a file of its own as well as
			// through the file that includes and launches it: the
			// launched one is the one measured.
			var launched []Prediction
			for _, p := range ps {
				if p.BlockFrom != "" {
					launched = append(launched, p)
				}
			}
			if len(launched) > 0 {
				ps = launched
			}
		}
		if len(ps) > 1 {
			var same []Prediction
			for _, p := range ps {
				if p.Grid != nil && *p.Grid == g.grid {
					same = append(same, p)
				}
			}
			if len(same) > 0 {
				ps = same
			}
		}
		out = append(out, ps...)
	}
	return out
}

// compareLaunch pairs the rows of one launch with its predictions.
func compareLaunch(rows []*Row, preds []Prediction) []Pair {
	var keys []lineKey
	byLine := map[lineKey][]Prediction{}
	for _, p := range preds {
		k := lineKey{filepath.Base(p.File), p.Line, p.Op}
		if p.Hoisted {
			// Not on its own line: compared as a moved row, with the
			// measured row no prediction's line holds.
			k.line = -p.Line
		}
		if _, ok := byLine[k]; !ok {
			keys = append(keys, k)
		}
		byLine[k] = append(byLine[k], p)
	}
	used := map[lineKey]bool{}
	var pairs []Pair
	unmatched := map[string][]*Row{} // by operation
	for _, r := range rows {
		k := lineKey{r.File, r.Line, r.Op}
		if ps, ok := byLine[k]; ok {
			used[k] = true
			pairs = append(pairs, judge(r, ps, false))
			continue
		}
		unmatched[r.Op] = append(unmatched[r.Op], r)
	}
	for _, op := range []string{"load", "store"} {
		var left []lineKey
		for _, k := range keys {
			if k.op == op && !used[k] {
				left = append(left, k)
			}
		}
		um := unmatched[op]
		if len(um) == 1 && len(left) > 0 {
			var ps []Prediction
			for _, k := range left {
				ps = append(ps, byLine[k]...)
			}
			pairs = append(pairs, judge(um[0], ps, true))
			continue
		}
		for _, r := range um {
			why := "no prediction on this line"
			if len(preds) == 0 {
				why = "no prediction for the kernel under this block"
			}
			pairs = append(pairs, Pair{Row: r, Verdict: Missing, Why: why})
		}
		for _, k := range left {
			pairs = append(pairs, Pair{Preds: byLine[k], Verdict: NotExecuted, Why: describe(byLine[k])})
		}
	}
	return pairs
}

// judge compares a row with its predictions.
func judge(r *Row, ps []Prediction, moved bool) Pair {
	pair := Pair{Row: r, Preds: ps, Moved: moved}
	noLane := true
	for _, p := range ps {
		noLane = noLane && p.SectorsPerRequest == nil && strings.Contains(p.Unknown, "no lane")
	}
	if noLane {
		pair.Verdict, pair.Why = Wrong, "performed by no lane"
		return pair
	}
	var sec, ideal, n float64
	for _, p := range ps {
		if p.SectorsPerRequest == nil {
			pair.Verdict, pair.Why = Unknown, "unknown: "+p.Unknown
			return pair
		}
		w := float64(max(p.Instructions, 1))
		s, i := p.SectorsPerRequest, p.NcuIdealPerRequest
		if p.SectorsPerInstruction != nil && p.NcuIdealPerInstruction != nil {
			s, i = p.SectorsPerInstruction, p.NcuIdealPerInstruction // what Nsight counts
		}
		sec += *s * w
		if i != nil {
			ideal += *i * w
		}
		n += w
	}
	pair.Sectors, pair.Ideal = sec/n, ideal/n
	pair.Why = describe(ps)
	pair.Verdict = Wrong
	if Near(pair.Sectors, r.SectorsPerRequest()) && Near(pair.Ideal, r.IdealPerRequest()) {
		pair.Verdict = Right
	}
	return pair
}

// describe says where the predictions are and what they are.
func describe(ps []Prediction) string {
	var parts []string
	for _, p := range ps {
		v := "unknown"
		if p.SectorsPerRequest != nil {
			v = fmt.Sprintf("%.3f", *p.SectorsPerRequest)
			if p.NcuIdealPerRequest != nil {
				v += fmt.Sprintf(" (ideal %.3f)", *p.NcuIdealPerRequest)
			}
		}
		parts = append(parts, fmt.Sprintf("%s:%d %s %s", filepath.Base(p.File), p.Line, p.Expr, v))
	}
	return strings.Join(parts, "; ")
}

// MissingBlocks lists, per kernel (the template's name), the measured
// blocks under which preds has no prediction for it: cudalint is run
// again with --block for those.
func MissingBlocks(rows []Row, preds []Prediction) map[string][]Dim3 {
	have := map[groupKey]bool{}
	for _, p := range preds {
		have[groupKey{kernel: p.Kernel, block: p.Block}] = true
	}
	out := map[string][]Dim3{}
	seen := map[groupKey]bool{}
	for _, r := range rows {
		base, _ := SplitTemplate(r.Kernel)
		g := groupKey{kernel: base, block: r.Block}
		if have[g] || seen[g] {
			continue
		}
		seen[g] = true
		out[base] = append(out[base], r.Block)
	}
	for _, ds := range out {
		sort.Slice(ds, func(i, j int) bool { return ds[i].String() < ds[j].String() })
	}
	return out
}

// Tally counts verdicts.
type Tally struct {
	Rows                      int // measured rows
	Right, Wrong, Unknown     int
	Missing                   int
	MovedRight, MovedWrong    int // of Right and Wrong, rows paired with predictions on other lines
	SectorsRightIdealWrong    int // of Wrong, those whose sectors were right
	NotExecuted               int // predicted lines of measured launches no instruction ran for
	HeaderRows, HeaderMissing int // rows attributed to a header (IsHeader), and of those Missing
}

// Add counts a pair.
func (t *Tally) Add(p Pair) {
	if p.Row == nil {
		t.NotExecuted++
		return
	}
	t.Rows++
	if IsHeader(p.Row.File) {
		t.HeaderRows++
		if p.Verdict == Missing {
			t.HeaderMissing++
		}
	}
	switch p.Verdict {
	case Right:
		t.Right++
		if p.Moved {
			t.MovedRight++
		}
	case Wrong:
		t.Wrong++
		if p.Moved {
			t.MovedWrong++
		}
		if p.Why != "performed by no lane" && Near(p.Sectors, p.Row.SectorsPerRequest()) {
			t.SectorsRightIdealWrong++
		}
	case Unknown:
		t.Unknown++
	case Missing:
		t.Missing++
	}
}

// SameInstance reports whether the template arguments cudalint names
// for a prediction (int, 256, "?" where not known) are those of a
// measured instance, as Nsight writes them (int, (int)256, (bool)1,
// true): types by name, values by number, spaces and casts aside.
func SameInstance(predicted, measured []string) bool {
	if len(predicted) != len(measured) {
		return false
	}
	for i, p := range predicted {
		if p != "?" && normalArg(p) != normalArg(measured[i]) {
			return false
		}
	}
	return true
}

func normalArg(s string) string {
	s = strings.ReplaceAll(s, " ", "")
	if strings.HasPrefix(s, "(") {
		if j := strings.IndexByte(s, ')'); j > 0 && j+1 < len(s) {
			s = s[j+1:] // (int)256, (bool)1
		}
	}
	switch s {
	case "true":
		return "1"
	case "false":
		return "0"
	}
	return s
}
