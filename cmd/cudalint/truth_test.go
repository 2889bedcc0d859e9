package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/internal/ncu"
	"github.com/cudalint/cudalint/internal/truth"
	"github.com/cudalint/cudalint/parser"
)

const (
	probes   = "../../testdata/truth/probes.cu"
	measured = "../../testdata/truth/source.csv.gz"
)

// TestMeasuredTruth compares every prediction for the probe kernels with
// what Nsight Compute measured on an H200 (testdata/truth/measure.sh):
// L2 Theoretical Sectors Global over Instructions Executed, summed over
// the SASS instructions of each source line.
func TestMeasuredTruth(t *testing.T) {
	lines := readMeasured(t)
	rows := accessTable(t, "--accesses", "--format", "json", probes)

	type key struct {
		kernel string
		line   int
		op     string
	}
	predicted := map[key][]accessJSON{}
	for _, r := range rows {
		if r.Space != "global" { // shared rows: TestMeasuredBankConflicts
			continue
		}
		k := key{r.Kernel, r.Line, r.Op}
		predicted[k] = append(predicted[k], r)
	}
	matched := map[key]bool{}
	for _, m := range lines {
		if m.Space != "global" {
			continue
		}
		k := key{m.Function, m.Line, m.Op}
		got, ok := predicted[k]
		if !ok {
			t.Errorf("%s line %d %s: measured %.3f sectors/request, but cudalint predicts no such access", m.Function, m.Line, m.Op, m.SectorsPerRequest())
			continue
		}
		matched[k] = true
		if len(got) != 1 {
			t.Errorf("%s line %d %s: %d predictions for one measured line", m.Function, m.Line, m.Op, len(got))
			continue
		}
		p := got[0]
		want := m.SectorsPerRequest()
		if p.SectorsPerRequest == nil {
			// Data-dependent: the model must say unknown, range 1..32, and the hardware must lie in it.
			if p.SectorsRange == nil || want < float64(p.SectorsRange[0]) || want > float64(p.SectorsRange[1]) {
				t.Errorf("%s line %d %s: unknown prediction %v does not cover measured %.3f", m.Function, m.Line, m.Op, p.SectorsRange, want)
			}
			continue
		}
		if !near(*p.SectorsPerRequest, want) {
			t.Errorf("%s line %d %s %s: predicted %.3f sectors/request, measured %.3f", m.Function, m.Line, m.Op, p.Expr, *p.SectorsPerRequest, want)
		}
		if !near(*p.NcuIdealPerRequest, m.IdealPerRequest()) {
			t.Errorf("%s line %d %s %s: predicted ncu ideal %.3f, measured %.3f", m.Function, m.Line, m.Op, p.Expr, *p.NcuIdealPerRequest, m.IdealPerRequest())
		}
		if p.Unrolled != nil {
			if ok, text := copiesMatch(p.Unrolled, &m); !ok {
				t.Errorf("%s line %d %s %s: the unrolled copies do not match the SASS instructions%s", m.Function, m.Line, m.Op, p.Expr, text)
			}
		}
	}
	for k, r := range predicted {
		if !matched[k] {
			t.Errorf("%s line %d %s %s: predicted but not measured (did the compiler drop it?)", k.kernel, k.line, k.op, r[0].Expr)
		}
	}
	if len(lines) < 80 {
		t.Errorf("only %d measured lines; the table is incomplete", len(lines))
	}
}

// TestMeasuredBankConflicts compares the predicted wavefronts of every
// shared-memory access of the probes with Nsight's: per block, from L1
// Wavefronts Shared, where the prediction is exact (this holds however
// the compiler guards the access: a predicated instruction that most warps
// run with no lane on counts as executed, which an N-way per instruction
// reflects and a per-request prediction should not); otherwise per
// request, from L1 Conflicts Shared N-Way.
func TestMeasuredBankConflicts(t *testing.T) {
	src, err := os.ReadFile(probes)
	if err != nil {
		t.Fatal(err)
	}
	res := analyzer.Analyze([]*parser.File{parser.Parse(probes, src, parser.Config{})}, analyzer.Options{})
	predicted := map[string][]*analyzer.Prediction{}
	for _, p := range res.Predictions {
		if p.Access.Space == interp.Shared {
			k := fmt.Sprintf("%s:%d:%s", p.Access.Kernel.Name, p.Access.Pos.Line, p.Access.Op)
			predicted[k] = append(predicted[k], p)
		}
	}
	n, perBlock := 0, 0
	for _, m := range readMeasured(t) {
		if m.Space != "shared" {
			continue
		}
		n++
		k := fmt.Sprintf("%s:%d:%s", m.Function, m.Line, m.Op)
		ps, ok := predicted[k]
		if !ok {
			t.Errorf("%s: measured %.2f-way, not predicted", k, m.ConflictWays())
			continue
		}
		if total, ok := wavefrontsPerBlock(ps); ok && m.SharedWavefronts > 0 {
			perBlock++
			measured := float64(m.SharedWavefronts) / float64(ps[0].Config.Grid.Threads())
			t.Logf("%s: %.3f wavefronts per block predicted, %.3f measured", k, total, measured)
			if !near(total, measured) {
				t.Errorf("%s: predicted %.2f wavefronts per block, measured %.2f", k, total, measured)
			}
			continue
		}
		p := ps[0]
		if len(ps) > 1 || !p.Known || !near(p.Sectors, m.ConflictWays()) {
			t.Errorf("%s %s: predicted %.2f wavefronts, measured %.2f", k, p.Access.Expr, p.Sectors, m.ConflictWays())
		}
	}
	if n < 10 || perBlock < 4 {
		t.Errorf("only %d measured shared lines, %d compared per block", n, perBlock)
	}
}

// wavefrontsPerBlock sums the wavefronts of one block's requests over
// exact predictions.
func wavefrontsPerBlock(ps []*analyzer.Prediction) (float64, bool) {
	total := 0.0
	for _, p := range ps {
		if !p.Known || !p.Exact || p.BlocksEvaluated == 0 {
			return 0, false
		}
		total += p.Sectors * float64(p.Requests) / float64(p.BlocksEvaluated)
	}
	return total, true
}

// near applies the tolerance of every measured comparison: 0.05 sectors,
// or 2% for averages.
func near(got, want float64) bool { return truth.Near(got, want) }

func readMeasured(t *testing.T) []ncu.Line { return readMeasuredFile(t, measured) }

// accessDoc is the --accesses JSON document.
type accessDoc struct {
	Accesses []accessJSON `json:"accesses"`
	Notes    []noteJSON   `json:"notes"`
}

// runAccesses runs cudalint with args (which ask for --accesses in JSON),
// expects exit 0, and decodes the document.
func runAccesses(t *testing.T, args ...string) accessDoc {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(args, strings.NewReader(""), &out, &errb); code != exitOK {
		t.Fatalf("cudalint %v: exit %d\n%s", args, code, errb.String())
	}
	var doc accessDoc
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out.String())
	}
	return doc
}

func accessTable(t *testing.T, args ...string) []accessJSON {
	t.Helper()
	return runAccesses(t, args...).Accesses
}

// TestMeasuredTable prints the comparison (go test -v -run MeasuredTable).
func TestMeasuredTable(t *testing.T) {
	if !testing.Verbose() {
		t.Skip("prints the table with -v")
	}
	lines := readMeasured(t)
	for _, m := range lines {
		fmt.Printf("%-20s %4d %-5s measured %7.3f ideal %6.3f (%d SASS)\n", m.Function, m.Line, m.Op, m.SectorsPerRequest(), m.IdealPerRequest(), m.SASS)
	}
}
