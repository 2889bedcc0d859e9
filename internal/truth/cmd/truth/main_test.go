package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/internal/truth"
)

// fakeCudalint answers like cudalint --accesses --format json: kernel k's
// load on prog.cu:3 under block 64, or under the block --block asks for.
// It fails unless it runs beside the program and its header alone.
const fakeCudalint = `#!/bin/sh
[ "$(ls | tr '\n' ' ')" = "common.h prog.cu " ] || { echo "files: $(ls)" >&2; exit 2; }
block='[64, 1, 1]'
case "$*" in *"--block k=32x1x1"*) block='[32, 1, 1]' ;; esac
echo '{"accesses": [{"file": "prog.cu", "line": 3, "column": 5, "kernel": "k", "op": "load", "expr": "a[i]",
  "elementBytes": 4, "instructions": 1, "sectorsPerRequest": 4, "ncuIdealSectorsPerRequest": 4, "block": '"$block"'}], "notes": []}'
`

func TestCompareRunsCudalintOnEachProgramAlone(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	os.Mkdir(src, 0o755)
	for name, text := range map[string]string{"prog.cu": "k", "common.h": "h", "other.cu": "o", "README.md": "r"} {
		os.WriteFile(filepath.Join(src, name), []byte(text), 0o644)
	}
	bin := filepath.Join(dir, "cudalint")
	if err := os.WriteFile(bin, []byte(fakeCudalint), 0o755); err != nil {
		t.Fatal(err)
	}
	rows := []truth.Row{
		// Measured under a block the first run predicts nothing for:
		// compared after a run with --block k=32x1x1.
		{Program: "prog.cu", Run: "1", Invocation: 1, Kernel: "k", Block: truth.Dim3{32, 1, 1}, Grid: truth.Dim3{8, 1, 1},
			File: "prog.cu", Line: 3, Op: "load", Instructions: 10, Sectors: 40, Ideal: 40, SASS: 1},
		{Program: "prog.cu", Run: "1", Invocation: 4, Kernel: "k", Block: truth.Dim3{64, 1, 1}, Grid: truth.Dim3{8, 1, 1},
			File: "prog.cu", Line: 3, Op: "load", Instructions: 10, Sectors: 80, Ideal: 40, SASS: 1},
	}
	var fig bytes.Buffer
	if err := truth.WriteFigures(&fig, rows); err != nil {
		t.Fatal(err)
	}
	figures := filepath.Join(dir, "figures.csv.gz")
	os.WriteFile(figures, fig.Bytes(), 0o644)
	var out bytes.Buffer
	if err := compare([]string{"-figures", figures, "-src", src, "-cudalint", bin}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"right 1 of 2 measured rows",
		"WRONG   prog.cu run 1 k 64x1x1 prog.cu:3 load: measured 8.000 (ideal 4.000, 10 requests, 1 SASS); predicted 4.000 (ideal 4.000)",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
