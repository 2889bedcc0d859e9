// Command truth reduces Nsight Compute's exports of real programs to
// figures and compares cudalint's predictions with them.
//
//	truth reduce [-suffix .cu] -o FIGURES.csv.gz RAW.tar.gz
//	truth compare -figures FIGURES.csv.gz -src DIR -cudalint BIN [-programs PROGRAMS.txt] [-I DIR]... [-v]
//
// reduce reads testdata/truth/llmc/measure.sh's raw.tar.gz (programs
// named FILE.cu: -suffix .cu, the default) or a suite's from
// testdata/truth/measure-suite.sh (-suffix ""). compare runs the cudalint
// binary BIN (--accesses --format json) on each measured program alone.
// Without -programs (llm.c) a program is a file: it and the headers
// beside it (*.h, *.cuh, *.hpp) are copied from DIR into a folder of
// their own, since each file is a program of its own. With -programs (a
// suite's programs.txt) a program is its folder under DIR: cudalint runs
// there on the program's .cu sources, with DIR as its root and the
// program's -I folders and the -I flags given (relative to DIR). A kernel
// with no prediction under a measured block is analyzed again with
// --block KERNEL=BLOCK.
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
	fmt.Fprintln(os.Stderr, "usage: truth reduce [-suffix .cu] -o FIGURES.csv.gz RAW.tar.gz\n       truth compare -figures FIGURES.csv.gz -src DIR -cudalint BIN [-programs PROGRAMS.txt] [-I DIR]... [-v]")
	os.Exit(2)
}

