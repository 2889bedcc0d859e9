package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/lex"
	"github.com/cudalint/cudalint/symbolic"
)

// stats is what --stats reports about a run: how much of the code the
// analysis reached.
type stats struct {
	Files, Bytes int // the .cu and .cuh files analyzed
	// FilesRead counts every file read whose findings are reported,
	// headers included: the summary line's count.
	FilesRead          int
	KernelsInSource    int // __global__ definitions in the raw text
	KernelsFound       int // kernels the parser yielded
	KernelsFull        int // kernels with no skipped statement and no call left unfollowed
	Accesses, Modelled int
	NoLane             int            // accesses no lane performs under their launch
	Unknown            map[string]int // by unknownLabel of the cause
	Notes              map[string]int
	SkippedInKernels   int
	// NoAccess counts the kernels with no global or shared access in any
	// instance; Silent names those of them fully analyzed with no note,
	// which a reader must check: a kernel that only computes, or one the
	// model lost without a word.
	NoAccess int
	Silent   []string
	// Partly lists the kernels not fully analyzed, each with its causes
	// counted; NotFound the __global__ definitions in the source that
	// are no kernel found, each with its cause.
	Partly   []partialKernel
	NotFound []string
	// NotFoundCauses counts NotFound by cause.
	NotFoundCauses map[string]int
	// HostFiles counts the C and C++ files read for launch values, and
	// HostProblems says what in them could not be used.
	HostFiles    int
	HostProblems []string
}

// partialKernel is a kernel not fully analyzed and why: the statements
// its body skipped and the notes its interpretation made, by cause.
type partialKernel struct {
	Name   string
	Causes map[string]int
}

// maxPartlyListed bounds the kernels --stats lists as partly analyzed,
// and maxCausesListed the causes it gives each.
const (
	maxPartlyListed = 20
	maxCausesListed = 3
)

// maxSilentListed bounds the kernels --stats names.
const maxSilentListed = 8

// unknownLabels name the causes of unknown predictions, for grouping:
// one line per cause, whatever the variable or expression.
var unknownLabels = map[symbolic.UnknownCause]string{
	symbolic.CauseLoadedValue:    "the address depends on a loaded value",
	symbolic.CauseLoadedMember:   "the address depends on a member of a value loaded from memory",
	symbolic.CauseLoopCarried:    "the address depends on a variable that changes across loop iterations in a way not modelled",
	symbolic.CauseCallResult:     "the address depends on the result of a call cudalint does not follow",
	symbolic.CauseUnresolvedType: "the address depends on a value of a type cudalint cannot resolve",
	symbolic.CauseFloatValue:     "the address depends on a floating-point value",
	symbolic.CauseUninitialised:  "the address depends on a variable not assigned on every path",
	symbolic.CauseTooComplex:     "the address depends on an expression too complex to model",
	symbolic.CauseNotUnderstood:  "the address depends on a variable a statement not understood may change",
	symbolic.CauseBranchMixed:    "the address depends on a variable that holds different kinds of values on two branches",
	symbolic.CauseNotModelled:    "the address depends on an expression cudalint does not model",
	symbolic.CauseUnresolvedName: "the address depends on a name cudalint cannot resolve",
	symbolic.CauseNotEvaluable:   "the address cannot be evaluated for every lane",
	symbolic.CauseCapturedWrite:  "the address depends on a variable a lambda passed to a call may assign",
}

func unknownLabel(c symbolic.UnknownCause) string {
	if l, ok := unknownLabels[c]; ok {
		return l
	}
	return c.String()
}

