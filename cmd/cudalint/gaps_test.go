package main

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/internal/ncu"
	"github.com/cudalint/cudalint/internal/truth"
)

// probes2.cu holds probe kernels for capabilities the model did not have
// (bash testdata/truth/measure.sh OUT probes2 measured source2.csv.gz on
// an H200), probes3.cu those for loops (unrolled, with block-dependent
// trip counts, carrying uniform offsets: source3.csv.gz), probes4.cu
// those for accesses in inlined helpers and lambdas passed as arguments
// (source4.csv.gz), probes5.cu those for what host code tells a launch
// (a partly constant block, NULL compared, deduced kernel types,
// functions given to host templates) and a guard past a run-time bound
// (source5.csv.gz), probes6.cu adjacent scalars against the vector that
// replaces them (source6.csv.gz; sass6.txt and time6.txt beside it hold
// the instructions nvcc emitted and each kernel's time, from
// measure6.sh). TestMeasuredGaps compares every measured line of each
// with today's prediction.
const (
	probes2   = "../../testdata/truth/probes2.cu"
	measured2 = "../../testdata/truth/source2.csv.gz"
	probes3   = "../../testdata/truth/probes3.cu"
	measured3 = "../../testdata/truth/source3.csv.gz"
	probes4   = "../../testdata/truth/probes4.cu"
	measured4 = "../../testdata/truth/source4.csv.gz"
	probes5   = "../../testdata/truth/probes5.cu"
	measured5 = "../../testdata/truth/source5.csv.gz"
	probes6   = "../../testdata/truth/probes6.cu"
	measured6 = "../../testdata/truth/source6.csv.gz"
)

// probeSet is a probe file, what Nsight measured for it, the lines known
// to be wrong, and how many measured lines make the export whole.
type probeSet struct {
	src, measured string
	gaps          []knownGap
	minLines      int
}

var probeSets = []probeSet{
	{probes2, measured2, knownGaps, 90},
	{probes3, measured3, knownGaps3, 60},
	{probes4, measured4, knownGaps4, 20},
	{probes5, measured5, knownGaps5, 8},
	{probes6, measured6, knownGaps6, 30},
}

// A knownGap is a measured line of a probe file that cudalint gets wrong
// today. TestMeasuredGaps asserts that each one is STILL wrong: whoever
// makes one right must move it out of this table (its line then joins the
// lines that must stay right), and a line that turns wrong fails the test
// until it is fixed or, knowingly, listed here.
//
// A line is right when the prediction is a number within near() of the
// measured sectors per request and of Nsight's ideal per request; an
// unknown prediction (range 1 to 32) is a gap here, since every probe has
// a number. measured is 0 for an access the model predicts but no warp
// executes (a branch the launch never takes). The line is where Nsight puts
// the instructions: file is empty for the probe file, else the CUDA header
// the compiler attributes them to (the predictions of that kernel and
// operation that Nsight shows on no line of the probe file are then
// averaged into it). A helper's line holds one instruction per call: where
// each prediction stands for one instruction, the calls' predictions must
// match the instructions one to one (judge). Likewise, where the model
// says the compiler unrolls the loops around an access, each copy's
// predicted cost must match one of the line's instructions (copiesMatch).
type knownGap struct {
	kernel   string // as Nsight names it, less "void " and the parameters
	file     string // "" for the probe file
	line     int
	op       string
	cap      int // the capability's number: the probe file's section, the list
	measured float64
	note     string
}

