// Command truth reduces Nsight Compute's exports of real programs to
// figures and compares cudalint's predictions with them.
//
//	truth reduce -o FIGURES.csv.gz RAW.tar.gz
//	truth compare -figures FIGURES.csv.gz -src DIR -cudalint BIN [-v]
//
// reduce reads testdata/truth/llmc/measure.sh's raw.tar.gz. compare runs
// the cudalint binary BIN (--accesses --format json) on each measured
// program alone: the program's file and the headers beside it (*.h,
// *.cuh, *.hpp) copied from DIR into a folder of their own, since each
// file is a program of its own. A kernel with no prediction under a
// measured block is analyzed again with --block KERNEL=BLOCK.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cudalint/cudalint/internal/truth"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "reduce":
		err = reduce(os.Args[2:])
	case "compare":
		err = compare(os.Args[2:], os.Stdout)
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "truth:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: truth reduce -o FIGURES.csv.gz RAW.tar.gz\n       truth compare -figures FIGURES.csv.gz -src DIR -cudalint BIN [-v]")
	os.Exit(2)
}

func reduce(args []string) error {
	fs := flag.NewFlagSet("reduce", flag.ExitOnError)
	out := fs.String("o", "", "write the figures to this file")
	fs.Parse(args)
	if *out == "" || fs.NArg() != 1 {
		usage()
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer f.Close()
	rows, notes, err := truth.ReduceArchive(f)
	if err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(os.Stderr, "note:", n)
	}
	var b bytes.Buffer
	if err := truth.WriteFigures(&b, rows); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%d rows\n", len(rows))
	return os.WriteFile(*out, b.Bytes(), 0o644)
}

func compare(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("compare", flag.ExitOnError)
	figures := fs.String("figures", "", "the figures file (truth reduce's output)")
	src := fs.String("src", "", "the folder holding the measured programs' sources")
	bin := fs.String("cudalint", "", "the cudalint binary to compare")
	verbose := fs.Bool("v", false, "list every row, right ones too")
	fs.Parse(args)
	if *figures == "" || *src == "" || *bin == "" {
		usage()
	}
	f, err := os.Open(*figures)
	if err != nil {
		return err
	}
	rows, err := truth.ReadFigures(f)
	f.Close()
	if err != nil {
		return err
	}
	byProgram := map[string][]truth.Row{}
	for _, r := range rows {
		byProgram[r.Program] = append(byProgram[r.Program], r)
	}
	programs := make([]string, 0, len(byProgram))
	for p := range byProgram {
		programs = append(programs, p)
	}
	sort.Strings(programs)
	var total truth.Tally
	var listed []truth.Pair
	fmt.Fprintf(w, "%-34s %5s %5s %5s %7s %7s %7s %8s\n", "program", "rows", "right", "wrong", "unknown", "missing", "moved", "not run")
	for _, prog := range programs {
		preds, err := predict(*bin, *src, prog, byProgram[prog])
		if err != nil {
			return err
		}
		var t truth.Tally
		for _, p := range truth.Compare(byProgram[prog], preds) {
			t.Add(p)
			total.Add(p)
			if *verbose || p.Row != nil && p.Verdict != truth.Right {
				listed = append(listed, p)
			}
		}
		writeTally(w, prog, t)
	}
	writeTally(w, "total", total)
	fmt.Fprintf(w, "\nright %d of %d measured rows (%.1f%%); of the wrong, %d have the sectors right and Nsight's ideal wrong;\n",
		total.Right, total.Rows, 100*float64(total.Right)/float64(max(total.Rows, 1)), total.SectorsRightIdealWrong)
	fmt.Fprintf(w, "moved rows (compared with predictions on other lines): %d right, %d wrong; rows on a header's line: %d, of which %d missing\n\n",
		total.MovedRight, total.MovedWrong, total.HeaderRows, total.HeaderMissing)
	for _, p := range listed {
		writePair(w, p)
	}
	return nil
}

