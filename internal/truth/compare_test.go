package truth

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func num(v float64) *float64 { return &v }

// pred is a prediction of kernel k under a 32-thread block.
func pred(file string, line int, op, expr string, sectors float64) Prediction {
	return Prediction{File: "dir/" + file, Line: line, Column: 5, Kernel: "k", Op: op, Expr: expr, ElementBytes: 4,
		Instructions: 1, SectorsPerRequest: num(sectors), NcuIdealPerRequest: num(sectors), Block: Dim3{32, 1, 1}}
}

// row is a measured row of kernel k under a 32-thread block.
func row(file string, line int, op string, sectors float64) Row {
	return Row{Program: "p.cu", Run: "1", Invocation: 1, Kernel: "k", Block: Dim3{32, 1, 1}, Grid: Dim3{8, 1, 1},
		File: file, Line: line, Op: op, Instructions: 1000, Sectors: int64(sectors * 1000), Ideal: int64(sectors * 1000), SASS: 1}
}

// verdicts renders pairs as "file:line op verdict [moved]" (or "- line op
// not executed" for predictions no row took).
func verdicts(pairs []Pair) []string {
	var out []string
	for _, p := range pairs {
		if p.Row == nil {
			out = append(out, fmt.Sprintf("- %d %s %s", p.Preds[0].Line, p.Preds[0].Op, p.Verdict))
			continue
		}
		s := fmt.Sprintf("%s:%d %s %s", p.Row.File, p.Row.Line, p.Row.Op, p.Verdict)
		if p.Moved {
			s += " moved"
		}
		out = append(out, s)
	}
	return out
}

