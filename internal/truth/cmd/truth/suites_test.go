package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cudalint/cudalint/internal/testtool"
)

// The measured suites, and how many of their rows cudalint got right when
// the figures were committed (docs/accuracy.md "A real suite"): a change
// that gets fewer right fails. A suite's sources are not part of this
// repository; the environment variable names a checkout of them, and the
// suite is skipped (saying so) without it.
var suites = []struct {
	name     string
	env      string // the variable naming the sources
	sub      string // the folder of the checkout the programs are in
	programs string // "" for llm.c's programs of one file each
	includes []string
	right    int // at least this many rows right
}{
	{name: "llmc", env: "CUDALINT_LLMC", sub: "dev/cuda", right: 521},
	{name: "rodinia", env: "CUDALINT_RODINIA", sub: "cuda", programs: "programs.txt", right: 124},
	{name: "samples", env: "CUDALINT_CUDA_SAMPLES", programs: "programs.txt", includes: []string{"Common"}, right: 226},
}

func TestSuitesAccuracy(t *testing.T) {
	var bin string
	binDir := t.TempDir()
	for _, s := range suites {
		t.Run(s.name, func(t *testing.T) {
			root := os.Getenv(s.env)
			if root == "" {
				t.Skipf("%s is not set: give it a checkout of the suite's sources (the figures are in testdata/truth/%s)", s.env, s.name)
			}
			if bin == "" {
				var err error
				if bin, err = testtool.Build(binDir); err != nil {
					t.Fatal(err)
				}
			}
			dir := filepath.Join("..", "..", "..", "..", "testdata", "truth", s.name)
			st := suite{figures: filepath.Join(dir, "figures.csv.gz"), src: filepath.Join(root, s.sub), includes: s.includes}
			if s.programs != "" {
				st.programs = filepath.Join(dir, s.programs)
			}
			total, _, err := st.compare(bin, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d of %d rows right (%.1f%%), %d wrong, %d unknown, %d missing", s.name, total.Right, total.Rows,
				100*float64(total.Right)/float64(total.Rows), total.Wrong, total.Unknown, total.Missing)
			if total.Right < s.right {
				t.Errorf("%s: %d of %d rows right, fewer than the %d of the committed figures", s.name, total.Right, total.Rows, s.right)
			}
		})
	}
}
