package main

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/lex"
)

// kernelPlace names a kernel for --stats: its name and where it is defined.
func kernelPlace(fn *parser.Func) string {
	return fmt.Sprintf("%s (%s:%d)", fn.Name, fn.P.File, fn.P.Line)
}

// kernelCauses counts why a kernel is partly analyzed: the statements its
// body skipped, by the parser's reason, and the notes its interpretation
// made (calls not followed, asm it could not place), by their --stats line.
func kernelCauses(fn *parser.Func, res *analyzer.Result) map[string]int {
	causes := map[string]int{}
	if fn.Body != nil {
		parser.EachStmt(fn.Body, func(s parser.Stmt) {
			if b, ok := s.(*parser.BadStmt); ok {
				causes["skipped: "+b.Note]++
			}
		})
	}
	seen := map[parser.Note]bool{}
	for _, k := range res.Kernels {
		if k.Func.P != fn.P {
			continue
		}
		for _, n := range k.Notes {
			if !seen[n] {
				seen[n] = true
				causes[kernelNoteLabel(n)]++
			}
		}
	}
	return causes
}

// kernelLabels are the short forms of the notes a kernel's line lists.
var kernelLabels = map[lex.NoteKind]string{
	lex.NoteGlobalPointerPassed: "%s not followed, given a global pointer",
	lex.NoteLambdaNotFollowed:   "lambda passed to %s not followed",
	lex.NoteCallThroughValue:    "call through %s not followed",
	lex.NoteNoMemberFunction:    "%s: no member function with those arguments",
	lex.NoteUnboundTemplate:     "%s: a template parameter no launch binds",
	lex.NoteCallDepth:           "calls nested too deep at %s",
	lex.NoteNotAPointer:         "access through %s, not known as a pointer",
}

// kernelNoteLabel is how a kernel's line counts note n: short where the
// note names its subject, else its --stats line, else its message (an
// inline assembly the interpreter could not place says which).
func kernelNoteLabel(n parser.Note) string {
	if l, ok := kernelLabels[n.Kind]; ok && n.Subject != "" {
		return fmt.Sprintf(l, n.Subject)
	}
	if n.Kind == lex.NoteStatement {
		return strings.TrimSuffix(strings.TrimPrefix(n.Msg, "statement not understood ("), "); skipped")
	}
	return noteLabel(n)
}

// topCauses is the most frequent of causes, most first, with counts.
func topCauses(causes map[string]int, most int) string {
	keys := make([]string, 0, len(causes))
	for k := range causes {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if causes[keys[i]] != causes[keys[j]] {
			return causes[keys[i]] > causes[keys[j]]
		}
		return keys[i] < keys[j]
	})
	var parts []string
	for i, k := range keys {
		if i == most {
			parts = append(parts, fmt.Sprintf("%d more causes", len(keys)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("%s ×%d", cut(k, 80), causes[k]))
	}
	return strings.Join(parts, "; ")
}

// kernelDef is a __global__ definition as written in a file: the
// identifiers of its declaration (its name among them) and its line.
type kernelDef struct {
	File  string
	Line  int
	Name  string   // the identifier before its parameter list
	Names []string // every identifier of the declaration
	// InMacro is set when it is written in a #define's body.
	InMacro bool
}

// kernelDefinitions lists the __global__ definitions of src as written,
// those lex.CountKernelDefinitions counts: a __global__ whose declaration
// reaches a { before a ;.
func kernelDefinitions(path string, src []byte) []kernelDef {
	var notes lex.Notes
	toks := lex.Scan("", src, &notes)
	lines := bytes.Split(src, []byte("\n"))
	var out []kernelDef
	for i, t := range toks {
		if t.Text != "__global__" || t.Kind != lex.KIdent {
			continue
		}
		depth := 0
		var names []string
		name, prev := "", ""
	scan:
		for _, u := range toks[i+1:] {
			switch u.Text {
			case "(":
				if depth == 0 && name == "" && prev != "" && prev != "__launch_bounds__" && prev != "__attribute__" && prev != "__declspec" {
					name = prev
				}
				depth++
			case ")":
				depth--
			case ";":
				if depth <= 0 {
					break scan
				}
			case "{":
				if depth <= 0 {
					out = append(out, kernelDef{File: path, Line: int(t.Pos.Line), Name: name, Names: names, InMacro: inDefine(lines, int(t.Pos.Line))})
					break scan
				}
			}
			prev = ""
			if u.Kind == lex.KIdent {
				names = append(names, u.Text)
				prev = u.Text
			}
		}
	}
	return out
}

// inDefine reports whether line (1-based) belongs to a #define: the line
// itself or the first of the backslash-continued lines ending at it
// starts with #define.
func inDefine(lines [][]byte, line int) bool {
	k := line - 1
	for k > 0 && k-1 < len(lines) && bytes.HasSuffix(bytes.TrimRight(lines[k-1], " \t\r"), []byte(`\`)) {
		k--
	}
	if k < 0 || k >= len(lines) {
		return false
	}
	l := bytes.TrimLeft(lines[k], " \t")
	if !bytes.HasPrefix(l, []byte("#")) {
		return false
	}
	return bytes.HasPrefix(bytes.TrimLeft(l[1:], " \t"), []byte("define"))
}

// notFound lists the definitions no kernel found stands for (none of that
// name in its file), each with its cause: written in a macro (its
// expansions are the kernels found), a note the parser made at its line,
// or code the preprocessor did not keep.
func (s *stats) notFound(defs []kernelDef, res *analyzer.Result) {
	// found counts the kernels of each name in each file (file + "\x00" +
	// name), a template once: each definition takes one, so that two
	// definitions of one name (#if and #else) where one is found count
	// the other.
	found := map[string]int{}
	seen := map[parser.Pos]bool{}
	for _, k := range res.Kernels {
		if !seen[k.Func.P] {
			seen[k.Func.P] = true
			found[k.Func.P.File+"\x00"+k.Func.Name]++
		}
	}
	notesAt := map[string]string{} // file:line -> the parser's note there
	for _, f := range res.Program.Files {
		for _, n := range f.Notes {
			key := fmt.Sprintf("%s:%d", n.Pos.File, n.Pos.Line)
			if _, ok := notesAt[key]; !ok {
				notesAt[key] = noteLabel(n)
			}
		}
	}
	for _, d := range defs {
		if key := d.File + "\x00" + d.Name; found[key] > 0 {
			found[key]--
			continue
		}
		cause := "not in the code the preprocessor kept (an #if not taken, or a file not read)"
		switch note, ok := notesAt[fmt.Sprintf("%s:%d", d.File, d.Line)]; {
		case d.InMacro:
			cause = "written in a #define: the kernels it expands to are counted where it is used"
		case ok:
			cause = note
		}
		name := d.Name
		if name == "" {
			name = "?"
		}
		s.NotFound = append(s.NotFound, fmt.Sprintf("%s (%s:%d)", name, d.File, d.Line))
		s.NotFoundCauses[cause]++
	}
}