func writeTally(w io.Writer, name string, t truth.Tally) {
	fmt.Fprintf(w, "%-34s %5d %5d %5d %7d %7d %7d %8d\n", name, t.Rows, t.Right, t.Wrong, t.Unknown, t.Missing,
		t.MovedRight+t.MovedWrong, t.NotExecuted)
}

func writePair(w io.Writer, p truth.Pair) {
	r := p.Row
	if r == nil { // Compare gives such a pair one prediction at least
		fmt.Fprintf(w, "%-7s %s %s: predicted, no instruction executed: %s\n", "NOTRUN", p.Preds[0].Kernel, p.Preds[0].Block, p.Why)
		return
	}
	moved := ""
	if p.Moved {
		moved = " (moved)"
	}
	fmt.Fprintf(w, "%-7s %s run %s %s %s %s:%d %s: measured %.3f (ideal %.3f, %d requests, %d SASS)",
		strings.ToUpper(p.Verdict.String()), r.Program, r.Run, r.Kernel, r.Block, r.File, r.Line, r.Op,
		r.SectorsPerRequest(), r.IdealPerRequest(), r.Instructions, r.SASS)
	switch p.Verdict {
	case truth.Right, truth.Wrong:
		if p.Why == "performed by no lane" {
			fmt.Fprintf(w, "; predicted: performed by no lane%s\n", moved)
			return
		}
		fmt.Fprintf(w, "; predicted %.3f (ideal %.3f)%s from %s\n", p.Sectors, p.Ideal, moved, p.Why)
	default:
		fmt.Fprintf(w, "; %s%s\n", p.Why, moved)
	}
}

// predict runs cudalint on one program alone, and again with --block for
// each measured block it predicted nothing under.
func predict(bin, src, program string, rows []truth.Row) ([]truth.Prediction, error) {
	dir, err := os.MkdirTemp("", "truth-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := copyProgram(src, program, dir); err != nil {
		return nil, err
	}
	preds, err := runCudalint(bin, dir, program, nil)
	if err != nil {
		return nil, err
	}
	missing := truth.MissingBlocks(rows, preds)
	// One run per round: a kernel takes one --block per run.
	for round := 0; ; round++ {
		var flags []string
		want := map[string]truth.Dim3{}
		for k, blocks := range missing {
			if round < len(blocks) {
				flags = append(flags, "--block", k+"="+blocks[round].String())
				want[k] = blocks[round]
			}
		}
		if len(flags) == 0 {
			return preds, nil
		}
		more, err := runCudalint(bin, dir, program, flags)
		if err != nil {
			return nil, err
		}
		for _, p := range more {
			if b, ok := want[p.Kernel]; ok && b == p.Block {
				preds = append(preds, p)
			}
		}
	}
}

// copyProgram copies the program's file and the headers of its folder.
func copyProgram(src, program, dir string) error {
	names := []string{program}
	for _, pat := range []string{"*.h", "*.cuh", "*.hpp"} {
		m, err := filepath.Glob(filepath.Join(src, pat))
		if err != nil {
			return err
		}
		for _, f := range m {
			names = append(names, filepath.Base(f))
		}
	}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(src, n))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func runCudalint(bin, dir, program string, flags []string) ([]truth.Prediction, error) {
	args := append([]string{"--accesses", "--format", "json"}, flags...)
	cmd := exec.Command(bin, append(args, program)...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var doc struct {
		Accesses []truth.Prediction `json:"accesses"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		return nil, fmt.Errorf("cudalint %s %s: %v; %v\n%s", strings.Join(flags, " "), program, runErr, err, stderr.String())
	}
	var exit *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exit) {
		return nil, runErr
	}
	if stderr.Len() > 0 {
		fmt.Fprintf(os.Stderr, "cudalint %s: %s", program, stderr.String())
	}
	var out []truth.Prediction
	for _, p := range doc.Accesses {
		if p.Compared() {
			out = append(out, p)
		}
	}
	return out, nil
}