func reduce(args []string) error {
	fs := flag.NewFlagSet("reduce", flag.ExitOnError)
	out := fs.String("o", "", "write the figures to this file")
	suffix := fs.String("suffix", ".cu", "what a run's PROGRAM takes to be the program's name (\"\" for a suite's)")
	fs.Parse(args)
	if *out == "" || fs.NArg() != 1 {
		usage()
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer f.Close()
	rows, notes, err := truth.ReduceArchive(f, *suffix)
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

// includeFlags collects repeated -I flags.
type includeFlags []string

func (f *includeFlags) String() string     { return strings.Join(*f, " ") }
func (f *includeFlags) Set(v string) error { *f = append(*f, v); return nil }

func compare(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("compare", flag.ExitOnError)
	figures := fs.String("figures", "", "the figures file (truth reduce's output)")
	src := fs.String("src", "", "the folder holding the measured programs' sources")
	bin := fs.String("cudalint", "", "the cudalint binary to compare")
	programs := fs.String("programs", "", "a suite's programs.txt (a program is a folder of SRC); without it, a program is a file")
	var includes includeFlags
	fs.Var(&includes, "I", "with -programs, an include folder (relative to SRC) for every program")
	verbose := fs.Bool("v", false, "list every row, right ones too")
	fs.Parse(args)
	if *figures == "" || *src == "" || *bin == "" {
		usage()
	}
	s := suite{figures: *figures, src: *src, programs: *programs, includes: includes}
	total, pairs, err := s.compare(*bin, w)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nright %d of %d measured rows (%.1f%%); of the wrong, %d have the sectors right and Nsight's ideal wrong;\n",
		total.Right, total.Rows, 100*float64(total.Right)/float64(max(total.Rows, 1)), total.SectorsRightIdealWrong)
	fmt.Fprintf(w, "moved rows (compared with predictions on other lines): %d right, %d wrong; rows on a header's line: %d, of which %d missing\n\n",
		total.MovedRight, total.MovedWrong, total.HeaderRows, total.HeaderMissing)
	for _, p := range pairs {
		if *verbose || p.Row != nil && p.Verdict != truth.Right {
			writePair(w, p)
		}
	}
	return nil
}

// A suite is what a comparison reads: the figures, the programs' sources
// and, for a suite of folders, its programs.txt.
type suite struct {
	figures, src string
	programs     string   // programs.txt; "" when each program is a file of src
	includes     []string // include folders for every program, relative to src
}

// compare compares bin's predictions with the suite's figures, writing a
// tally per program to w (nil: none), and returns the total and every
// pair.
func (s suite) compare(bin string, w io.Writer) (truth.Tally, []truth.Pair, error) {
	var total truth.Tally
	f, err := os.Open(s.figures)
	if err != nil {
		return total, nil, err
	}
	rows, err := truth.ReadFigures(f)
	f.Close()
	if err != nil {
		return total, nil, fmt.Errorf("%s: %v", s.figures, err)
	}
	var progs map[string]truth.Program
	if s.programs != "" {
		pf, err := os.Open(s.programs)
		if err != nil {
			return total, nil, err
		}
		progs, err = truth.ReadPrograms(s.programs, pf)
		pf.Close()
		if err != nil {
			return total, nil, err
		}
	}
	byProgram := map[string][]truth.Row{}
	for _, r := range rows {
		byProgram[r.Program] = append(byProgram[r.Program], r)
	}
	names := make([]string, 0, len(byProgram))
	for p := range byProgram {
		names = append(names, p)
	}
	sort.Strings(names)
	var pairs []truth.Pair
	if w != nil {
		fmt.Fprintf(w, "%-34s %5s %5s %5s %7s %7s %7s %8s\n", "program", "rows", "right", "wrong", "unknown", "missing", "moved", "not run")
	}
	for _, prog := range names {
		var pl place
		if progs == nil {
			pl, err = filePlace(s.src, prog)
		} else {
			p, ok := progs[prog]
			if !ok {
				return total, nil, fmt.Errorf("%s: program %s is not in %s", s.figures, prog, s.programs)
			}
			pl, err = folderPlace(s.src, p, progs, s.includes)
		}
		if err != nil {
			return total, nil, err
		}
		preds, err := predict(bin, pl, byProgram[prog])
		pl.done()
		if err != nil {
			return total, nil, err
		}
		var t truth.Tally
		for _, p := range truth.Compare(byProgram[prog], preds) {
			t.Add(p)
			total.Add(p)
			pairs = append(pairs, p)
		}
		if w != nil {
			writeTally(w, prog, t)
		}
	}
	if w != nil {
		writeTally(w, "total", total)
	}
	return total, pairs, nil
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

// A place is where and how cudalint analyzes one program.
type place struct {
	dir   string   // the working directory
	flags []string // before the files: --root, -I
	files []string
	temp  string // a folder to remove when done
	// others are files (relative to dir) of other programs: their
	// predictions are not this program's.
	others map[string]bool
}

func (p place) done() {
	if p.temp != "" {
		os.RemoveAll(p.temp)
	}
}

// filePlace is a program that is a file of src (llm.c): it and the
// headers of src, copied into a folder of their own.
func filePlace(src, program string) (place, error) {
	dir, err := os.MkdirTemp("", "truth-")
	if err != nil {
		return place{}, err
	}
	pl := place{dir: dir, files: []string{program}, temp: dir}
	if err := copyProgram(src, program, dir); err != nil {
		pl.done()
		return place{}, err
	}
	return pl, nil
}

// folderPlace is a program of a suite: its folder of src, analyzed
// whole (a kernel file its sources include is a file of the folder) with
// src as the root and its and the suite's include folders, less the
// predictions in the sources of other programs built in the same folder.
func folderPlace(src string, p truth.Program, all map[string]truth.Program, includes []string) (place, error) {
	root, err := filepath.Abs(src)
	if err != nil {
		return place{}, err
	}
	dir := filepath.Join(root, p.Folder)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return place{}, fmt.Errorf("program %s (programs.txt line %d): no folder %s", p.Name, p.Line, dir)
	}
	pl := place{dir: dir, flags: []string{"--root", root}, files: []string{"."}, others: map[string]bool{}}
	own := map[string]bool{}
	for _, f := range p.Sources {
		own[filepath.Clean(f)] = true
	}
	for _, o := range all {
		if o.Name != p.Name && filepath.Clean(o.Folder) == filepath.Clean(p.Folder) {
			for _, f := range o.CUDASources() {
				if !own[filepath.Clean(f)] {
					pl.others[filepath.Clean(f)] = true
				}
			}
		}
	}
	for _, inc := range p.IncludeDirs() {
		pl.flags = append(pl.flags, "-I", filepath.Join(dir, inc))
	}
	for _, inc := range includes {
		pl.flags = append(pl.flags, "-I", filepath.Join(root, inc))
	}
	pl.flags = append(pl.flags, p.Cudalint...)
	return pl, nil
}

// predict runs cudalint on one program alone, and again with --block for
// each measured block it predicted nothing under.
func predict(bin string, pl place, rows []truth.Row) ([]truth.Prediction, error) {
	preds, err := runCudalint(bin, pl, nil)
	if err != nil {
		return nil, err
	}
	missing := truth.MissingBlocks(rows, preds)
	// One run per round: a kernel takes one --block per run.
	for round := 0; ; round++ {
		var flags []string
		want := map[string]truth.Dim3{}
		kernels := make([]string, 0, len(missing))
		for k := range missing {
			kernels = append(kernels, k)
		}
		sort.Strings(kernels) // the same command for the same figures
		for _, k := range kernels {
			if blocks := missing[k]; round < len(blocks) {
				flags = append(flags, "--block", k+"="+blocks[round].String())
				want[k] = blocks[round]
			}
		}
		if len(flags) == 0 {
			return preds, nil
		}
		more, err := runCudalint(bin, pl, flags)
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

func runCudalint(bin string, pl place, flags []string) ([]truth.Prediction, error) {
	args := append([]string{"--accesses", "--format", "json"}, pl.flags...)
	args = append(append(args, flags...), pl.files...)
	cmd := exec.Command(bin, args...)
	cmd.Dir = pl.dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	program := strings.Join(pl.files, " ")
	var doc struct {
		Accesses []truth.Prediction `json:"accesses"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		return nil, fmt.Errorf("cudalint %s %s (in %s): %v; %v\n%s", strings.Join(flags, " "), program, pl.dir, runErr, err, stderr.String())
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
		rel := p.File
		if filepath.IsAbs(rel) {
			rel, _ = filepath.Rel(pl.dir, rel)
		}
		if p.Compared() && !pl.others[filepath.Clean(rel)] {
			out = append(out, p)
		}
	}
	return out, nil
}
