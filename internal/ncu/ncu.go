// Package ncu reads Nsight Compute's source-page CSV export
// (ncu -i REPORT --page source --csv --print-source cuda,sass) and sums
// the per-SASS global-memory counters for each source line.
package ncu

import (
	"encoding/csv"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Line is the measured cost of the global loads or stores of one source line.
type Line struct {
	File     string // base name of the source file
	Function string // the kernel, without its parameter list
	Line     int
	Op       string // "load" or "store"
	Space    string // "global" or "shared"
	// Instructions is the number of warp-level instructions executed;
	// Sectors and Ideal are L2 Theoretical Sectors Global and its Ideal.
	Instructions, Sectors, Ideal int64
	// Wavefronts sums L1 Conflicts Shared N-Way times Instructions
	// Executed over the line's shared-memory instructions.
	Wavefronts float64
	// SharedWavefronts is the line's L1 Wavefronts Shared, when the export
	// has the column: a total, counted whatever the instruction's
	// predicate (where N-Way, an integer per executed instruction, reads 0
	// for a predicated instruction most warps run with no lane on).
	SharedWavefronts int64
	// SharedIdeal is the line's L1 Wavefronts Shared Ideal, when the export
	// has the column (measure7.sh asks for it).
	SharedIdeal int64
	// SASS is the number of distinct SASS instructions summed; PerSASS
	// are their own counters, in address order. An inlined helper's line
	// holds one instruction per call, each with its call's cost.
	SASS    int
	PerSASS []Instruction
}

// Instruction is one SASS instruction's memory counters: global sectors,
// shared wavefronts and their ideals, and its per-lane width in bits
// (Access Size: 32 for an LDS, 128 for an LDS.128).
type Instruction struct {
	Instructions, Sectors, Ideal int64
	Wavefronts, WavefrontsIdeal  int64
	Bits                         int64
}

// SectorsPerRequest is the instruction's measured average.
func (i Instruction) SectorsPerRequest() float64 {
	return float64(i.Sectors) / float64(i.Instructions)
}

// SectorsPerRequest is the measured average.
func (l Line) SectorsPerRequest() float64 { return float64(l.Sectors) / float64(l.Instructions) }

// ConflictWays is the measured N-way bank conflict per shared request.
func (l Line) ConflictWays() float64 { return l.Wavefronts / float64(l.Instructions) }

// IdealPerRequest is the measured ideal average.
func (l Line) IdealPerRequest() float64 { return float64(l.Ideal) / float64(l.Instructions) }

type key struct {
	file  string
	fn    string
	line  int
	op    string
	space string
}

// sass is one SASS instruction's counters, attributed to its source line.
type sass struct {
	key
	inst, sectors, ideal, wavefronts int64
	wavefrontsIdeal, bits            int64
	ways                             float64
	hasWays                          bool
}

// Read parses the export. Each SASS row is counted once per function:
// the export lists every row twice, and a report of several kernels may
// list a function that was not profiled in it again with no counts, so
// of the rows of one instruction the one executed most is kept.
func Read(r io.Reader) ([]Line, error) {
	rows, err := readSASS(r)
	if err != nil {
		return nil, err
	}
	sums := map[key]*Line{}
	for _, id := range sortedIDs(rows) {
		s := rows[id]
		l := sums[s.key]
		if l == nil {
			l = &Line{File: s.file, Function: s.fn, Line: s.line, Op: s.op, Space: s.space}
			sums[s.key] = l
		}
		l.Instructions += s.inst
		if s.hasWays {
			l.Wavefronts += s.ways * float64(s.inst)
		}
		l.SharedWavefronts += s.wavefronts
		l.SharedIdeal += s.wavefrontsIdeal
		l.Sectors += s.sectors
		l.Ideal += s.ideal
		l.SASS++
		l.PerSASS = append(l.PerSASS, Instruction{Instructions: s.inst, Sectors: s.sectors, Ideal: s.ideal,
			Wavefronts: s.wavefronts, WavefrontsIdeal: s.wavefrontsIdeal, Bits: s.bits})
	}
	out := make([]Line, 0, len(sums))
	for _, l := range sums {
		if l.Instructions > 0 {
			out = append(out, *l)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Function != b.Function {
			return a.Function < b.Function
		}
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Space != b.Space {
			return a.Space < b.Space
		}
		return a.Op < b.Op
	})
	return out, nil
}

// readSASS returns the global and shared memory instructions of the
// export by function and address.
func readSASS(r io.Reader) (map[string]*sass, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	var (
		file, fn string
		col      map[string]int
		line     int
		rows     = map[string]*sass{}
	)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, err
		}
		switch {
		case len(rec) == 2 && rec[0] == "File Path":
			file = filepath.Base(rec[1])
			continue
		case len(rec) == 2 && rec[0] == "Function Name":
			fn = withoutParams(rec[1])
			continue
		case len(rec) > 0 && rec[0] == "Line No":
			col = map[string]int{}
			for i, name := range rec {
				if _, dup := col[name]; !dup {
					col[name] = i
				}
			}
			continue
		}
		if col == nil || len(rec) < len(col) {
			continue
		}
		if rec[0] != "" {
			if line, err = strconv.Atoi(rec[0]); err != nil {
				return nil, fmt.Errorf("line number %q: %v", rec[0], err)
			}
			continue
		}
		space := strings.ToLower(rec[col["Address Space"]])
		if space != "global" && space != "shared" {
			continue
		}
		op := strings.ToLower(rec[col["Access Operation"]])
		if op != "load" && op != "store" {
			continue
		}
		s := &sass{key: key{file, fn, line, op, space},
			inst:    num(rec[col["Instructions Executed"]]),
			sectors: num(rec[col["L2 Theoretical Sectors Global"]]),
			ideal:   num(rec[col["L2 Theoretical Sectors Global Ideal"]]),
		}
		if space == "shared" {
			if ways, err := strconv.ParseFloat(rec[col["L1 Conflicts Shared N-Way"]], 64); err == nil {
				s.ways, s.hasWays = ways, true
			}
			if c, ok := col["L1 Wavefronts Shared"]; ok {
				s.wavefronts = num(rec[c])
			}
			if c, ok := col["L1 Wavefronts Shared Ideal"]; ok {
				s.wavefrontsIdeal = num(rec[c])
			}
		}
		if c, ok := col["Access Size"]; ok {
			s.bits = num(rec[c])
		}
		id := fn + "@" + rec[col["Address"]]
		if old, seen := rows[id]; !seen || s.inst > old.inst {
			rows[id] = s
		}
	}
}

func sortedIDs(rows map[string]*sass) []string {
	ids := make([]string, 0, len(rows))
	for id := range rows {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

func num(s string) int64 {
	v, _ := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
	return v
}

// withoutParams cuts a function's parameter list off its name: at the
// first parenthesis outside template brackets, since Nsight writes a value
// template argument with a cast (k<(int)4>(const float *)).
func withoutParams(fn string) string {
	depth := 0
	for i, c := range fn {
		switch c {
		case '<':
			depth++
		case '>':
			depth--
		case '(':
			if depth <= 0 {
				return fn[:i]
			}
		}
	}
	return fn
}
