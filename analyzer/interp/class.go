package interp

import (
	"maps"
	"slices"
	"strings"

	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/lex"
	"github.com/cudalint/cudalint/symbolic"
)

// C++ classes and templates: static members of (template) classes,
// member functions run on objects, constructors, and the template
// arguments of inlined helpers, given or deduced.

// frame is what an inlined function sees besides its parameters: the
// template parameters bound for the call, the members of the object it
// runs on, and that object, whose members it may change.
type frame struct {
	types map[string]*ctype.Type
	vals  map[string]value
	this  *value // the object of a member function; nil for a free function
	// class is the class of a member function, static or not.
	class *parser.Struct
	// shadow are the member names a parameter hides: this->name
	// reaches them.
	shadow map[string]bool
	// out are the callee's variables as its body left them, kept for a
	// lambda that captures by reference.
	out     map[string]value
	keepOut bool
}

// class returns the struct that a qualifier such as "ns::Cls" names.
func (in *interp) class(qual string) *parser.Struct {
	s, _ := in.classOf(qual, nil)
	return s
}

// classOf returns the struct that a qualifier names with the template
// arguments written there, or those of the typedef the qualifier is
// (typedef Packed128<float> f128; f128::size).
func (in *interp) classOf(qual string, scope []parser.TemplateArg) (*parser.Struct, []parser.TemplateArg) {
	for range 4 {
		if i := strings.LastIndex(qual, "::"); i >= 0 {
			qual = qual[i+2:]
		}
		if qual == "" {
			return nil, nil
		}
		if s := in.unit.types.Struct(qual); s != nil {
			return s, scope
		}
		td := in.unit.types.Typedef(qual)
		if td == nil || td.Type == nil || len(td.Type.Words) != 1 || td.Type.Ptr > 0 || len(td.Dims) > 0 {
			return nil, nil
		}
		qual = td.Type.Words[0]
		if len(scope) == 0 {
			scope = td.Type.Targs
		}
	}
	return nil, nil
}

// bindTemplate binds template parameters to the arguments written at a
// use (in the current context): types to types, values to values.
func (in *interp) bindTemplate(params []parser.TemplateParam, args []parser.TemplateArg, fr *frame) {
	for i, p := range params {
		if i >= len(args) {
			break
		}
		a := args[i]
		switch {
		case p.IsType && a.Type != nil:
			fr.types[p.Name] = in.resolve(a.Type)
		case p.IsType:
			if id, ok := a.Value.(*parser.Ident); ok {
				fr.types[p.Name] = in.resolve(&parser.TypeRef{Words: []string{id.Name}})
			}
		case a.Value != nil:
			v := in.eval(a.Value)
			v.constant = v.kind == vInt
			fr.vals[p.Name] = v
		case a.Type != nil && len(a.Type.Words) == 1 && a.Type.Ptr == 0:
			// a value argument the parser read as a type name: N
			v := in.ident(&parser.Ident{Name: a.Type.Words[0]})
			v.constant = v.kind == vInt
			fr.vals[p.Name] = v
		}
	}
}

func newFrame() *frame {
	return &frame{types: map[string]*ctype.Type{}, vals: map[string]value{}}
}

// classFrame is the frame of a member of class s used with the class's
// template arguments scope: its template parameters and static members.
func (in *interp) classFrame(s *parser.Struct, scope []parser.TemplateArg) *frame {
	fr := newFrame()
	in.bindTemplate(s.Template, scope, fr)
	return fr
}

// staticMember evaluates Cls<args>::name, a static data member with an
// initializer, with the class's template parameters bound to args.
func (in *interp) staticMember(qual, name string, scope []parser.TemplateArg) (value, bool) {
	s, scope := in.classOf(qual, scope)
	if s == nil {
		return value{}, false
	}
	v, ok := in.staticValues(s, in.classFrame(s, scope))[name]
	return v, ok
}