var knownGaps = []knownGap{
	// 1: a warp-uniform loaded value as a base.
	{"m_uniform_base_aligned", "", 28, "load", 1, 4.000, "base from boxes[blockIdx.x].offset, multiples of 8 floats on the host: the model cannot know the offsets are aligned and predicts the mean over the 8 residues, 4.875, saying it assumes an arbitrary offset"},
	// 11: rare guards and guards on loaded data.
	{"m_guard_mask_lane", "", 280, "load", 11, 4.000, "sectors right; Nsight's ideal is 2 (odd lanes only), predicted 4: which lanes pass if (m) depends on data, so the model gives the all-lanes figure as an upper bound and says so"},
	{"m_guard_mask_lane", "", 280, "store", 11, 4.000, "sectors right; Nsight's ideal is 2 (odd lanes only), predicted 4"},
	// 17: sizes through host functions, a picked block, block-dependent trips.
	{"m_trip_block", "", 458, "load", 17, 6.667, tripBlockNote},
}

// tripBlockNote says why a block-dependent trip count stays a gap: the
// model is exact per executed request, Nsight divides by instructions
// issued, and the compiler issues one of its copies in every warp.
const tripBlockNote = "b % 4 + 1 iterations: predicted 8.0 sectors per request that runs (ideal 4), the mean over the (block, iteration) pairs that execute, which the measured sectors bear out (655360 = 8.0 x 81920); but the compiler's remainder code issues one load predicated (@P0) in every warp, 32768 instructions of which 16384 run no lane, so Nsight divides by 98304 instructions (6.667, ideal 3.333). Which copy the compiler predicates, and where, is its choice: not modelled"

// knownGaps3 are the lines of probes3.cu cudalint gets wrong today.
var knownGaps3 = []knownGap{
	// 2: trip counts that depend on the block.
	{"t_mod4_stride", "", 197, "load", 2, 6.667, tripBlockNote},
	// 3: uniform loop-carried scalars.
	{"c_acc_load_aligned", "", 323, "load", 3, 4.000, "off += steps[k], a uniform load: steps are multiples of 8 floats on the host, so every offset starts on a sector; the model cannot know the loaded steps and predicts the mean over the 8 residues, 4.875, saying it assumes an arbitrary offset"},
}

// knownGaps4 are the lines of probes4.cu cudalint gets wrong today.
var knownGaps4 = []knownGap{}

// knownGaps5 are the lines of probes5.cu cudalint gets wrong today.
var knownGaps5 = []knownGap{
	// 5: a guard only the lanes past a run-time bound pass.
	{"r_tail", "", 71, "load", 5, 0.125, "one lane per block passes (i + 1) * 8 > V: 4096 sectors for 4096 blocks, 1 per request that runs; the compiler predicates the load (@P0) and every warp issues it, so Nsight divides by 32768 instructions (0.125). The model reads the guard as a remainder and predicts 1 per request that runs (ideal 1), as the sectors bear out; which warps issue a predicated copy is the compiler's choice, not modelled"},
}

// knownGaps6 are the lines of probes6.cu (adjacent scalars against the
// vector that replaces them) cudalint gets wrong today.
var knownGaps6 = []knownGap{
	// 4: an offset only run time gives.
	{"v_off_scalar", "", 88, "load", 4, 17.000, offNote},
	{"v_off_scalar", "", 89, "load", 4, 17.000, offNote},
	{"v_off_scalar", "", 90, "load", 4, 17.000, offNote},
	{"v_off_scalar", "", 91, "load", 4, 17.000, offNote},
	{"v_off_vector", "", 96, "load", 4, 17.000, offNote},
	{"v_off1_scalar", "", 106, "load", 4, 17.000, offNote},
}

// offNote says why those probes6 lines stay gaps.
const (
	offNote = "off comes from the host at run time (4 floats, 16 bytes): each warp's span starts mid-sector and touches one sector more (17); the model assumes an offset that is a multiple of 32 bytes and says so"
)

// probeLine is one measured line (or one predicted line no warp executed)
// with the predictions compared against it.
type probeLine struct {
	kernel    string // Nsight's name, normalized (m_tmpl_host<double>)
	base      string // without template arguments: the model's kernel name
	file      string // "" for the probe file
	probe     string // the probe file's base name
	line      int
	op        string
	cap       int
	m         *ncu.Line // nil: predicted, but no warp executed it
	preds     []accessJSON
	predLines []int
	// also are the measured lines folded into this one (fold); folded is
	// set on each of them.
	also   []int
	folded bool
}