func TestCompare(t *testing.T) {
	unknown := pred("p.cu", 12, "load", "a[idx[i]]", 0)
	unknown.SectorsPerRequest, unknown.NcuIdealPerRequest, unknown.Unknown = nil, nil, "the address depends on a loaded value"
	noLane := pred("p.cu", 13, "store", "out[i]", 0)
	noLane.SectorsPerRequest, noLane.NcuIdealPerRequest, noLane.Unknown = nil, nil, "no lane performs it"
	other := pred("p.cu", 10, "load", "a[i]", 1)
	other.Block = Dim3{64, 1, 1}
	double, float := pred("p.cu", 10, "load", "a[i]", 8), pred("p.cu", 10, "load", "a[i]", 4)
	double.ElementBytes = 8
	tests := []struct {
		name  string
		rows  []Row
		preds []Prediction
		want  []string
	}{
		{"same line: right within the tolerance, wrong outside it",
			[]Row{row("p.cu", 10, "load", 4), row("p.cu", 11, "store", 4)},
			[]Prediction{pred("p.cu", 10, "load", "a[i]", 4.04), pred("p.cu", 11, "store", "b[i]", 1)},
			[]string{"p.cu:10 load right", "p.cu:11 store wrong"}},
		{"two accesses on one line are averaged",
			[]Row{row("p.cu", 10, "load", 3)},
			[]Prediction{pred("p.cu", 10, "load", "a[i]", 2), pred("p.cu", 10, "load", "b[i]", 4)},
			[]string{"p.cu:10 load right"}},
		{"unknown, and performed by no lane for an executed line",
			[]Row{row("p.cu", 12, "load", 4), row("p.cu", 13, "store", 4)},
			[]Prediction{unknown, noLane},
			[]string{"p.cu:12 load unknown", "p.cu:13 store wrong"}},
		{"the only row of an operation with no prediction on its line takes the predictions left",
			[]Row{row("common.h", 163, "load", 16), row("p.cu", 11, "store", 4)},
			[]Prediction{pred("p.cu", 57, "load", "load128(a + i)", 16), pred("p.cu", 11, "store", "b[i]", 4)},
			[]string{"p.cu:11 store right", "common.h:163 load right moved"}},
		{"two such rows are missing, and the predictions left not executed",
			[]Row{row("common.h", 163, "load", 16), row("common.h", 170, "load", 16)},
			[]Prediction{pred("p.cu", 57, "load", "load128(a + i)", 16)},
			[]string{"common.h:163 load missing", "common.h:170 load missing", "- 57 load not executed"}},
		{"predictions under another block are not compared",
			[]Row{row("p.cu", 10, "load", 4)},
			[]Prediction{other},
			[]string{"p.cu:10 load missing"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := verdicts(Compare(tc.rows, tc.preds))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}

	t.Run("a template instance takes the predictions of its element size", func(t *testing.T) {
		r := row("p.cu", 10, "load", 8)
		r.Kernel = "k<double>"
		got := Compare([]Row{r}, []Prediction{float, double})
		if len(got) != 1 || got[0].Verdict != Right || len(got[0].Preds) != 1 || got[0].Preds[0].ElementBytes != 8 {
			t.Errorf("k<double>: %+v", got)
		}
		r.Kernel = "k<float>"
		if got := Compare([]Row{r}, []Prediction{float, double}); got[0].Verdict != Wrong {
			t.Errorf("k<float> measured at 8 sectors, predicted 4: %v", got[0].Verdict)
		}
	})
	t.Run("a kernel with no prediction says so", func(t *testing.T) {
		got := Compare([]Row{row("p.cu", 10, "load", 4)}, nil)
		if got[0].Verdict != Missing || !strings.Contains(got[0].Why, "no prediction for the kernel") {
			t.Errorf("%+v", got[0])
		}
	})
}

func TestMissingBlocks(t *testing.T) {
	r1, r2, r3 := row("p.cu", 10, "load", 4), row("p.cu", 10, "load", 4), row("p.cu", 10, "load", 4)
	r2.Block = Dim3{256, 1, 1}
	r3.Kernel, r3.Block = "t<float>", Dim3{64, 1, 1}
	got := MissingBlocks([]Row{r1, r2, r3, r3}, []Prediction{pred("p.cu", 10, "load", "a[i]", 4)})
	want := map[string][]Dim3{"k": {{256, 1, 1}}, "t": {{64, 1, 1}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestTally(t *testing.T) {
	rows := []Row{row("p.cu", 10, "load", 4), row("common.h", 163, "load", 16), row("p.cu", 11, "store", 4), row("h.h", 1, "store", 4)}
	ideal := pred("p.cu", 11, "store", "b[i]", 4)
	ideal.NcuIdealPerRequest = num(1)
	preds := []Prediction{pred("p.cu", 10, "load", "a[i]", 4), pred("p.cu", 57, "load", "load128(a + i)", 8), ideal, pred("p.cu", 12, "store", "c[i]", 4)}
	var tl Tally
	for _, p := range Compare(rows, preds) {
		tl.Add(p)
	}
	// p.cu:10 right; common.h:163 takes line 57 (8, moved, wrong); p.cu:11
	// has its sectors right and the ideal wrong; h.h:1 takes line 12 (moved, right).
	want := Tally{Rows: 4, Right: 2, Wrong: 2, MovedRight: 1, MovedWrong: 1, SectorsRightIdealWrong: 1, HeaderRows: 2}
	if tl != want {
		t.Errorf("got  %+v\nwant %+v", tl, want)
	}
}

func TestSameInstance(t *testing.T) {
	for _, tt := range []struct {
		predicted, measured []string
		want                bool
	}{
		{[]string{"int", "256"}, []string{"int", "256"}, true},
		{[]string{"int", "256"}, []string{"int", "(int)256"}, true},
		{[]string{"int", "256", "1"}, []string{"int", "256", "true"}, true},
		{[]string{"int", "?"}, []string{"int", "512"}, true},
		{[]string{"int", "128"}, []string{"int", "256"}, false},
		{[]string{"float", "256"}, []string{"int", "256"}, false},
		{[]string{"unsigned int"}, []string{"unsigned int"}, true},
		{nil, []string{"int"}, false},
	} {
		if got := SameInstance(tt.predicted, tt.measured); got != tt.want {
			t.Errorf("SameInstance(%q, %q) = %v, want %v", tt.predicted, tt.measured, got, tt.want)
		}
	}
}
