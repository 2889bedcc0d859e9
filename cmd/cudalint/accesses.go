package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/driver"
	"github.com/cudalint/cudalint/parser"
)

func (o *options) execute(stdin io.Reader, stdout, stderr io.Writer) int {
	if o.cpuprofile != "" {
		f, err := driver.CreateOutput(o.cpuprofile, o.fixRoot())
		if err != nil {
			reportError(stderr, err)
			return exitError
		}
		defer f.Abort()
		if err := pprof.StartCPUProfile(f); err != nil {
			reportError(stderr, err)
			return exitError
		}
		defer func() {
			pprof.StopCPUProfile()
			if err := f.Commit(); err != nil {
				reportError(stderr, err)
			}
		}()
	}
	if o.memprofile != "" {
		// Opened first, so that a path that may not be written fails the
		// run before it starts.
		f, err := driver.CreateOutput(o.memprofile, o.fixRoot())
		if err != nil {
			reportError(stderr, err)
			return exitError
		}
		defer writeHeapProfile(f, stderr)
	}
	in, err := o.gatherInputs(stdin, stderr)
	if err != nil {
		reportError(stderr, err)
		return exitError
	}
	defer governMemory(in.size())()
	return o.writeReport(stdout, stderr, func(w io.Writer, color bool) int {
		status := o.report(w, stderr, in, color)
		if len(in.files) == 0 {
			reportError(stderr, errNothingToAnalyze)
			status = exitError
		}
		return status
	})
}

// writeReport runs write over --output or stdout, buffered, and fails the
// run when the report cannot be written whole.
func (o *options) writeReport(stdout, stderr io.Writer, write func(w io.Writer, color bool) int) int {
	if o.output == "" {
		color := o.useColor(stdout)
		return buffered(stdout, stderr, func(w io.Writer) int { return write(w, color) })
	}
	// Written by the rule for outputs: never through a link, whole or
	// not at all.
	f, err := driver.CreateOutput(o.output, o.fixRoot())
	if err != nil {
		reportError(stderr, err)
		return exitError
	}
	ew := &errWriter{w: f}
	status := buffered(ew, stderr, func(w io.Writer) int { return write(w, o.useColor(f.File)) })
	if ew.err != nil {
		f.Abort()
		return exitError
	}
	if err := f.Commit(); err != nil {
		reportError(stderr, err)
		status = exitError
	}
	return status
}

// errWriter keeps the first error of its writer.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

// report analyzes the inputs and writes what the flags ask for.
func (o *options) report(out, stderr io.Writer, in *inputs, color bool) int {
	if !o.accesses && !o.stats {
		return o.findings(out, stderr, in, color)
	}
	// The driver loads, under the configuration of each file's folder,
	// exactly as for findings.
	opts := o.driverOptions()
	opts.Found, opts.FindErrors, opts.ReadFile, opts.ModelOnly = in.files, in.errs, in.readFile, true
	rep := driver.Run(opts)
	status := exitOK
	for _, err := range rep.Errors {
		reportError(stderr, err)
		status = exitError
	}
	printWarnings(stderr, rep.Warnings)
	if rep.Result == nil { // a configuration mistake stopped the run
		return exitError
	}
	res := reportedPart(rep)
	for _, ie := range res.InternalErrors {
		reportError(stderr, fmt.Errorf("%s: %v (a bug in cudalint: please report it)", ie.Pos, ie))
		status = exitError
	}
	var err error
	switch {
	case o.stats:
		s := collectStats(in, res)
		s.HostFiles, s.HostProblems = len(rep.HostFiles), rep.HostProblems
		s.FilesRead = countFiles(rep.Fset, rep.Reported)
		err = writeStats(out, s)
	case o.format == "json":
		err = writeAccessesJSON(out, res)
	default:
		err = writeAccessesText(out, res)
	}
	if err != nil {
		reportError(stderr, err)
		return exitError
	}
	return status
}