// staticValues evaluates the initializers of class s's static members in
// their class's frame, in declaration order: each sees the template
// values and the static members declared before it (ELEMENTS_PER_LDG =
// C_ELEMENTS_PER_CTA / THREADS_PER_PIXEL).
func (in *interp) staticValues(s *parser.Struct, fr *frame) map[string]value {
	out := make(map[string]value, len(s.Statics))
	key := s.Name + "::"
	for _, c := range in.calls {
		if c == key {
			for _, dc := range s.Statics {
				out[dc.Name] = in.dataValue(symbolic.CauseNotModelled, "recursive static member")
			}
			return out
		}
	}
	savedVars, savedTypes := in.vars, in.typeArgs
	scope := make(map[string]value, len(fr.vals)+len(s.Statics))
	for k, v := range fr.vals {
		scope[k] = v
	}
	in.typeArgs = withTypes(savedTypes, fr.types)
	in.calls = append(in.calls, key)
	for _, dc := range s.Statics {
		in.vars = scope
		v := in.convert(in.eval(dc.Init), in.resolve(dc.Type))
		v.constant = v.kind == vInt
		out[dc.Name] = v
		scope[dc.Name] = v
	}
	in.calls = in.calls[:len(in.calls)-1]
	in.vars, in.typeArgs = savedVars, savedTypes
	return out
}

// withTypes is base with bound added (bound wins).
func withTypes(base, bound map[string]*ctype.Type) map[string]*ctype.Type {
	if len(bound) == 0 {
		return base
	}
	out := make(map[string]*ctype.Type, len(base)+len(bound))
	for k, t := range base {
		out[k] = t
	}
	for k, t := range bound {
		out[k] = t
	}
	return out
}

// method returns class s's member function called name that takes n
// arguments: defined in the class or out of it (R Cls::name(...) {}),
// else the only one of that name with more parameters (the others have
// defaults).
func (in *interp) method(s *parser.Struct, name string, n int) *parser.Func {
	if s == nil {
		return nil
	}
	cands := append([]*parser.Func{}, s.Methods...)
	outOfClass := func(f *parser.Func) bool { return f.Class == s.Name && f.Device }
	for _, f := range in.unit.candidates(name, outOfClass) {
		if f.Class == s.Name && f.Device {
			cands = append(cands, f)
		}
	}
	var longer []*parser.Func
	for _, f := range cands {
		if f.Name != name || f.Body == nil {
			continue
		}
		if len(f.Params) == n {
			return f
		}
		if len(f.Params) > n {
			longer = append(longer, f)
		}
	}
	if len(longer) == 1 {
		return longer[0]
	}
	return nil
}

// unresolvedMethod notes a member function call that cannot be followed,
// unless a free function of that name may be the one called.
func (in *interp) unresolvedMethod(e *parser.Call, what string, s *parser.Struct, n int) {
	if len(in.unit.candidates(calleeName(e.Fun), anyFunc)) > 0 {
		return
	}
	in.note(lex.NoteNoMemberFunction, what, e.Start(), "%s: no member function of %s with %d arguments; the call is not followed", what, s.Name, n)
	in.unresolved++
}

// qualifiedCall runs Cls<args>::f(...), a static member function.
func (in *interp) qualifiedCall(e *parser.Call, id *parser.Ident, args []value) (value, bool) {
	i := strings.LastIndex(id.Name, "::")
	if i < 0 {
		return value{}, false
	}
	s, scope := in.classOf(id.Name[:i], id.Scope)
	if s == nil {
		return value{}, false
	}
	f := in.method(s, id.Name[i+2:], len(args))
	if f == nil || f.Ctor {
		if len(s.Methods) > 0 {
			in.unresolvedMethod(e, id.Name, s, len(args))
		}
		return value{}, false
	}
	fr := in.classFrame(s, scope)
	fr.class = s
	in.bindTemplate(f.Template, id.Targs, fr)
	return in.inlineIn(f, args, nil, e, fr), true
}