// noteLabels name the kinds of notes, for grouping: one line per kind.
var noteLabels = map[lex.NoteKind]string{
	lex.NoteRemark:                  "other notes",
	lex.NoteIncludeOutsideRoot:      "#include … not read",
	lex.NoteIncludeRefused:          "#include … not read",
	lex.NoteUnterminatedComment:     "unterminated comment",
	lex.NoteUnterminatedString:      "unterminated string literal",
	lex.NoteUnterminatedChar:        "unterminated character literal",
	lex.NoteTokenLimit:              "this file and its includes produce more than N tokens; the rest is not read",
	lex.NoteExpansionLimit:          "macro expansion produced more than N tokens; expansion stopped",
	lex.NoteUnterminatedIf:          "unterminated #if",
	lex.NoteElseAfterElse:           "#else after #else",
	lex.NoteErrorDirective:          "#error",
	lex.NoteIfNotEvaluable:          "cannot evaluate #if expression …; taken as false",
	lex.NoteUnterminatedMacroArgs:   "unterminated argument list invoking macro …",
	lex.NoteDefineWithoutName:       "#define needs a macro name",
	lex.NoteBadMacroParam:           "unexpected … in macro parameters",
	lex.NoteUnterminatedMacroParams: "unterminated macro parameter list",
	lex.NoteIncludeDepth:            "#include nested more than N deep …; … skipped",
	lex.NoteIncludeCount:            "this file expands more than N includes; no more are read",
	lex.NoteIncludeBytes:            "this file includes more than its budget of included bytes; no more is read",
	lex.NoteUnmatched:               "unmatched …",
	lex.NoteDeclarationEnd:          "unexpected end of input in declaration",
	lex.NoteNamelessFunction:        "function definition without a name; skipped",
	lex.NoteNestingLimit:            "blocks nested more than N deep; skipped",
	lex.NoteStatement:               "statement not understood …; skipped",
	lex.NoteCondition:               "condition not understood",
	lex.NoteForHeader:               "for header not understood; loop variables are unknown",
	lex.NoteForInit:                 "for initialiser not understood",
	lex.NoteForCondition:            "for condition not understood",
	lex.NoteForStep:                 "for step not understood",
	lex.NoteCaseValue:               "case value not understood",
	lex.NoteFunctionTooLarge:        "function too large to model fully; the rest is skipped",
	lex.NoteAccessLimit:             "more than N memory accesses in one kernel; the rest are not modelled",
}

// subjectLabels are the lines of the kinds that name what the note is
// about (its Subject): the function whose parameter, or whose call.
var subjectLabels = map[lex.NoteKind]string{
	lex.NoteParameter:           "parameter of %s not understood",
	lex.NoteStructMember:        "struct %s: member not understood",
	lex.NoteMemberInitializer:   "initializer of member %s not understood",
	lex.NoteWithoutIf:           "#%s without #if",
	lex.NoteLambdaNotFollowed:   "a lambda is passed to %s, which cudalint cannot find; its body is not followed",
	lex.NoteCallThroughValue:    "call through %s, which holds no function or lambda cudalint knows; not followed",
	lex.NoteGlobalPointerPassed: "call to %s, which cudalint does not follow, with a pointer to global memory …: the accesses it makes there are not modelled",
	lex.NoteCallDepth:           "calls nested more than N deep; %s not followed",
	lex.NotePackNotFollowed:     "parameter pack %s not followed",
	lex.NoteNoMemberFunction:    "%s: no member function with those arguments; the call is not followed",
	lex.NoteUnboundTemplate:     "%s: a function template parameter no launch binds; the call is not followed",
	lex.NoteInvalidLaunch:       "a launch of %s that CUDA would refuse (a block or grid past its limits); not analyzed",
	lex.NoteLaunchNotUnderstood: "a launch of %s that cudalint cannot read; its kernel is analyzed without it",
	lex.NoteIncludeNotFound:     "cannot open include file %s (give its folder with -I DIR or include-dirs:)",
	lex.NoteArchBranch:          "code for another GPU architecture left out: __CUDA_ARCH__ is %s (give -D __CUDA_ARCH__=N)",
	lex.NoteNotAPointer:         "an access through %s, which cudalint does not know as a pointer; not modelled",
}

// noteLabel is the --stats line a note is counted under: its kind's, with
// its subject where the kind names one.
func noteLabel(n parser.Note) string {
	if l, ok := subjectLabels[n.Kind]; ok {
		return fmt.Sprintf(l, n.Subject)
	}
	if l, ok := noteLabels[n.Kind]; ok {
		return l
	}
	return noteLabels[lex.NoteRemark]
}

func collectStats(in *inputs, res *analyzer.Result) *stats {
	s := &stats{Unknown: map[string]int{}, Notes: map[string]int{}, NotFoundCauses: map[string]int{}}
	var defs []kernelDef
	for _, path := range in.files {
		src, err := in.readFile(path)
		if err != nil {
			continue
		}
		s.Files++
		s.Bytes += len(src)
		s.KernelsInSource += lex.CountKernelDefinitions(src)
		defs = append(defs, kernelDefinitions(path, src)...)
	}
	counted := map[parser.Pos]bool{} // a template kernel is one kernel, however many instantiations
	accessed, noted := map[parser.Pos]bool{}, map[parser.Pos]bool{}
	for _, k := range res.Kernels {
		accessed[k.Func.P] = accessed[k.Func.P] || len(k.Accesses) > 0
		noted[k.Func.P] = noted[k.Func.P] || len(k.Notes) > 0 || k.Unresolved > 0
	}
	for _, k := range res.Kernels {
		if counted[k.Func.P] {
			continue
		}
		counted[k.Func.P] = true
		s.KernelsFound++
		bad := countBad(k.Func.Body)
		s.SkippedInKernels += bad
		if bad == 0 && k.Unresolved == 0 {
			s.KernelsFull++
		} else {
			s.Partly = append(s.Partly, partialKernel{Name: kernelPlace(k.Func), Causes: kernelCauses(k.Func, res)})
		}
		if !accessed[k.Func.P] {
			s.NoAccess++
			if bad == 0 && !noted[k.Func.P] {
				s.Silent = append(s.Silent, fmt.Sprintf("%s (%s:%d)", k.Func.Name, k.Func.P.File, k.Func.P.Line))
			}
		}
	}
	sort.SliceStable(s.Partly, func(i, j int) bool { return sum(s.Partly[i].Causes) > sum(s.Partly[j].Causes) })
	s.notFound(defs, res)
	for _, p := range globalPredictions(res) {
		s.Accesses++
		switch {
		case p.Known:
			s.Modelled++
		case p.NoLane:
			s.NoLane++
		default:
			s.Unknown[unknownLabel(p.Unknown.Cause)]++
		}
	}
	for _, n := range allNotes(res) {
		s.Notes[noteLabel(n)]++
	}
	return s
}