// accessJSON is one row of the access table.
type accessJSON struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Kernel string `json:"kernel"`
	// TemplateArgs are the instance's template arguments, in the
	// kernel's order ("int", "256"; "?" where the launch gives none).
	TemplateArgs []string `json:"templateArgs,omitempty"`
	Op           string   `json:"op"`
	Space        string   `json:"space"` // "global" or "shared"
	Expr         string   `json:"expr"`
	ElementBytes int64    `json:"elementBytes"`
	Instructions int      `json:"instructions"`
	// InstructionBytes is the per-lane width of the instruction the model
	// predicts nvcc emits (4 for an LDS, 16 for an LDS.128): wider than
	// the element where it merges adjacent accesses of a thread, whose
	// figures are then the merged instruction's.
	InstructionBytes int64 `json:"instructionBytes"`
	// MergedWith are the other source accesses the instruction serves;
	// MergedInto, on an access that issues no instruction of its own, the
	// access whose instruction does (and whose figures it shows).
	MergedWith []mergedJSON `json:"mergedWith,omitempty"`
	MergedInto *mergedJSON  `json:"mergedInto,omitempty"`
	// Shared rows give wavefronts (Nsight's L1 Wavefronts Shared and its
	// Ideal, per instruction) instead of sectors.
	WavefrontsPerRequest      *float64 `json:"wavefrontsPerRequest,omitempty"`
	IdealWavefrontsPerRequest *float64 `json:"idealWavefrontsPerRequest,omitempty"`
	SectorsPerRequest         *float64 `json:"sectorsPerRequest"`
	SectorsRange              *[2]int  `json:"sectorsRange,omitempty"`
	IdealSectorsPerRequest    *float64 `json:"idealSectorsPerRequest"`
	NcuIdealPerRequest        *float64 `json:"ncuIdealSectorsPerRequest"`
	Efficiency                *float64 `json:"efficiency"`
	// The figures per instruction issued, which Nsight Compute reports:
	// the per-request ones above, except where nvcc predicates the access
	// (Predicated: every warp reaching its guard issues the instruction,
	// those with no lane on at no cost), where they are lower. Findings
	// grade the per-request cost, which is what a request that runs pays.
	SectorsPerInstruction         *float64 `json:"sectorsPerInstruction,omitempty"`
	NcuIdealPerInstruction        *float64 `json:"ncuIdealSectorsPerInstruction,omitempty"`
	WavefrontsPerInstruction      *float64 `json:"wavefrontsPerInstruction,omitempty"`
	IdealWavefrontsPerInstruction *float64 `json:"idealWavefrontsPerInstruction,omitempty"`
	Predicated                    bool     `json:"predicated,omitempty"`
	// Hoisted: nvcc loads the value once before the innermost loop
	// rather than once per iteration (Nsight may show it on another line).
	Hoisted bool `json:"hoisted,omitempty"`
	// Promoted: nvcc keeps the location in a register across the
	// innermost loop, loading it before and storing it after, once each.
	Promoted        bool       `json:"promoted,omitempty"`
	LaneStrideBytes *int64     `json:"laneStrideBytes"`
	Block           [3]int64   `json:"block"`
	BlockSource     string     `json:"blockSource"`
	BlockFrom       string     `json:"blockFrom,omitempty"`
	Grid            *[3]int64  `json:"grid"`
	Via             []callJSON `json:"via,omitempty"`
	CallSite        *placeJSON `json:"callSite,omitempty"`
	Exact           bool       `json:"exact"`
	Requests        int        `json:"requestsModelled"`
	Assumptions     []string   `json:"assumptions,omitempty"`
	Unknown         string     `json:"unknownReason,omitempty"`
	// Unrolled holds the cost of each copy of the body of the loops the
	// compiler unrolls around the access (one instruction each), whose
	// average the figures above are.
	Unrolled *unrolledJSON `json:"unrolled,omitempty"`
}

type unrolledJSON struct {
	Note   string             `json:"note,omitempty"` // set when the copies cost differently
	Loops  []unrolledLoopJSON `json:"loops"`
	Copies []unrolledCopyJSON `json:"copies"`
}

type unrolledLoopJSON struct {
	Line   int    `json:"line"`
	Var    string `json:"var,omitempty"`
	Trip   int64  `json:"trip"`
	Copies int64  `json:"copies"`
}

type unrolledCopyJSON struct {
	First                     []int64  `json:"firstIterations"`
	InstructionBytes          int64    `json:"instructionBytes,omitempty"` // where copies merge
	WavefrontsPerRequest      *float64 `json:"wavefrontsPerRequest,omitempty"`
	IdealWavefrontsPerRequest *float64 `json:"idealWavefrontsPerRequest,omitempty"`
	SectorsPerRequest         *float64 `json:"sectorsPerRequest"`
	IdealSectorsPerRequest    *float64 `json:"idealSectorsPerRequest"`
	NcuIdealPerRequest        *float64 `json:"ncuIdealSectorsPerRequest"`
	NoLane                    bool     `json:"noLane,omitempty"`
}

// mergedJSON is a source access that shares an instruction with a row's.
type mergedJSON struct {
	Expr string `json:"expr"`
	placeJSON
}