// objectCall runs obj.f(...), a member function of obj's class on obj:
// its members are names in the body, and what the body assigns to them
// is obj's afterwards.
func (in *interp) objectCall(e *parser.Call, m *parser.Member, args []value) (value, bool) {
	if m.Arrow && !isThis(m.X) {
		return value{}, false
	}
	var obj value
	if isThis(m.X) {
		t, ok := in.thisValue()
		if !ok {
			return value{}, false
		}
		obj = t
	} else {
		obj = in.evalNoLoad(m.X)
		if obj.kind == vPtr && obj.ptr == nil && !m.Arrow {
			return in.memoryObjectCall(e, m, args)
		}
	}
	if obj.typ == nil || obj.typ.Kind != ctype.TStruct && obj.typ.Kind != ctype.TUnknown {
		return value{}, false
	}
	s := in.class(obj.typ.Name)
	if s == nil || len(s.Methods) == 0 {
		return value{}, false
	}
	f := in.method(s, m.Name, len(args))
	if f == nil || f.Static || f.Ctor {
		in.unresolvedMethod(e, m.Name, s, len(args))
		return value{}, false
	}
	this := in.object(obj, s)
	fr := newFrame()
	fr.this, fr.class = &this, s
	bindInstance(fr, s, obj.typ)
	v := in.inlineIn(f, args, nil, e, fr)
	if isThis(m.X) {
		in.setThis(*fr.this)
	} else if lv := in.lval(m.X); lv.valid && lv.mem == nil {
		in.store(lv, *fr.this, m.X)
	}
	return v, true
}

// object is obj as a struct value of class s: its members, those it does
// not know yet unknown.
func (in *interp) object(obj value, s *parser.Struct) value {
	out := value{kind: vStruct, typ: obj.typ, fields: map[string]value{}}
	if obj.kind == vStruct {
		for k, x := range obj.fields {
			out.fields[k] = x
		}
		out.param, out.path = obj.param, obj.path
	}
	for _, f := range s.Fields {
		if f.Name == "" {
			continue
		}
		if _, ok := out.fields[f.Name]; !ok && out.param {
			out.fields[f.Name] = in.field(out, f.Name) // a kernel parameter's member: a parameter too
		} else if !ok {
			v := in.dataValue(symbolic.CauseUninitialised, f.Name)
			v.typ = in.resolve(f.Type)
			out.fields[f.Name] = v
		}
	}
	return out
}

// constructor runs the constructor of class type t that takes args, and
// returns the object it builds; ok is false when there is none.
func (in *interp) constructor(t *ctype.Type, args []value, site *parser.Call, pos parser.Pos) (value, bool) {
	if t == nil || t.Kind != ctype.TStruct && t.Kind != ctype.TUnknown {
		return value{}, false
	}
	s := in.class(t.Name)
	if s == nil {
		return value{}, false
	}
	f := in.method(s, s.Name, len(args))
	if f == nil || !f.Ctor {
		return value{}, false
	}
	this := in.object(value{typ: t}, s)
	fr := newFrame()
	fr.this, fr.class = &this, s
	if site == nil {
		site = &parser.Call{P: pos, Fun: &parser.Ident{P: pos, Name: s.Name}, E: pos}
	}
	in.inlineIn(f, args, nil, site, fr)
	return *fr.this, true
}

// templateFrame binds a function template's parameters at a call: from
// the arguments written (put<1>(...)), else deduced from the call's
// arguments as C++ does (ceil_div(V, 4): T is int).
func (in *interp) templateFrame(f *parser.Func, site *parser.Call, args []value) *frame {
	if len(f.Template) == 0 {
		return nil
	}
	fr := newFrame()
	if id, ok := site.Fun.(*parser.Ident); ok {
		in.bindTemplate(f.Template, id.Targs, fr)
	}
	for _, tp := range f.Template {
		if !tp.IsType {
			continue
		}
		if _, ok := fr.types[tp.Name]; ok {
			continue
		}
		if t := deduce(tp.Name, f.Params, args); t != nil {
			fr.types[tp.Name] = t
		}
	}
	deduceFromInstances(f, args, fr)
	deduceArrayLens(f, args, fr)
	return fr
}