// fold adds measured line o's instructions to pl's.
func (pl *probeLine) fold(o *probeLine) {
	m := *pl.m
	m.Instructions += o.m.Instructions
	m.Sectors += o.m.Sectors
	m.Ideal += o.m.Ideal
	m.SASS += o.m.SASS
	m.PerSASS = append(append([]ncu.Instruction(nil), m.PerSASS...), o.m.PerSASS...)
	pl.m = &m
	pl.also = append(pl.also, o.line)
}

// viaLine reports whether a call of the chain of any of rows is on line
// of the probe file.
func viaLine(rows []accessJSON, line int) bool {
	for _, r := range rows {
		for _, c := range r.Via {
			if c.Line == line && c.File == r.File {
				return true
			}
		}
	}
	return false
}

func TestMeasuredGaps(t *testing.T) {
	for _, set := range probeSets {
		t.Run(filepath.Base(set.src), func(t *testing.T) { set.compare(t) })
	}
}

// compare pairs each measured line of the set with its predictions and
// checks them against the known gaps.
func (set probeSet) compare(t *testing.T) {
	probe := filepath.Base(set.src)
	caps := probeCapabilities(t, set.src)
	lines := readMeasuredFile(t, set.measured)
	rows := accessTable(t, "--accesses", "--format", "json", set.src)

	type pkey struct {
		kernel string
		line   int
		op     string
	}
	predicted := map[pkey][]accessJSON{}
	var pkeys []pkey
	for _, r := range rows {
		// The measured lines compared here are global; a row merged into
		// another's instruction issues none of its own.
		if r.Space != "global" || r.MergedInto != nil {
			continue
		}
		k := pkey{r.Kernel, r.Line, r.Op}
		if _, ok := predicted[k]; !ok {
			pkeys = append(pkeys, k)
		}
		predicted[k] = append(predicted[k], r)
	}

	// Pair measured lines with predictions on the same line, per measured
	// kernel (template instances pick the prediction of their element size).
	var probesLines []*probeLine
	used := map[string]map[pkey]bool{} // measured kernel -> prediction keys it took
	took := map[string]*probeLine{}    // measured kernel and prediction key -> the line that took it
	measuredKernels := map[string]string{}
	var unmatched []*probeLine
	for i := range lines {
		m := &lines[i]
		if m.Space != "global" {
			continue
		}
		name := truth.KernelName(m.Function)
		base, targ := truth.SplitTemplate(name)
		measuredKernels[name] = base
		if used[name] == nil {
			used[name] = map[pkey]bool{}
		}
		pl := &probeLine{kernel: name, base: base, probe: probe, line: m.Line, op: m.Op, cap: caps[base], m: m}
		if m.File != probe {
			pl.file = m.File
		}
		probesLines = append(probesLines, pl)
		k := pkey{base, m.Line, m.Op}
		if ps, ok := predicted[k]; ok && pl.file == "" {
			pl.preds, pl.predLines = forInstance(ps, targ), []int{m.Line}
			used[name][k] = true
			took[name+"/"+fmt.Sprint(k)] = pl
			continue
		}
		unmatched = append(unmatched, pl)
	}
	// A measured line of the probe file with no prediction on it, that is
	// a line of the call chain of exactly one predicted line of its kernel
	// and operation, holds instructions of that prediction: Nsight may put
	// an inlined call's instruction on the line of the call (a lambda
	// called twice by a helper: one load on the lambda's line, one on the
	// helper's). The two measured lines are compared together.
	var stillUnmatched []*probeLine
	for _, pl := range unmatched {
		var into []*probeLine
		for _, k := range pkeys {
			target := took[pl.kernel+"/"+fmt.Sprint(k)]
			if target == nil || k.op != pl.op || pl.file != "" || !viaLine(predicted[k], pl.line) {
				continue
			}
			into = append(into, target)
		}
		if len(into) != 1 {
			stillUnmatched = append(stillUnmatched, pl)
			continue
		}
		into[0].fold(pl)
		pl.folded = true
	}
	unmatched = stillUnmatched
	// A measured line with no prediction on it takes the predictions of its
	// kernel and operation that no measured line took, when it is the only
	// such line: the compiler put the instruction elsewhere (a header's
	// intrinsic or operator, the line that uses the value).
	byKernelOp := map[string][]*probeLine{}
	for _, pl := range unmatched {
		byKernelOp[pl.kernel+"/"+pl.op] = append(byKernelOp[pl.kernel+"/"+pl.op], pl)
	}
	for _, name := range sortedKeys(measuredKernels) {
		base, targ := truth.SplitTemplate(name)
		for _, op := range []string{"load", "store"} {
			var left []pkey
			for _, k := range pkeys {
				if k.kernel == base && k.op == op && !used[name][k] {
					left = append(left, k)
				}
			}
			um := byKernelOp[name+"/"+op]
			if len(um) == 1 && len(left) > 0 {
				for _, k := range left {
					um[0].preds = append(um[0].preds, forInstance(predicted[k], targ)...)
					um[0].predLines = append(um[0].predLines, k.line)
				}
				continue
			}
			// Predicted accesses no warp executed.
			for _, k := range left {
				probesLines = append(probesLines, &probeLine{kernel: name, base: base, probe: probe, line: k.line, op: op,
					cap: caps[base], preds: forInstance(predicted[k], targ), predLines: []int{k.line}})
			}
		}
	}
	// Kernels predicted but not measured at all: every access is predicted
	// for no executed instruction.
	for _, k := range pkeys {
		found := false
		for _, base := range measuredKernels {
			found = found || base == k.kernel
		}
		if !found {
			probesLines = append(probesLines, &probeLine{kernel: k.kernel, base: k.kernel, probe: probe, line: k.line, op: k.op,
				cap: caps[k.kernel], preds: predicted[k], predLines: []int{k.line}})
		}
	}

	gaps := map[string]*knownGap{}
	for i := range set.gaps {
		g := &set.gaps[i]
		gaps[gapKey(g.kernel, g.file, g.line, g.op)] = g
	}
	seen := map[string]bool{}
	nMeasured, nRight := 0, 0
	report := map[int][]string{}
	for _, pl := range probesLines {
		if pl.folded {
			continue
		}
		right, predText := pl.judge()
		key := gapKey(pl.kernel, pl.file, pl.line, pl.op)
		where := pl.where()
		meas := "not executed"
		if pl.m != nil {
			nMeasured++
			meas = fmt.Sprintf("%.3f (ideal %.3f, %d instructions, %d SASS)", pl.m.SectorsPerRequest(), pl.m.IdealPerRequest(), pl.m.Instructions, pl.m.SASS)
		}
		status := "right"
		if !right {
			status = "GAP"
		} else {
			nRight++
		}
		report[pl.cap] = append(report[pl.cap], fmt.Sprintf("  %-5s %-26s %-26s %-5s measured %s; predicted %s", status, pl.kernel, where, pl.op, meas, predText))
		if pl.cap == 0 {
			t.Errorf("%s %s: kernel %s is in no capability section of %s", where, pl.op, pl.base, probe)
		}
		g, listed := gaps[key]
		seen[key] = true
		switch {
		case right && listed:
			t.Errorf("%s %s %s (capability %d) is right now (%s): move it out of the known gaps", pl.kernel, where, pl.op, g.cap, predText)
		case !right && !listed:
			want := 0.0
			if pl.m != nil {
				want = pl.m.SectorsPerRequest()
			}
			t.Errorf("%s %s %s (capability %d): measured %s, predicted %s: a line that was right turned wrong, or a new known gap: {%q, %q, %d, %q, %d, %.3f, \"\"},",
				pl.kernel, where, pl.op, pl.cap, meas, predText, pl.kernel, pl.file, pl.line, pl.op, pl.cap, want)
		case listed:
			want := 0.0
			if pl.m != nil {
				want = pl.m.SectorsPerRequest()
			}
			if !near(g.measured, want) {
				t.Errorf("known gap %s %s %s: table says measured %.3f, the export %.3f", g.kernel, where, g.op, g.measured, want)
			}
			if g.cap != pl.cap {
				t.Errorf("known gap %s %s %s: capability %d, %s's section says %d", g.kernel, where, g.op, g.cap, probe, pl.cap)
			}
		}
	}
	for k, g := range gaps {
		if !seen[k] {
			t.Errorf("known gap %s %s:%d %s: no such measured or predicted line", g.kernel, g.file, g.line, g.op)
		}
	}
	if nMeasured < set.minLines {
		t.Errorf("only %d measured global lines in %s; the export is incomplete", nMeasured, set.measured)
	}
	var capsSeen []int
	for c := range report {
		capsSeen = append(capsSeen, c)
	}
	sort.Ints(capsSeen)
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d lines measured, %d compared lines right, %d known gaps\n", probe, nMeasured, nRight, len(set.gaps))
	for _, c := range capsSeen {
		fmt.Fprintf(&b, "capability %d:\n%s\n", c, strings.Join(report[c], "\n"))
	}
	t.Log("\n" + b.String())
}

