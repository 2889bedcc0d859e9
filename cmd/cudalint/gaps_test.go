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

// probes2.cu holds probe kernels for capabilities the model does not have
// yet; source2.csv.gz is what Nsight Compute measured for them on an H200
// (bash testdata/truth/measure.sh OUT probes2). TestMeasuredGaps compares
// every measured line with today's prediction.
const (
	probes2   = "../../testdata/truth/probes2.cu"
	measured2 = "../../testdata/truth/source2.csv.gz"
)

// A knownGap is a measured line of probes2.cu that cudalint gets wrong
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
// the instructions: file is empty for probes2.cu, else the CUDA header the
// compiler attributes them to (the predictions of that kernel and operation
// that Nsight shows on no probes2.cu line are then averaged into it).
type knownGap struct {
	kernel   string // as Nsight names it, less "void " and the parameters
	file     string // "" for probes2.cu
	line     int
	op       string
	cap      int // the capability's number: probes2.cu's section, the list
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
	{"m_trip_block", "", 458, "load", 17, 6.667, "b % 4 + 1 iterations: 8.0 per active request, but one of the four unrolled loads is predicated (@P0) and runs in every warp, so Nsight counts 98304 instructions for 81920 requests; predicted 4"},
}

// probeLine is one measured line (or one predicted line no warp executed)
// with the predictions compared against it.
type probeLine struct {
	kernel    string // Nsight's name, normalized (m_tmpl_host<double>)
	base      string // without template arguments: the model's kernel name
	file      string // "" for probes2.cu
	line      int
	op        string
	cap       int
	m         *ncu.Line // nil: predicted, but no warp executed it
	preds     []accessJSON
	predLines []int
}

func TestMeasuredGaps(t *testing.T) {
	caps := probeCapabilities(t, probes2)
	lines := readMeasuredFile(t, measured2)
	rows := accessTable(t, "--accesses", "--format", "json", probes2)

	type pkey struct {
		kernel string
		line   int
		op     string
	}
	predicted := map[pkey][]accessJSON{}
	var pkeys []pkey
	for _, r := range rows {
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
		pl := &probeLine{kernel: name, base: base, line: m.Line, op: m.Op, cap: caps[base], m: m}
		if m.File != filepath.Base(probes2) {
			pl.file = m.File
		}
		probesLines = append(probesLines, pl)
		k := pkey{base, m.Line, m.Op}
		if ps, ok := predicted[k]; ok && pl.file == "" {
			pl.preds, pl.predLines = forInstance(ps, targ), []int{m.Line}
			used[name][k] = true
			continue
		}
		unmatched = append(unmatched, pl)
	}
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
				probesLines = append(probesLines, &probeLine{kernel: name, base: base, line: k.line, op: op,
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
			probesLines = append(probesLines, &probeLine{kernel: k.kernel, base: k.kernel, line: k.line, op: k.op,
				cap: caps[k.kernel], preds: predicted[k], predLines: []int{k.line}})
		}
	}

	gaps := map[string]*knownGap{}
	for i := range knownGaps {
		g := &knownGaps[i]
		gaps[gapKey(g.kernel, g.file, g.line, g.op)] = g
	}
	seen := map[string]bool{}
	nMeasured, nRight := 0, 0
	report := map[int][]string{}
	for _, pl := range probesLines {
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
			t.Errorf("%s %s: kernel %s is in no capability section of probes2.cu", where, pl.op, pl.base)
		}
		g, listed := gaps[key]
		seen[key] = true
		switch {
		case right && listed:
			t.Errorf("%s %s %s (capability %d) is right now (%s): move it out of knownGaps", pl.kernel, where, pl.op, g.cap, predText)
		case !right && !listed:
			want := 0.0
			if pl.m != nil {
				want = pl.m.SectorsPerRequest()
			}
			t.Errorf("%s %s %s (capability %d): measured %s, predicted %s: a line that was right turned wrong, or a new gap for knownGaps: {%q, %q, %d, %q, %d, %.3f, \"\"},",
				pl.kernel, where, pl.op, pl.cap, meas, predText, pl.kernel, pl.file, pl.line, pl.op, pl.cap, want)
		case listed:
			want := 0.0
			if pl.m != nil {
				want = pl.m.SectorsPerRequest()
			}
			if !near(g.measured, want) {
				t.Errorf("knownGaps %s %s %s: table says measured %.3f, the export %.3f", g.kernel, where, g.op, g.measured, want)
			}
			if g.cap != pl.cap {
				t.Errorf("knownGaps %s %s %s: capability %d, probes2.cu's section says %d", g.kernel, where, g.op, g.cap, pl.cap)
			}
		}
	}
	for k, g := range gaps {
		if !seen[k] {
			t.Errorf("knownGaps %s %s:%d %s: no such measured or predicted line", g.kernel, g.file, g.line, g.op)
		}
	}
	if nMeasured < 90 {
		t.Errorf("only %d measured global lines in %s; the export is incomplete", nMeasured, measured2)
	}
	var capsSeen []int
	for c := range report {
		capsSeen = append(capsSeen, c)
	}
	sort.Ints(capsSeen)
	var b strings.Builder
	fmt.Fprintf(&b, "probes2.cu: %d lines measured, %d compared lines right, %d known gaps\n", nMeasured, nRight, len(knownGaps))
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
	return near(sec, pl.m.SectorsPerRequest()) && near(ideal, pl.m.IdealPerRequest()), text
}

func (pl *probeLine) where() string {
	if pl.file != "" {
		return fmt.Sprintf("%s:%d", pl.file, pl.line)
	}
	return fmt.Sprintf("probes2.cu:%d", pl.line)
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
