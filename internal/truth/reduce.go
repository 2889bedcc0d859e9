package truth

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/cudalint/cudalint/internal/ncu"
)

// A launch is one profiled kernel launch of a run: its shape.
type launch struct {
	block, grid Dim3
}

// ReduceRun turns one profiled run of a program into rows: source is
// ncu's source page export (--page source --csv --print-source cuda,sass),
// details its details page (--page details --csv), which gives each
// profiled kernel's block and grid. The source page cannot tell two
// launches of one kernel apart, so a kernel profiled more than once in
// the run is left out and named in skipped.
func ReduceRun(program, run string, invocation int, source, details io.Reader) (rows []Row, skipped []string, err error) {
	launches, ambiguous, err := readLaunches(details)
	if err != nil {
		return nil, nil, fmt.Errorf("details: %v", err)
	}
	lines, err := ncu.Read(source)
	if err != nil {
		return nil, nil, fmt.Errorf("source: %v", err)
	}
	unnamed := map[string]bool{}
	for _, l := range lines {
		if l.Space != "global" {
			continue
		}
		k := KernelName(l.Function)
		ln, ok := launches[k]
		if !ok {
			if !ambiguous[k] && !unnamed[k] {
				unnamed[k] = true // counted, but the details name no such launch
				skipped = append(skipped, k+": no launch of this name in the details page")
			}
			continue
		}
		rows = append(rows, Row{Program: program, Run: run, Invocation: invocation, Kernel: k, Block: ln.block, Grid: ln.grid,
			File: l.File, Line: l.Line, Op: l.Op, Instructions: l.Instructions, Sectors: l.Sectors, Ideal: l.Ideal, SASS: l.SASS})
	}
	for k := range ambiguous {
		skipped = append(skipped, k+": profiled more than once")
	}
	sort.Strings(skipped)
	return rows, skipped, nil
}

// readLaunches reads the block and grid of each kernel of a details
// export, and the kernels profiled more than once.
func readLaunches(r io.Reader) (map[string]launch, map[string]bool, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	var col map[string]int
	launches, ids := map[string]launch{}, map[string]string{}
	ambiguous := map[string]bool{}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		if len(rec) > 0 && rec[0] == "ID" {
			col = map[string]int{}
			for i, name := range rec {
				col[name] = i
			}
			continue
		}
		if col == nil || len(rec) <= max(col["Kernel Name"], col["Block Size"], col["Grid Size"]) {
			continue
		}
		k := KernelName(rec[col["Kernel Name"]])
		id := rec[col["ID"]]
		if prev, seen := ids[k]; seen {
			if prev != id {
				ambiguous[k] = true
			}
			continue
		}
		ids[k] = id
		block, err := ParseDim3(rec[col["Block Size"]])
		if err != nil {
			return nil, nil, err
		}
		grid, err := ParseDim3(rec[col["Grid Size"]])
		if err != nil {
			return nil, nil, err
		}
		launches[k] = launch{block, grid}
	}
	if col == nil {
		return nil, nil, fmt.Errorf("no header")
	}
	for k := range ambiguous {
		delete(launches, k)
	}
	return launches, ambiguous, nil
}

// A runName is what measure.sh names a run's files: PROGRAM-RUN-iN, N the
// invocation profiled. The program is PROGRAM with a suffix: llm.c's
// programs are files (".cu"), a suite's are programs.txt's names ("").
type runName struct {
	program, run string
	invocation   int
}

func parseRunName(base, suffix string) (runName, bool) {
	parts := strings.Split(base, "-")
	if len(parts) < 3 || !strings.HasPrefix(parts[len(parts)-1], "i") {
		return runName{}, false
	}
	inv, err := strconv.Atoi(strings.TrimPrefix(parts[len(parts)-1], "i"))
	if err != nil || inv < 1 {
		return runName{}, false
	}
	return runName{strings.Join(parts[:len(parts)-2], "-") + suffix, parts[len(parts)-2], inv}, true
}

// ReduceArchive reduces measure.sh's raw.tar.gz (or a suite's, from
// measure-suite.sh), each run's program named PROGRAM+suffix: every run with both
// exports. A line of a kernel launched with the same block by several
// runs (the same kernel in two versions of a program, or two invocations
// with one block) is kept once, from the first run, by invocation and
// then kernel_num. notes says what was left out.
func ReduceArchive(r io.Reader, suffix string) (rows []Row, notes []string, err error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, nil, err
	}
	tr := tar.NewReader(zr)
	files := map[string][]byte{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		if h.Typeflag != tar.TypeReg || !strings.HasSuffix(h.Name, ".csv") {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(tr, 1<<30))
		if err != nil {
			return nil, nil, err
		}
		files[path.Base(h.Name)] = b
	}
	var runs []runName
	byRun := map[runName]string{}
	for name := range files {
		base, ok := strings.CutSuffix(name, ".source.csv")
		if !ok {
			continue
		}
		rn, ok := parseRunName(base, suffix)
		if !ok {
			notes = append(notes, fmt.Sprintf("%s: not a run's name", name))
			continue
		}
		if _, ok := files[base+".details.csv"]; !ok {
			notes = append(notes, fmt.Sprintf("%s: no details export", base))
			continue
		}
		runs = append(runs, rn)
		byRun[rn] = base
	}
	sort.Slice(runs, func(i, j int) bool { return runLess(runs[i], runs[j]) })
	seen := map[string]bool{}
	for _, rn := range runs {
		base := byRun[rn]
		got, skipped, err := ReduceRun(rn.program, rn.run, rn.invocation, bytes.NewReader(files[base+".source.csv"]), bytes.NewReader(files[base+".details.csv"]))
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: %v", base, err))
			continue
		}
		for _, k := range skipped {
			notes = append(notes, fmt.Sprintf("%s: %s; left out", base, k))
		}
		for _, row := range got {
			k := fmt.Sprintf("%s|%s|%s|%s|%d|%s", row.Program, row.Kernel, row.Block, row.File, row.Line, row.Op)
			if !seen[k] {
				seen[k] = true
				rows = append(rows, row)
			}
		}
	}
	sort.Strings(notes)
	return rows, notes, nil
}

func runLess(a, b runName) bool {
	if a.program != b.program {
		return a.program < b.program
	}
	if a.invocation != b.invocation {
		return a.invocation < b.invocation
	}
	x, errx := strconv.Atoi(a.run)
	y, erry := strconv.Atoi(b.run)
	if errx == nil && erry == nil {
		return x < y
	}
	return a.run < b.run
}