// judge says whether the predictions match the measurement, and what they
// predict.
func (pl *probeLine) judge() (bool, string) {
	if len(pl.preds) == 0 {
		return pl.m == nil, "no access"
	}
	noLane := true
	for _, p := range pl.preds {
		noLane = noLane && p.SectorsPerRequest == nil && strings.Contains(p.Unknown, "no lane")
	}
	if noLane {
		return pl.m == nil, "performed by no lane"
	}
	var sec, ideal, n float64
	for _, p := range pl.preds {
		if p.SectorsPerRequest == nil {
			return false, fmt.Sprintf("unknown %v at line %v (%s)", p.SectorsRange, pl.predLines, p.Unknown)
		}
		w := float64(max(p.Instructions, 1))
		sec += *p.SectorsPerRequest * w
		if p.NcuIdealPerRequest != nil {
			ideal += *p.NcuIdealPerRequest * w
		}
		n += w
	}
	sec, ideal = sec/n, ideal/n
	text := fmt.Sprintf("%.3f (ideal %.3f)", sec, ideal)
	if len(pl.predLines) > 1 || pl.predLines[0] != pl.line || pl.file != "" {
		text += fmt.Sprintf(" from line %v", pl.predLines)
	}
	if pl.m == nil {
		return false, text
	}
	right := near(sec, pl.m.SectorsPerRequest()) && near(ideal, pl.m.IdealPerRequest())
	if len(pl.preds) == 1 && pl.preds[0].Unrolled != nil {
		ok, copies := copiesMatch(pl.preds[0].Unrolled, pl.m)
		right, text = right && ok, text+copies
	}
	if calls, measured, ok := pl.perCall(); ok {
		text += fmt.Sprintf(", per call %v (measured %v)", calls, measured)
		for i := range calls {
			right = right && near(calls[i][0], measured[i][0]) && near(calls[i][1], measured[i][1])
		}
	}
	return right, text
}