// deduceArrayLens binds a template value parameter that is the length of
// an array reference parameter (float (&dst)[N]) to the length of the
// array its argument is, as C++ deduces it, where the call did not.
func deduceArrayLens(f *parser.Func, args []value, fr *frame) {
	for i, p := range f.Params {
		id, ok := p.ArrayLen.(*parser.Ident)
		if !ok || i >= len(args) {
			continue
		}
		if _, bound := fr.vals[id.Name]; bound {
			continue
		}
		if n := arrayLen(args[i]); n > 0 && slices.ContainsFunc(f.Template, func(tp parser.TemplateParam) bool { return !tp.IsType && tp.Name == id.Name }) {
			v := intValue(symbolic.Const(n))
			v.constant = true
			fr.vals[id.Name] = v
		}
	}
}

// arrayLen is the length of the array a value names, 0 when it names
// none or the length is not known.
func arrayLen(v value) int64 {
	if v.kind != vPtr || v.typ == nil || v.typ.Kind != ctype.TArray {
		return 0
	}
	return v.typ.Len
}

// deduceFromInstances binds the template parameters that a parameter
// written as a class template's instance names (Array<T, N>& dst) from
// the instance its argument is (Array<float, 4>: T is float, N is 4), as
// C++ deduces them, where the call did not give them.
func deduceFromInstances(f *parser.Func, args []value, fr *frame) {
	for i, p := range f.Params {
		if i >= len(args) || p.Type == nil || len(p.Type.Targs) == 0 || p.Type.Ptr > 0 {
			continue
		}
		at := args[i].typ
		if at == nil || len(at.Args) != len(p.Type.Targs) || !sameClass(at.Name, p.Type.Words) {
			continue
		}
		for j, ta := range p.Type.Targs {
			name := ""
			switch {
			case ta.Type != nil && len(ta.Type.Words) == 1 && ta.Type.Ptr == 0 && len(ta.Type.Targs) == 0:
				name = ta.Type.Words[0]
			case ta.Value != nil:
				if id, ok := ta.Value.(*parser.Ident); ok {
					name = id.Name
				}
			}
			for _, tp := range f.Template {
				if tp.Name != name {
					continue
				}
				_, typed := fr.types[name]
				_, valued := fr.vals[name]
				switch {
				case typed || valued:
				case tp.IsType && at.Args[j].Type != nil:
					fr.types[name] = at.Args[j].Type
				case !tp.IsType && at.Args[j].Type == nil:
					fr.vals[name] = value{kind: vInt, x: symbolic.Const(at.Args[j].Value), constant: true}
				}
			}
		}
	}
}

// sameClass reports whether a parameter's type words name the class
// called name, qualified or not.
func sameClass(name string, words []string) bool {
	if len(words) != 1 {
		return false
	}
	w := words[0]
	if i := strings.LastIndex(w, "::"); i >= 0 {
		w = w[i+2:]
	}
	return w == name
}

// deduce finds type parameter name from the parameters written T or T*
// (const or not, by reference or not) and the arguments given for them.
func deduce(name string, params []*parser.Param, args []value) *ctype.Type {
	for i, p := range params {
		if i >= len(args) || p.Type == nil || len(p.Type.Words) != 1 || p.Type.Words[0] != name {
			continue
		}
		a := args[i]
		switch {
		case p.Type.Ptr == 1 && a.kind == vPtr && a.ptr != nil && a.ptr.elem.LayoutKnown() && a.ptr.elem.Kind != ctype.TVoid:
			return a.ptr.elem
		case p.Type.Ptr == 0 && a.kind != vPtr && a.typ != nil && a.typ.LayoutKnown() && a.typ.Kind != ctype.TArray:
			return a.typ
		}
	}
	for i, p := range params {
		// A literal argument: 4 is an int.
		if i < len(args) && p.Type != nil && len(p.Type.Words) == 1 && p.Type.Words[0] == name && p.Type.Ptr == 0 && args[i].kind == vInt && args[i].typ == nil {
			if _, ok := symbolic.IsConst(args[i].x); ok {
				t, _ := ctype.Builtin("int")
				return t
			}
		}
	}
	return nil
}

func isThis(e parser.Expr) bool {
	id, ok := e.(*parser.Ident)
	return ok && id.Name == "this"
}

