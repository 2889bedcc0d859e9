package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/cudalint/cudalint/internal/testtool"
)

// measuredPart is one kernel of parts.csv: its part of the time of the
// launches its host function makes (testdata/truth/launchers/run.sh).
type measuredPart struct {
	suite, path, function, kernel string
	part                          float64
}

// TestLauncherParts checks the part of its host function's launches that
// cudalint gives a finding's kernel (numbers.impact.launcher.part) against
// the H200's: every kernel of parts.csv with a finding whose launcher is
// that function must be within a factor of 2 of its measured part. The
// suites' sources come from the same variables as TestSuitesAccuracy.
func TestLauncherParts(t *testing.T) {
	parts := readParts(t, filepath.Join("..", "..", "..", "..", "testdata", "truth", "launchers", "parts.csv"))
	roots := map[string]string{"llmc": os.Getenv("CUDALINT_LLMC"), "samples": os.Getenv("CUDALINT_CUDA_SAMPLES")}
	includes := map[string][]string{"samples": {"-I", "Common"}}
	bin := ""
	checked := 0
	predicted := map[string]map[[2]string]float64{} // path -> (function, kernel) -> part
	for _, m := range parts {
		root := roots[m.suite]
		if root == "" {
			t.Logf("%s: no checkout of the %s suite (CUDALINT_LLMC, CUDALINT_CUDA_SAMPLES): not checked", m.kernel, m.suite)
			continue
		}
		if bin == "" {
			var err error
			if bin, err = testtool.Build(t.TempDir()); err != nil {
				t.Fatal(err)
			}
		}
		if predicted[m.path] == nil {
			predicted[m.path] = launcherParts(t, bin, root, m.path, includes[m.suite])
		}
		got, ok := predicted[m.path][[2]string{m.function, m.kernel}]
		if !ok {
			continue // no finding in that kernel carries the function's part
		}
		checked++
		t.Logf("%-32s in %-24s predicted %.3f, measured %.3f", m.kernel, m.function, got, m.part)
		if got > 2*m.part || got < m.part/2 {
			t.Errorf("%s: part of %s's launches predicted %.3f, measured %.3f: more than a factor of 2 apart", m.kernel, m.function, got, m.part)
		}
	}
	if bin != "" && checked < 6 {
		t.Errorf("only %d kernels of parts.csv had a finding with their launcher's part, want at least 6", checked)
	}
}

// launcherParts runs cudalint on path inside root and returns, per host
// function and kernel, the launcher part its findings carry.
func launcherParts(t *testing.T, bin, root, path string, flags []string) map[[2]string]float64 {
	t.Helper()
	args := append([]string{"--root", ".", "--format", "json", "--exit-zero"}, flags...)
	cmd := exec.Command(bin, append(args, path)...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("cudalint %s: %v", path, err)
	}
	var report struct {
		Findings []struct {
			Numbers struct {
				Kernel string `json:"kernel"`
				Impact *struct {
					Launcher *struct {
						Function string  `json:"function"`
						Part     float64 `json:"part"`
					} `json:"launcher"`
				} `json:"impact"`
			} `json:"numbers"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("cudalint %s: %v", path, err)
	}
	parts := map[[2]string]float64{}
	for _, f := range report.Findings {
		if imp := f.Numbers.Impact; imp != nil && imp.Launcher != nil {
			parts[[2]string{imp.Launcher.Function, f.Numbers.Kernel}] = imp.Launcher.Part
		}
	}
	return parts
}

func readParts(t *testing.T, path string) []measuredPart {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []measuredPart
	for _, r := range rows[1:] {
		part, err := strconv.ParseFloat(r[6], 64)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, measuredPart{suite: r[0], path: r[1], function: r[2], kernel: r[3], part: part})
	}
	return out
}