// copiesMatch compares the predicted cost of each copy of an unrolled
// loop body with the measured line's SASS instructions: as many, and the
// same figures in some order (the compiler schedules the copies as it
// likes).
func copiesMatch(u *unrolledJSON, m *ncu.Line) (bool, string) {
	var want []float64
	for _, c := range u.Copies {
		if c.SectorsPerRequest == nil {
			return false, "; a copy unknown"
		}
		want = append(want, *c.SectorsPerRequest)
	}
	var got []float64
	for _, in := range m.PerSASS {
		if in.Instructions > 0 {
			got = append(got, in.SectorsPerRequest())
		}
	}
	text := fmt.Sprintf("; copies %s, SASS %s", figures(want), figures(got))
	if len(got) != len(want) {
		return false, text
	}
	sort.Float64s(got)
	sort.Float64s(want)
	for i := range got {
		if !near(want[i], got[i]) {
			return false, text
		}
	}
	return true, text
}

func figures(xs []float64) string {
	var parts []string
	for _, x := range xs {
		parts = append(parts, strconv.FormatFloat(x, 'f', -1, 64))
	}
	if len(parts) > 8 {
		parts = append(parts[:8], fmt.Sprintf("... (%d)", len(xs)))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// perCall pairs, on a line whose predictions come from one line, each
// stand for one instruction and are as many as its SASS instructions (a
// helper's line, one call each, or the header line of the intrinsic it
// wraps), the predicted and measured sectors and ideal per request of
// each, both in order of cost; ok is false elsewhere.
func (pl *probeLine) perCall() (pred, meas [][2]float64, ok bool) {
	if pl.m == nil || len(pl.preds) < 2 || len(pl.preds) != len(pl.m.PerSASS) || len(pl.predLines) != 1 {
		return nil, nil, false
	}
	for _, p := range pl.preds {
		if p.Instructions != 1 || p.SectorsPerRequest == nil || p.NcuIdealPerRequest == nil {
			return nil, nil, false
		}
		pred = append(pred, [2]float64{*p.SectorsPerRequest, *p.NcuIdealPerRequest})
	}
	for _, in := range pl.m.PerSASS {
		if in.Instructions == 0 {
			return nil, nil, false
		}
		meas = append(meas, [2]float64{round3(in.SectorsPerRequest()), round3(float64(in.Ideal) / float64(in.Instructions))})
	}
	byCost := func(s [][2]float64) {
		sort.Slice(s, func(i, j int) bool { return s[i][0] < s[j][0] || s[i][0] == s[j][0] && s[i][1] < s[j][1] })
	}
	byCost(pred)
	byCost(meas)
	return pred, meas, true
}

func (pl *probeLine) where() string {
	if pl.file != "" {
		return fmt.Sprintf("%s:%d", pl.file, pl.line)
	}
	if len(pl.also) > 0 {
		return fmt.Sprintf("%s:%d+%v", pl.probe, pl.line, pl.also)
	}
	return fmt.Sprintf("%s:%d", pl.probe, pl.line)
}

func gapKey(kernel, file string, line int, op string) string {
	return fmt.Sprintf("%s|%s|%d|%s", kernel, file, line, op)
}

// forInstance keeps, of a template kernel's predictions for one line, those
// for the instance's element size when its type arguments say it (a known
// scalar); otherwise all of them.
func forInstance(ps []accessJSON, targs []string) []accessJSON {
	size := truth.InstanceBytes(targs)
	if size == 0 || len(ps) < 2 {
		return ps
	}
	var out []accessJSON
	for _, p := range ps {
		if p.ElementBytes == size {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return ps
	}
	return out
}

// probeCapabilities maps each kernel of a probe file to the number of the
// section ("// ---- N: ...") it is defined in.
func probeCapabilities(t *testing.T, path string) map[string]int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	section := regexp.MustCompile(`^// ---- (\d+):`)
	kernel := regexp.MustCompile(`__global__\s+void\s+(\w+)\s*\(`)
	caps := map[string]int{}
	cur := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := section.FindStringSubmatch(sc.Text()); m != nil {
			cur, _ = strconv.Atoi(m[1])
		}
		if m := kernel.FindStringSubmatch(sc.Text()); m != nil {
			caps[m[1]] = cur
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return caps
}

func readMeasuredFile(t *testing.T, path string) []ncu.Line {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := ncu.Read(zr)
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