func unrolledRow(p *analyzer.Prediction) *unrolledJSON {
	u := p.Unrolled
	if u == nil {
		return nil
	}
	unit := "sectors"
	if p.Access.Space == interp.Shared {
		unit = "wavefronts"
	}
	out := &unrolledJSON{Note: message(u.Describe(unit), p.Access.Expr), Loops: []unrolledLoopJSON{}, Copies: []unrolledCopyJSON{}}
	for _, l := range u.Loops {
		out.Loops = append(out.Loops, unrolledLoopJSON{Line: l.Line, Var: escape(l.Var), Trip: l.Trip, Copies: l.Copies})
	}
	for _, c := range u.Copies {
		row := unrolledCopyJSON{First: c.First, NoLane: c.NoLane, InstructionBytes: c.Bytes}
		switch {
		case c.Known && p.Access.Space == interp.Shared:
			w, i := round3(c.Sectors), round3(c.Ideal)
			row.WavefrontsPerRequest, row.IdealWavefrontsPerRequest = &w, &i
		case c.Known:
			s, i, n := round3(c.Sectors), round3(c.Ideal), round3(c.IdealNcu)
			row.SectorsPerRequest, row.IdealSectorsPerRequest, row.NcuIdealPerRequest = &s, &i, &n
		}
		out.Copies = append(out.Copies, row)
	}
	return out
}

// callJSON is one inlined call on the way from the kernel's body to an
// access.
type callJSON struct {
	Function string `json:"function"`
	Call     string `json:"call"`
	placeJSON
}

type placeJSON struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

func placeOf(p parser.Pos) placeJSON {
	return placeJSON{File: p.File, Line: int(p.Line), Column: int(p.Col)}
}

type noteJSON struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// noteJSONOf is a parser note as JSON: the message escaped and bounded,
// the file name as it is (encoding/json escapes its control characters).
func noteJSONOf(n parser.Note) noteJSON {
	return noteJSON{File: n.Pos.File, Line: int(n.Pos.Line), Column: int(n.Pos.Col), Message: message(n.Msg)}
}

func accessRow(p *analyzer.Prediction) accessJSON {
	a, cfg := p.Access, p.Config
	row := accessJSON{
		File: a.Pos.File, Line: int(a.Pos.Line), Column: int(a.Pos.Col), Kernel: escape(a.Kernel.Name), TemplateArgs: p.Config.TemplateArgs, Op: a.Op.String(),
		Space: a.Space.String(), Expr: excerpt(a.Expr), ElementBytes: a.Type.Size, Instructions: p.Pieces,
		InstructionBytes: instructionBytes(p), LaneStrideBytes: p.LaneStride,
		Block: cfg.Block, BlockSource: cfg.BlockSource.String(), Exact: p.Exact, Requests: p.Requests,
	}
	if m := p.Merged; m != nil {
		for _, q := range m.With {
			row.MergedWith = append(row.MergedWith, mergedOf(q))
		}
		if m.Into != nil {
			into := mergedOf(m.Into)
			row.MergedInto = &into
		}
	}
	for _, c := range a.Via {
		name := "lambda"
		if c.Func != nil && c.Func.Name != "" {
			name = c.Func.Name
		}
		row.Via = append(row.Via, callJSON{Function: escape(name), Call: excerpt(c.Text), placeJSON: placeOf(c.Pos)})
	}
	if a.InHelper() {
		pos, _ := a.Site()
		site := placeOf(pos)
		row.CallSite = &site
	}
	for _, s := range p.Assumptions {
		row.Assumptions = append(row.Assumptions, message(s.String(), a.Expr))
	}
	if cfg.At.IsValid() {
		row.BlockFrom = escape(cfg.At.String())
	}
	row.Unrolled = unrolledRow(p)
	if cfg.GridKnown == [3]bool{true, true, true} {
		g := [3]int64(cfg.Grid)
		row.Grid = &g
	}
	row.Hoisted, row.Promoted = p.Hoisted, p.Promoted
	switch {
	case p.Known && a.Space == interp.Shared:
		w, i, e := round3(p.Sectors), round3(p.Ideal), round3(p.Efficiency())
		row.WavefrontsPerRequest, row.IdealWavefrontsPerRequest, row.Efficiency = &w, &i, &e
		wi, ii := w, i
		if pi := p.PerInstruction; pi != nil {
			wi, ii, row.Predicated = round3(pi.Sectors), round3(pi.Ideal), true
		}
		row.WavefrontsPerInstruction, row.IdealWavefrontsPerInstruction = &wi, &ii
	case p.Known:
		s, i, n, e := round3(p.Sectors), round3(p.Ideal), round3(p.IdealNcu), round3(p.Efficiency())
		row.SectorsPerRequest, row.IdealSectorsPerRequest, row.NcuIdealPerRequest, row.Efficiency = &s, &i, &n, &e
		si, ni := s, n
		if pi := p.PerInstruction; pi != nil {
			si, ni, row.Predicated = round3(pi.Sectors), round3(pi.IdealNcu), true
		}
		row.SectorsPerInstruction, row.NcuIdealPerInstruction = &si, &ni
	case a.Space == interp.Shared:
		row.Unknown = message(p.Reason(), a.Expr)
	default:
		row.SectorsRange = &[2]int{1, 32}
		row.Unknown = message(p.Reason(), a.Expr)
	}
	return row
}