// classCall runs a call that C++ resolves in a class: Cls<args>::f(...),
// obj.f(...), this->f(...), f(...) inside a member function of f's class,
// and Cls(args), a constructor called as a function.
func (in *interp) classCall(e *parser.Call, args []value) (value, bool) {
	switch fn := e.Fun.(type) {
	case *parser.Member:
		return in.objectCall(e, fn, args)
	case *parser.Ident:
		if strings.Contains(fn.Name, "::") {
			return in.qualifiedCall(e, fn, args)
		}
		if fr := in.frame(); fr != nil && fr.class != nil {
			if f := in.method(fr.class, fn.Name, len(args)); f != nil && !f.Ctor {
				if f.Static || fr.this == nil {
					inner := in.classFrame(fr.class, nil)
					for k, t := range fr.types {
						inner.types[k] = t
					}
					inner.class = fr.class
					return in.inlineIn(f, args, nil, e, inner), true
				}
				return in.objectCall(e, &parser.Member{P: fn.P, X: &parser.Ident{P: fn.P, Name: "this"}, Name: fn.Name, Arrow: true, E: fn.P}, args)
			}
		}
		if s := in.class(fn.Name); s != nil && in.method(s, s.Name, len(args)) != nil {
			return in.constructor(in.resolve(&parser.TypeRef{Words: []string{fn.Name}}), args, e, e.Start())
		}
	}
	return value{}, false
}

// frame is the innermost inlined call's frame, or nil.
func (in *interp) frame() *frame {
	if len(in.frames) == 0 {
		return nil
	}
	return in.frames[len(in.frames)-1]
}

// enter makes what fr binds visible to the body of f about to run: the
// template values, the static members of its class, and the object's
// members (the parameters, bound next, hide those they name).
func (in *interp) enter(f *parser.Func, fr *frame) {
	in.frames = append(in.frames, fr)
	if fr.class == nil && f.Class != "" {
		fr.class = in.class(f.Class)
	}
	if fr.class != nil {
		for name, v := range in.staticValues(fr.class, fr) {
			in.vars[name] = v
		}
	}
	for k, v := range fr.vals {
		in.vars[k] = v
	}
	if fr.this == nil {
		return
	}
	fr.shadow = map[string]bool{}
	for _, p := range f.Params {
		if _, ok := fr.this.fields[p.Name]; ok {
			fr.shadow[p.Name] = true
		}
	}
	in.vars["this"] = *fr.this
	for k, x := range fr.this.fields {
		if !fr.shadow[k] {
			in.vars[k] = x
		}
	}
}

// leave collects the object's members as the body left them.
func (in *interp) leave(fr *frame) {
	in.frames = in.frames[:len(in.frames)-1]
	if fr.keepOut {
		fr.out = in.vars
	}
	if fr.this == nil {
		return
	}
	if v, ok := in.thisValueOf(fr); ok {
		*fr.this = v
	}
}

// thisValue is the object the innermost member function runs on, as its
// body has left it so far.
func (in *interp) thisValue() (value, bool) {
	fr := in.frame()
	if fr == nil || fr.this == nil {
		return value{}, false
	}
	return in.thisValueOf(fr)
}

func (in *interp) thisValueOf(fr *frame) (value, bool) {
	cur, ok := in.vars["this"]
	if !ok || cur.kind != vStruct {
		return value{}, false
	}
	out := value{kind: vStruct, typ: fr.this.typ, fields: make(map[string]value, len(fr.this.fields))}
	for k := range fr.this.fields {
		x, ok := in.vars[k]
		if fr.shadow[k] || !ok {
			x = cur.fields[k]
		}
		out.fields[k] = x
	}
	return out, true
}

// setThis makes v the object of the innermost member function.
func (in *interp) setThis(v value) {
	fr := in.frame()
	if fr == nil || fr.this == nil {
		return
	}
	in.vars["this"] = v
	for k, x := range v.fields {
		if !fr.shadow[k] {
			in.vars[k] = x
		}
	}
}

