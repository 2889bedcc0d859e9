package interp

import (
	"slices"
	"strings"

	"github.com/cudalint/cudalint/parser"
)

// C++ name lookup for the functions a call may name. Candidates are still
// found by name alone (unit.candidates); lookup only puts first those
// that the call, as written and where it stands, names: wt::ld(s) the
// ld of namespace wt, ld(s) in namespace db first db's ld. Overload
// resolution then picks among them as before, and a name lookup finds
// nothing for (a namespace alias, a member function's own scope) keeps
// the order it had.

// inLookupOrder returns cands with the functions that the call written
// names first, in their order; cands unchanged when there is no choice.
func (in *interp) inLookupOrder(written string, cands []*parser.Func) []*parser.Func {
	if len(cands) < 2 {
		return cands
	}
	found := in.lookUp(written, cands)
	if len(found) == 0 || len(found) == len(cands) {
		return cands
	}
	out := slices.Clone(found)
	for _, f := range cands {
		if !slices.Contains(found, f) {
			out = append(out, f)
		}
	}
	return out
}

// lookUp returns the candidates that the name written (f, x::f, ::f)
// finds from the code being run.
func (in *interp) lookUp(written string, cands []*parser.Func) []*parser.Func {
	from := in.codeFunc()
	ns := ""
	var bodyUsings []*parser.Using
	if from != nil {
		ns, bodyUsings = from.Namespace, from.Usings
	}
	cands = slices.DeleteFunc(slices.Clone(cands), func(f *parser.Func) bool { return !in.unit.sees(f) })
	if i := strings.LastIndex(written, "::"); i >= 0 {
		return qualified(written[:i], ns, cands)
	}
	// A using-declaration or -directive of the body is nearest of all.
	if found := in.viaUsings(bodyUsings, ns, cands); len(found) > 0 {
		return found
	}
	for _, scope := range enclosing(ns) {
		found := membersOf(scope, cands)
		found = append(found, in.viaUsings(in.unit.usingsIn(scope), scope, cands)...)
		if len(found) > 0 {
			return found
		}
	}
	return nil
}

// codeFunc is the function whose code is being run: the innermost
// function called, a lambda's being its writer's, else the kernel.
func (in *interp) codeFunc() *parser.Func {
	for i := len(in.sites) - 1; i >= 0; i-- {
		if !in.sites[i].Local {
			return in.sites[i].Func
		}
	}
	return in.kernel
}

// qualified returns the candidates that qual::f names from namespace ns:
// qual is looked up from ns outward (detail::f inside namespace wt may be
// wt::detail::f); "" (written ::f) is the global namespace.
func qualified(qual, ns string, cands []*parser.Func) []*parser.Func {
	if qual == "" || strings.HasPrefix(qual, "::") {
		return membersOf(strings.TrimPrefix(qual, "::"), cands)
	}
	for _, scope := range enclosing(ns) {
		if found := membersOf(join(scope, qual), cands); len(found) > 0 {
			return found
		}
	}
	return nil
}

// viaUsings returns the candidates that usings, standing in namespace
// scope, make visible: all of a namespace a directive nominates, the
// function a declaration names.
func (in *interp) viaUsings(usings []*parser.Using, scope string, cands []*parser.Func) []*parser.Func {
	var out []*parser.Func
	for _, us := range usings {
		if us.Namespace != "" {
			out = append(out, qualified(us.Namespace, scope, cands)...)
			continue
		}
		i := strings.LastIndex(us.Name, "::")
		if len(cands) > 0 && us.Name[i+2:] == cands[0].Name {
			out = append(out, qualified(us.Name[:i], scope, cands)...)
		}
	}
	return out
}

// membersOf returns the candidates declared in namespace ns, or in an
// anonymous namespace inside it (whose names are visible there).
func membersOf(ns string, cands []*parser.Func) []*parser.Func {
	var out []*parser.Func
	for _, f := range cands {
		if parser.VisibleNamespace(f.Namespace) == parser.VisibleNamespace(ns) {
			out = append(out, f)
		}
	}
	return out
}

// enclosing returns ns and the namespaces around it, innermost first,
// the global one ("") last.
func enclosing(ns string) []string {
	out := []string{ns}
	for ns != "" {
		i := strings.LastIndex(ns, "::")
		if i < 0 {
			ns = ""
		} else {
			ns = ns[:i]
		}
		out = append(out, ns)
	}
	return out
}

func join(outer, inner string) string {
	if outer == "" {
		return inner
	}
	return outer + "::" + inner
}

// sees reports whether code of the unit can name f: a function of an
// anonymous namespace only from its own translation unit.
func (u *unit) sees(f *parser.Func) bool {
	if u.funcs == nil || !parser.InAnonymousNamespace(f.Namespace) {
		return true
	}
	return slices.Contains(u.funcs[f.Name], f)
}

// usingsIn returns the unit's using-directives and -declarations that
// stand in namespace scope.
func (u *unit) usingsIn(scope string) []*parser.Using {
	var out []*parser.Using
	for _, us := range u.usings {
		if us.Scope == scope {
			out = append(out, us)
		}
	}
	return out
}
