package interp

import (
	"fmt"
	"strconv"

	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/symbolic"
)

// Symbols are made here, typed: what a symbol stands for is in its kind,
// axis, site and cause, never parsed back out of its name.

// The builtins, parameters, bases, null tests and loop-entry
// placeholders are made by symbolic (ThreadIdx, ParamSym, BaseSym,
// NonNullSym, EntrySym), which knows how they are identified.

func siteOf(p parser.Pos) symbolic.Site {
	return symbolic.Site{File: p.File, Line: p.Line, Col: p.Col}
}

// loopSym is the iteration symbol of loop node s. Loops are told apart by
// the node, not by its position: a header's loop can stand at the
// kernel's line and column, and a macro puts every loop it expands at the
// invocation. The ID numbers the loops of one site in the order first
// interpreted, which is deterministic.
func (in *interp) loopSym(s parser.Stmt, pos parser.Pos) symbolic.Expr {
	if e, ok := in.loopSyms[s]; ok {
		return e
	}
	site := siteOf(pos)
	in.loopSites[site]++
	e := symbolic.NewSym(symbolic.Var{Name: fmt.Sprintf("iter@%d:%d", pos.Line, pos.Col), Class: symbolic.Uniform,
		Kind: symbolic.KindLoopIter, Site: site, ID: in.loopSites[site]})
	in.loopSyms[s] = e
	return e
}

// unknown is a value the model does not know, for cause. Each is distinct:
// two must not cancel. of is what it concerns (a variable, a function, a
// type, an expression), site where it arises when that matters; name is
// its printed form.
func (in *interp) unknown(cause symbolic.UnknownCause, of string, site parser.Pos, name string, c symbolic.Class) symbolic.Expr {
	in.fresh++
	return symbolic.NewSym(symbolic.Var{Name: name + "#" + strconv.Itoa(in.fresh), Class: c, Kind: symbolic.KindUnknown,
		Cause: cause, Of: of, Site: siteOf(site), ID: in.fresh})
}

// dataValue is a value we do not model: a load, a float, an unknown call.
func (in *interp) dataValue(cause symbolic.UnknownCause, of string) value {
	return intValue(in.unknown(cause, of, parser.Pos{}, unknownName(cause, of), symbolic.Data))
}

// unknownName is an unknown's printed name (as in expressions shown to the user).
func unknownName(cause symbolic.UnknownCause, of string) string {
	switch cause {
	case symbolic.CauseCallResult:
		return "result of " + of
	case symbolic.CauseUnresolvedType:
		return "value of type " + of
	case symbolic.CauseUninitialised:
		return "uninitialised " + of
	case symbolic.CauseLoopCarried:
		return "varies in loop: " + of
	case symbolic.CauseLoadedMember:
		return "member of data"
	case symbolic.CauseBranchMixed:
		return "merged"
	}
	return of
}

// mixedSym stands for a variable that holds different kinds of values on
// two branches (a pointer on one, an integer on the other).
var mixedSym = symbolic.NewSym(symbolic.Var{Name: "merged", Class: symbolic.Data, Kind: symbolic.KindUnknown, Cause: symbolic.CauseBranchMixed})

// notUnderstood makes every variable a skipped statement mentions
// unknown: inline assembly writes its outputs, a lambda may assign what
// it captures, and the parser cannot tell which. Ignoring the statement
// would give exact numbers for values it may have changed.
//
// Host code is left alone: host C++ the parser does not read (new T[n],
// lambdas, templates, streams) is skipped by design and is everywhere,
// it reads the sizes launches are computed from far more often than it
// writes them, and making them unknown would lose the launch shapes.
func (in *interp) notUnderstood(s *parser.BadStmt) {
	if in.host {
		return
	}
	for _, name := range s.Idents {
		if v, ok := in.vars[name]; ok && clobberable(v) {
			in.vars[name] = in.clobbered(v, name, s.P)
		}
	}
	// What it declares (int off = X<long, -1>::get(t);) is a variable
	// of its own, unknown, not a uniform parameter to assume (ident).
	for _, name := range s.Declares {
		if _, ok := in.vars[name]; ok {
			continue
		}
		if in.skippedNames == nil {
			in.skippedNames = map[string]parser.Pos{}
		}
		if _, seen := in.skippedNames[name]; !seen {
			in.skippedNames[name] = s.P
		}
	}
}

// addSkipped adds to a loop's assigned names the local variables its
// body's skipped statements may change (see clobbered): the next
// iteration sees them changed too.
func (in *interp) addSkipped(assigned map[string]bool, body parser.Stmt) {
	if in.host {
		return
	}
	mentioned := map[string]bool{}
	skippedIdents(body, mentioned)
	for name := range mentioned {
		if v, ok := in.vars[name]; ok && clobberable(v) {
			assigned[name] = true
		}
	}
}

func clobberable(v value) bool {
	return (v.kind == vInt && !v.constant) || (v.kind == vPtr && !v.ptr.array)
}

// clobbered is v after a statement not understood may have changed it.
// An array's address stays (its contents are memory, not the variable),
// and so do struct values: they are dim3s, cooperative-group handles and
// by-value struct parameters, which skipped statements (a cg::reduce over
// a group, a templated call) read, not assign.
func (in *interp) clobbered(v value, name string, at parser.Pos) value {
	sym := func() symbolic.Expr {
		return in.unknown(symbolic.CauseNotUnderstood, name, at, "changed by a statement not understood: "+name, symbolic.Data)
	}
	switch {
	case !clobberable(v):
		return v
	case v.kind == vInt:
		return value{kind: vInt, typ: v.typ, x: sym()}
	}
	return value{kind: vPtr, typ: v.typ, ptr: v.ptr.at(sym(), v.ptr.elem)}
}

// skippedIdents adds to out the identifiers the skipped statements in s
// mention: a loop whose body has one may change them on every iteration.
func skippedIdents(s parser.Stmt, out map[string]bool) {
	switch s := s.(type) {
	case *parser.BadStmt:
		for _, name := range s.Idents {
			out[name] = true
		}
	case *parser.Asm: // its outputs are assigned
		for _, o := range s.Operands[:s.Outputs] {
			if name, ok := rootIdent(o.X); ok {
				out[name] = true
			}
		}
	case *parser.Block:
		for _, x := range s.Stmts {
			skippedIdents(x, out)
		}
	case *parser.If:
		skippedIdents(s.Then, out)
		if s.Else != nil {
			skippedIdents(s.Else, out)
		}
	case *parser.For:
		skippedIdents(s.Body, out)
	case *parser.While:
		skippedIdents(s.Body, out)
	case *parser.Switch:
		skippedIdents(s.Body, out)
	}
}