// thisMember is the place this->name names.
func (in *interp) thisMember(name string) lvalue {
	fr := in.frame()
	if fr == nil || fr.this == nil {
		return lvalue{}
	}
	if fr.shadow[name] {
		return lvalue{name: "this", path: []string{name}, valid: true}
	}
	return lvalue{name: name, valid: true}
}

// memberInits runs a constructor's member initializer list.
func (in *interp) memberInits(f *parser.Func, fr *frame) {
	if !f.Ctor || fr.this == nil {
		return
	}
	owned := false // whether the object's members are this constructor's copy (initShadowed)
	for _, mi := range f.Inits {
		if _, ok := fr.this.fields[mi.Name]; !ok {
			continue // a base class
		}
		var v value
		switch len(mi.Args) {
		case 1:
			v = in.eval(mi.Args[0])
		default:
			for _, a := range mi.Args {
				in.eval(a)
			}
			v = in.dataValue(symbolic.CauseNotModelled, "member "+mi.Name)
		}
		v = in.convert(v, fr.this.fields[mi.Name].typ)
		lv := in.thisMember(mi.Name)
		if len(lv.path) == 1 && lv.name == "this" && !readsObject(mi.Args) {
			owned = in.initShadowed(owned, mi.Name, v)
			continue
		}
		owned = false
		in.store(lv, v, nil)
	}
}

// initShadowed sets member name of the object under construction to v,
// for an initializer whose member a parameter of the same name shadows
// (config(int nwarps) : nwarps(nwarps)). As an assignment it would copy
// the object's members at each one: ggml's tile configurations,
// constructed tens of thousands of times, made 17% of all the bytes a
// run allocates that way. The members are copied once instead, for the
// constructor's own (owned says they are), and set in place: the
// initializers between read no object (readsObject), so nothing else
// holds them.
func (in *interp) initShadowed(owned bool, name string, v value) bool {
	cur, ok := in.lookup("this")
	if !ok || cur.kind != vStruct {
		return false // as store does: nothing to set
	}
	if !owned {
		cur.fields = maps.Clone(cur.fields)
		if cur.fields == nil {
			cur.fields = map[string]value{}
		}
		in.vars["this"] = cur
	}
	cur.fields[name] = v
	return true
}

// readsObject reports whether initializer arguments may read or hand on
// an object whole: they mention this or call something (a member
// function sees *this).
func readsObject(args []parser.Expr) bool {
	found := false
	for _, a := range args {
		parser.WalkExpr(a, func(e parser.Expr) {
			switch x := e.(type) {
			case *parser.Call:
				found = true
			case *parser.Ident:
				found = found || x.Name == "this"
			}
		})
	}
	return found
}

// funcNamed returns the name of the __device__ function e names (f or
// &f, a template argument), or "".
func (u *unit) funcNamed(e parser.Expr) string {
	if u, ok := e.(*parser.Unary); ok && u.Op == parser.AddrOf {
		e = u.X
	}
	id, ok := e.(*parser.Ident)
	if !ok {
		return ""
	}
	name := id.Name
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name = name[i+2:]
	}
	for _, f := range u.candidates(name, isHelper) {
		if isHelper(f) {
			return name
		}
	}
	return ""
}

func isHelper(f *parser.Func) bool { return f.Device && f.Body != nil && !f.Global }

// funcParam resolves a call through a kernel's function template
// parameter: F(p, i) with F bound to op_twice calls op_twice. ok is false
// when name is no such parameter; a parameter no launch binds is a note.
func (in *interp) funcParam(e *parser.Call, name string) (string, bool) {
	if in.kernel == nil || len(in.calls) > 0 {
		return "", false
	}
	for i, tp := range in.kernel.Template {
		if !parser.FuncParam(in.kernel.Template, i) || tp.Name != name {
			continue
		}
		if f, ok := in.funcArgs[name]; ok {
			return f, true
		}
		in.note(lex.NoteUnboundTemplate, name, e.Start(), "%s: a function template parameter no launch binds; the call is not followed", name)
		in.unresolved++
		return "", true
	}
	return "", false
}