func countBad(b *parser.Block) int {
	n := 0
	if b == nil {
		return 0
	}
	parser.EachStmt(b, func(s parser.Stmt) {
		if _, ok := s.(*parser.BadStmt); ok {
			n++
		}
	})
	return n
}

func pct(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(a)/float64(b))
}

func writeStats(w io.Writer, s *stats) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, ".cu and .cuh files\t%d\n", s.Files)
	fmt.Fprintf(tw, "bytes\t%d\n", s.Bytes)
	fmt.Fprintf(tw, "files read, headers included (the summary's count)\t%d\n", s.FilesRead)
	if s.HostFiles > 0 || len(s.HostProblems) > 0 {
		fmt.Fprintf(tw, "C++ host files read for launch values\t%d\n", s.HostFiles)
		for i, p := range s.HostProblems {
			if i == maxPartlyListed {
				fmt.Fprintf(tw, "  (%d more)\t\n", len(s.HostProblems)-i)
				break
			}
			fmt.Fprintf(tw, "  %s\t\n", cut(p, maxMessage))
		}
	}
	fmt.Fprintf(tw, "__global__ definitions in the source\t%d\n", s.KernelsInSource)
	fmt.Fprintf(tw, "kernels found\t%d\n", s.KernelsFound)
	fmt.Fprintf(tw, "kernels fully analyzed\t%d\t%s\n", s.KernelsFull, pct(s.KernelsFull, s.KernelsFound))
	fmt.Fprintf(tw, "__global__ definitions not found as kernels\t%d\t%s\n", len(s.NotFound), listed(s.NotFound, maxSilentListed))
	writeCounts(tw, "  ", s.NotFoundCauses)
	fmt.Fprintf(tw, "kernels partly analyzed\t%d\n", len(s.Partly))
	for i, k := range s.Partly {
		if i == maxPartlyListed {
			fmt.Fprintf(tw, "  (%d more kernels)\t\n", len(s.Partly)-i)
			break
		}
		fmt.Fprintf(tw, "  %s\t%d\t%s\n", k.Name, sum(k.Causes), topCauses(k.Causes, maxCausesListed))
	}
	fmt.Fprintf(tw, "statements skipped in kernels\t%d\n", s.SkippedInKernels)
	fmt.Fprintf(tw, "kernels with no memory access\t%d\n", s.NoAccess)
	fmt.Fprintf(tw, "  fully analyzed, with no note\t%d\t%s\n", len(s.Silent), listed(s.Silent, maxSilentListed))
	fmt.Fprintf(tw, "global accesses\t%d\n", s.Accesses)
	fmt.Fprintf(tw, "  performed by no lane under their launch\t%d\n", s.NoLane)
	fmt.Fprintf(tw, "  modelled with a number\t%d\t%s of those performed\n", s.Modelled, pct(s.Modelled, s.Accesses-s.NoLane))
	writeCounts(tw, "  unknown: ", s.Unknown)
	fmt.Fprintf(tw, "parse notes\t%d\n", sum(s.Notes))
	writeCounts(tw, "  ", s.Notes)
	return tw.Flush()
}

// listed names the first most of names, saying how many more there are.
func listed(names []string, most int) string {
	if len(names) <= most {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:most], ", "), len(names)-most)
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func writeCounts(w io.Writer, prefix string, m map[string]int) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	for i, k := range keys {
		if i == 12 {
			fmt.Fprintf(w, "%s(%d more causes)\t\n", prefix, len(keys)-i)
			break
		}
		fmt.Fprintf(w, "%s%s\t%d\n", prefix, lineStart(cut(k, maxMessage)), m[k])
	}
}
