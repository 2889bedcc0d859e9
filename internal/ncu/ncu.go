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
	// SASS is the number of distinct SASS instructions summed; PerSASS
	// are their own counters, in the export's order. An inlined helper's
	// line holds one instruction per call, each with its call's cost.
	SASS    int
	PerSASS []Instruction
}

// Instruction is one SASS instruction's global-memory counters.
type Instruction struct {
	Instructions, Sectors, Ideal int64
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
	fn    string
	line  int
	op    string
	space string
}

// Read parses the export. Each SASS row is counted once per function even
// when the export repeats it (it lists every row twice).
func Read(r io.Reader) ([]Line, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	var (
		file, fn string
		col      map[string]int
		line     int
		seen     = map[string]bool{}
		sums     = map[key]*Line{}
	)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch {
		case len(rec) == 2 && rec[0] == "File Path":
			file = filepath.Base(rec[1])
			continue
		case len(rec) == 2 && rec[0] == "Function Name":
			fn = rec[1]
			if i := strings.IndexByte(fn, '('); i >= 0 {
				fn = fn[:i]
			}
			continue
		case len(rec) > 0 && rec[0] == "Line No":
			col = map[string]int{}
			for i, name := range rec {
				if _, dup := col[name]; !dup {
					col[name] = i
				}
			}
			col["SASS"] = 3
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
		id := fn + "@" + rec[col["Address"]]
		if seen[id] {
			continue
		}
		seen[id] = true
		k := key{fn, line, op, space}
		l := sums[k]
		if l == nil {
			l = &Line{File: file, Function: fn, Line: line, Op: op, Space: space}
			sums[k] = l
		}
		inst := num(rec[col["Instructions Executed"]])
		l.Instructions += inst
		if ways, err := strconv.ParseFloat(rec[col["L1 Conflicts Shared N-Way"]], 64); err == nil && space == "shared" {
			l.Wavefronts += ways * float64(inst)
		}
		if c, ok := col["L1 Wavefronts Shared"]; ok && space == "shared" {
			l.SharedWavefronts += num(rec[c])
		}
		sectors, ideal := num(rec[col["L2 Theoretical Sectors Global"]]), num(rec[col["L2 Theoretical Sectors Global Ideal"]])
		l.Sectors += sectors
		l.Ideal += ideal
		l.SASS++
		l.PerSASS = append(l.PerSASS, Instruction{Instructions: inst, Sectors: sectors, Ideal: ideal})
	}
	out := make([]Line, 0, len(sums))
	for _, l := range sums {
		if l.Instructions > 0 {
			out = append(out, *l)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Function != out[j].Function {
			return out[i].Function < out[j].Function
		}
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		if out[i].Space != out[j].Space {
			return out[i].Space < out[j].Space
		}
		return out[i].Op < out[j].Op
	})
	return out, nil
}

func num(s string) int64 {
	v, _ := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
	return v
}