// callLambda runs a local lambda at a call: its body sees the enclosing
// function's variables (captured), and what it assigns to them is the
// caller's afterwards when it captures by reference.
func (in *interp) callLambda(l *parser.Lambda, args []value, site *parser.Call) value {
	fr := newFrame()
	for k, v := range in.vars {
		fr.vals[k] = v
	}
	fr.keepOut = l.ByRef
	v := in.inlineIn(l.Fn, args, nil, site, fr)
	if l.ByRef && fr.out != nil {
		params := map[string]bool{}
		for _, p := range l.Fn.Params {
			params[p.Name] = true
		}
		for k := range in.vars {
			if x, ok := fr.out[k]; ok && !params[k] {
				in.vars[k] = x
			}
		}
	}
	return v
}

// bindInstance binds, in the frame of a member function of class s run
// on an object of type t, the class template's parameters to t's
// arguments when t is an instance (Array<float, 4>: T is float, N is 4).
func bindInstance(fr *frame, s *parser.Struct, t *ctype.Type) {
	if t == nil || len(t.Args) != len(s.Template) {
		return
	}
	for i, p := range s.Template {
		switch a := t.Args[i]; {
		case p.IsType && a.Type != nil:
			fr.types[p.Name] = a.Type
		case !p.IsType && a.Type == nil:
			fr.vals[p.Name] = value{kind: vInt, x: symbolic.Const(a.Value), constant: true}
		}
	}
}

// indexOperator is obj[i] on an object of a class with a member
// operator[] (lmdeploy's Array<T, N>): that function run on the object,
// its result as a value. The object is a name or a member of one, read
// without loading it; ok is false for any other indexing.
func (in *interp) indexOperator(x *parser.Index) (value, bool) {
	switch b := x.X.(type) {
	case *parser.Ident:
	case *parser.Member:
		if b.Arrow {
			return value{}, false
		}
	default:
		return value{}, false
	}
	obj := in.evalNoLoad(x.X)
	if obj.kind != vStruct || obj.typ == nil || obj.typ.Kind != ctype.TStruct {
		return value{}, false
	}
	s := in.class(obj.typ.Name)
	f := in.method(s, "operator[]", 1)
	if f == nil || f.Static {
		return value{}, false
	}
	idx := in.eval(x.Index)
	this := in.object(obj, s)
	fr := newFrame()
	fr.this, fr.class = &this, s
	bindInstance(fr, s, obj.typ)
	site := &parser.Call{P: x.P, Fun: &parser.Member{P: x.P, X: x.X, Name: "operator[]", E: x.E}, Args: []parser.Expr{x.Index}, E: x.E}
	return in.inlineIn(f, []value{idx}, nil, site, fr), true
}

// memoryObjectCall is obj.f(args) on an object in memory (p[i].data() on
// an array of lmdeploy's Array<T, N>) of a class whose members are all
// arrays and whose f assigns none: each member is the address it decays
// to, so that what f reads or returns through it is at its place in
// memory. For any other class, ok is false: a scalar member read in f
// would be a load cudalint could not place.
func (in *interp) memoryObjectCall(e *parser.Call, m *parser.Member, args []value) (value, bool) {
	lv := in.lval(m.X)
	if lv.mem == nil || lv.mem.elem == nil || lv.mem.elem.Kind != ctype.TStruct || len(lv.mem.elem.Fields) == 0 {
		return value{}, false
	}
	t := lv.mem.elem
	s := in.class(t.Name)
	f := in.method(s, m.Name, len(args))
	if f == nil || f.Static || f.Ctor || f.Body == nil {
		return value{}, false
	}
	assigned := assignedNames(f.Body, nil)
	this := value{kind: vStruct, typ: t, fields: map[string]value{}}
	for _, fl := range t.Fields {
		if fl.Type == nil || fl.Type.Kind != ctype.TArray || assigned[fl.Name] {
			return value{}, false
		}
		this.fields[fl.Name] = in.load(memberOf(lv.mem, fl.Name), m.X) // an array: its address, no access
	}
	fr := newFrame()
	fr.this, fr.class = &this, s
	bindInstance(fr, s, t)
	return in.inlineIn(f, args, nil, e, fr), true
}