// instructionBytes is the per-lane width of the instruction the model
// prices: the merged one's, or the widest piece the access splits into.
func instructionBytes(p *analyzer.Prediction) int64 {
	if p.Merged != nil {
		return p.Merged.Bytes
	}
	var w int64
	for _, pc := range ctype.Pieces(p.Access.Type) {
		w = max(w, pc[1])
	}
	return w
}

func mergedOf(a *analyzer.Access) mergedJSON {
	return mergedJSON{Expr: excerpt(a.Expr), placeJSON: placeOf(a.Pos)}
}

func round3(x float64) float64 { return float64(int64(x*1000+0.5)) / 1000 }

// trim3 prints x to three decimals at most: 0.125, 1.
func trim3(x float64) string { return strconv.FormatFloat(round3(x), 'f', -1, 64) }

func writeAccessesJSON(w io.Writer, res *analyzer.Result) error {
	out := struct {
		Accesses []accessJSON `json:"accesses"`
		Notes    []noteJSON   `json:"notes"`
	}{Accesses: []accessJSON{}, Notes: []noteJSON{}}
	for _, p := range tablePredictions(res) {
		out.Accesses = append(out.Accesses, accessRow(p))
	}
	for _, n := range allNotes(res) {
		out.Notes = append(out.Notes, noteJSONOf(n))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // C++ is full of < and &: print them as written
	return enc.Encode(out)
}

// tablePredictions are the rows of the access table: global and shared
// accesses.
func tablePredictions(res *analyzer.Result) []*analyzer.Prediction {
	var out []*analyzer.Prediction
	for _, p := range res.Predictions {
		if p.Access.Space == interp.Global || p.Access.Space == interp.Shared {
			out = append(out, p)
		}
	}
	return out
}

// globalPredictions are the global accesses, which --stats counts.
func globalPredictions(res *analyzer.Result) []*analyzer.Prediction {
	var out []*analyzer.Prediction
	for _, p := range res.Predictions {
		if p.Access.Space == interp.Global {
			out = append(out, p)
		}
	}
	return out
}

// allNotes lists the notes of a run once each (a header read by several
// files would repeat its notes), sorted by position.
func allNotes(res *analyzer.Result) []parser.Note {
	var out []parser.Note
	seen := map[parser.Note]bool{}
	add := func(ns []parser.Note) {
		for _, n := range ns {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	for _, f := range res.Program.Files {
		add(f.Notes)
	}
	for _, k := range res.Kernels {
		add(k.Notes)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Pos, out[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Offset < b.Offset
	})
	return out
}

func writeAccessesText(w io.Writer, res *analyzer.Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "POSITION\tKERNEL\tOP\tACCESS\tSECTORS/REQ\tIDEAL\tEFFICIENCY\tLANE STRIDE\tBLOCK")
	for _, p := range tablePredictions(res) {
		r := accessRow(p)
		sectors, ideal, eff := "unknown (1-32)", "-", "-"
		unit := ""
		if p.Access.Space == interp.Shared {
			sectors, unit = "unknown", " wavefronts"
		}
		if p.Known {
			sectors = fmt.Sprintf("%.2f%s", p.Sectors, unit)
			ideal = fmt.Sprintf("%.2f%s", p.Ideal, unit)
			eff = fmt.Sprintf("%.0f%%", 100*p.Efficiency())
		}
		stride := "-"
		if p.LaneStride != nil {
			stride = fmt.Sprintf("%d B", *p.LaneStride)
		}
		what := r.Expr
		if r.CallSite != nil { // the access of a helper, through one call in the kernel
			what += fmt.Sprintf(" via %s:%d", escape(filepath.Base(r.CallSite.File)), r.CallSite.Line)
		}
		if m := p.Merged; m != nil {
			what += mergeNote(m)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", lineStart(fmt.Sprintf("%s:%d:%d", r.File, r.Line, r.Column)),
			r.Kernel, r.Op, what, sectors, ideal, eff, stride, escape(p.Config.Describe()))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// Unknowns per access; assumptions once per kernel and launch.
	type kernelCfg struct {
		kernel string
		cfg    *analyzer.LaunchConfig
	}
	var order []kernelCfg
	assumed := map[kernelCfg][]string{}
	for _, p := range tablePredictions(res) {
		if !p.Known {
			fmt.Fprintf(w, "%s: %s: unknown: %s\n", lineStart(p.Access.Pos.String()), excerpt(p.Access.Expr), message(p.Reason(), p.Access.Expr))
		}
		if p.Unrolled != nil && p.Unrolled.Differ() {
			unit := "sectors"
			if p.Access.Space == interp.Shared {
				unit = "wavefronts"
			}
			fmt.Fprintf(w, "%s: %s: unrolled: %s\n", lineStart(p.Access.Pos.String()), excerpt(p.Access.Expr), message(p.Unrolled.Describe(unit), p.Access.Expr))
		}
		if pi := p.PerInstruction; p.Known && pi != nil {
			unit := "sectors"
			if p.Access.Space == interp.Shared {
				unit = "wavefronts"
			}
			fmt.Fprintf(w, "%s: %s: predicated: every warp reaching its if issues the instruction: %s %s per instruction issued (what Nsight Compute counts), %s per request that runs\n",
				lineStart(p.Access.Pos.String()), excerpt(p.Access.Expr), trim3(pi.Sectors), unit, trim3(p.Sectors))
		}
		k := kernelCfg{p.Access.Kernel.Name, p.Config}
		for _, a := range p.Assumptions {
			if _, seen := assumed[k]; !seen {
				order = append(order, k)
				assumed[k] = nil
			}
			if !slices.Contains(assumed[k], a.String()) {
				assumed[k] = append(assumed[k], a.String())
			}
		}
	}
	for _, k := range order {
		fmt.Fprintf(w, "%s (%s): assuming %s\n", lineStart(k.kernel), escape(k.cfg.Describe()), message(strings.Join(assumed[k], "; ")))
	}
	for _, n := range allNotes(res) {
		fmt.Fprintf(w, "%s: note: %s\n", lineStart(n.Pos.String()), message(n.Msg))
	}
	return nil
}

// mergeNote says, after a row's access, what instruction the model
// predicts nvcc makes of it with its neighbours.
func mergeNote(m *analyzer.Merged) string {
	switch {
	case m.Into != nil:
		return fmt.Sprintf(" (merged into line %d's %d-byte instruction)", m.Into.Pos.Line, m.Bytes)
	case len(m.With) > 0:
		return fmt.Sprintf(" (one %d-byte instruction with %d more)", m.Bytes, len(m.With))
	}
	return fmt.Sprintf(" (copies merged into %d-byte instructions)", m.Bytes)
}

// writeHeapProfile writes the allocations of the run (all of them, by
// site: the profile's alloc_space) and what was live at its end. The
// profile is as of the last collection, and the runtime publishes a
// cycle's frees a cycle or two late: without a collection here, scratch
// the run dropped at its end shows as live.
func writeHeapProfile(f *driver.Output, stderr io.Writer) {
	runtime.GC()
	err := pprof.Lookup("allocs").WriteTo(f, 0)
	if err == nil {
		err = f.Commit()
	}
	f.Abort()
	if err != nil {
		fmt.Fprintf(stderr, "cudalint: %v\n", err)
	}
}

// reportedPart is the analysis of the files the user named: the files of
// their project read for context (launches, includers) are left out of
// the access table and the statistics, as they are out of the findings.
// An access belongs to the kernel that makes it: one in a helper of an
// included header (llm.c's load128 in common.h) is reported with a named
// file's kernel, or that kernel would show no access at all.
func reportedPart(rep *driver.Report) *analyzer.Result {
	res := rep.Result.Analysis
	if rep.Reported == nil {
		return res
	}
	part := *res
	part.Kernels, part.Predictions, part.InternalErrors = nil, nil, nil
	for _, k := range res.Kernels {
		if rep.Reported(k.Func.P.File) {
			part.Kernels = append(part.Kernels, k)
		}
	}
	for _, p := range res.Predictions {
		if rep.Reported(p.Access.Pos.File) || p.Access.Kernel != nil && rep.Reported(p.Access.Kernel.P.File) {
			part.Predictions = append(part.Predictions, p)
		}
	}
	for _, ie := range res.InternalErrors {
		if rep.Reported(ie.Pos.File) {
			part.InternalErrors = append(part.InternalErrors, ie)
		}
	}
	return &part
}
