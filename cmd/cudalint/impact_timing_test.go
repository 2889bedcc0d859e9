package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/cudalint/cudalint/rules/impact"
)

const (
	timingPairs   = "../../testdata/truth/timing/pairs.cu"
	timingResults = "../../testdata/truth/timing/timings.csv"
)

// timedPair is one pair of timings.csv: a kernel with a finding and its
// fixed twin, with their median times.
type timedPair struct {
	name            string
	asIs, fixed     string // the kernels
	asIsMs, fixedMs float64
}

// TestEstimatedSpeedupMatchesTimings checks each finding's estimated
// speedup (numbers.impact.estimatedSpeedup) against what fixing it
// measured on an H200 (testdata/truth/timing/run.sh): the median time of
// the kernel as it is over that of its fixed twin, within a factor of 2.
func TestEstimatedSpeedupMatchesTimings(t *testing.T) {
	pairs := readTimings(t)
	estimates := estimatedSpeedups(t)
	for _, p := range pairs {
		measured := p.asIsMs / p.fixedMs
		est, ok := estimates[p.asIs]
		if !ok {
			t.Errorf("%s: cudalint reports no finding with an impact in %s (measured %.2fx)", p.name, p.asIs, measured)
			continue
		}
		if _, ok := estimates[p.fixed]; ok {
			t.Errorf("%s: the fixed twin %s has a finding too", p.name, p.fixed)
		}
		ratio := est / measured
		t.Logf("%-14s estimated %5.2fx  measured %5.2fx  (%s %.4f ms, %s %.4f ms)", p.name, est, measured, p.asIs, p.asIsMs, p.fixed, p.fixedMs)
		if ratio > 2 || ratio < 0.5 {
			t.Errorf("%s: estimated %.2fx, measured %.2fx: more than a factor of 2 apart", p.name, est, measured)
		}
	}
}

// readTimings reads timings.csv: a header, then two lines per pair, the
// kernel as it is first. It skips the test while the file is absent (the
// timings are measured on a GPU and committed as data).
func readTimings(t *testing.T) []timedPair {
	t.Helper()
	f, err := os.Open(timingResults)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is absent: run testdata/truth/timing/run.sh OUTDIR on a GPU and copy OUTDIR/timings.csv and env.txt there", timingResults)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 3 || rows[0][0] != "pair" {
		t.Fatalf("%s: want a header (pair,variant,median_ms,bytes) and lines", timingResults)
	}
	var out []timedPair
	index := map[string]int{}
	for _, r := range rows[1:] {
		if len(r) != 4 {
			t.Fatalf("%s: line %q has %d fields, want 4", timingResults, r, len(r))
		}
		ms, err := strconv.ParseFloat(r[2], 64)
		if err != nil || ms <= 0 || math.IsInf(ms, 0) {
			t.Fatalf("%s: pair %s: median %q is not a positive time", timingResults, r[0], r[2])
		}
		i, seen := index[r[0]]
		if !seen {
			index[r[0]] = len(out)
			out = append(out, timedPair{name: r[0], asIs: r[1], asIsMs: ms})
			continue
		}
		if out[i].fixed != "" {
			t.Fatalf("%s: pair %s has more than two lines", timingResults, r[0])
		}
		out[i].fixed, out[i].fixedMs = r[1], ms
	}
	for _, p := range out {
		if p.fixed == "" {
			t.Fatalf("%s: pair %s has one line", timingResults, p.name)
		}
	}
	return out
}

// estimatedSpeedups runs cudalint on pairs.cu and returns, per kernel,
// the largest estimated speedup of its findings.
func estimatedSpeedups(t *testing.T) map[string]float64 {
	t.Helper()
	_, out, errs := runCLI("--format", "json", timingPairs)
	var rep struct {
		Findings []struct {
			Numbers struct {
				Kernel string `json:"kernel"`
				Impact *struct {
					EstimatedSpeedup float64 `json:"estimatedSpeedup"`
				} `json:"impact"`
			} `json:"numbers"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("cudalint's JSON: %v\n%s", err, errs)
	}
	est := map[string]float64{}
	for _, f := range rep.Findings {
		if imp := f.Numbers.Impact; imp != nil {
			est[f.Numbers.Kernel] = math.Max(est[f.Numbers.Kernel], imp.EstimatedSpeedup)
		}
	}
	return est
}

// The estimates for the timing pairs, worked by hand from sectors (and
// wavefronts) per request, as every access of a pair's kernel runs once
// per warp and iteration: the kernel's traffic as it is over the same
// with the finding's accesses at their ideal. They need no GPU; the
// timings check them against the hardware.
func TestPairEstimates(t *testing.T) {
	// The bank conflict: 8 sectors of global traffic per warp and row,
	// 1 + 32 wavefronts as it is, 1 + 1 padded.
	global := 8 * 32 / impact.GlobalBytesPerSecond
	conflict := (global + 33/impact.SharedWavefrontsPerSecond) / (global + 2/impact.SharedWavefrontsPerSecond)
	want := map[string]float64{
		"transpose_slow":     (32.0 + 4) / (4 + 4), // the column store
		"bank_conflict_slow": conflict,
		"stride2_slow":       (8.0 + 4) / (4 + 4),
		"stride4_slow":       (16.0 + 4) / (4 + 4),
		"stride8_slow":       (32.0 + 4) / (4 + 4),
		"stride32_slow":      (32.0 + 4) / (4 + 4),
		"aos_slow":           (16.0 + 4) / (4 + 4),
		"misaligned_slow":    (5.0 + 4) / (4 + 4),
		"vector_slow":        1,                    // the L1 serves three of the four scalar loads: DRAM moves 16 + 4 sectors either way
		"reshape_slow":       (32.0 + 4) / (4 + 4), // the store through i % W
		// The gather through i % 16. Other warps of the block read the
		// rest of each sector from the L1, which the model does not
		// credit: measured 1.33x.
		"heads_slow": (16.0 + 4) / (4 + 4),
	}
	got := estimatedSpeedups(t)
	for kernel, w := range want {
		if g, ok := got[kernel]; !ok || math.Abs(g-w) > 0.001 {
			t.Errorf("%s: estimated %.3fx, want %.3fx", kernel, g, w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("findings with an impact in %d kernels, want %d: %v", len(got), len(want), got)
	}
}
