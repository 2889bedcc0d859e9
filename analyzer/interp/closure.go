package interp

import (
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/symbolic"
)

// Lambdas as values. A lambda held in a local variable or written as a
// call's argument is a closure: its function, and the variables of the
// body it was written in. A helper that receives one (template <class F>
// void apply(..., F f)) has its parameter bound to it, and a call through
// the parameter runs the lambda's body with what it captured; the
// accesses it makes carry the call chain through the helper.

// closure is a lambda as a value, or a named __device__ function (fn).
type closure struct {
	lambda *parser.Lambda
	fn     string
	// env are the variables of the body that made the lambda, as they
	// were then (as they are at the call that passes it on, for a lambda
	// that captures by reference: passClosures).
	env map[string]value
	// home is the scope (the run of a function body) that made it.
	home int
}

// closureValue makes the value of lambda l, written in the body being
// run.
func (in *interp) closureValue(l *parser.Lambda) value {
	if in.localFuncs == nil {
		in.localFuncs = map[*parser.Func]bool{}
	}
	// Whether the lambda's body is the kernel's code is a property of
	// where it is written, the same every time it is made.
	in.localFuncs[l.Fn] = in.inKernelBody()
	v := in.dataValue(symbolic.CauseNotModelled, "lambda")
	v.closure = &closure{lambda: l, env: cloneVars(in.vars), home: in.scope}
	return v
}

// funcValue is the value of __device__ function name used as a value.
func (in *interp) funcValue(name string) value {
	v := in.dataValue(symbolic.CauseNotModelled, "function "+name)
	v.closure = &closure{fn: name, home: -1}
	return v
}

// inKernelBody reports whether the code being run is written in the
// kernel's own body: the kernel's, or a lambda's that the kernel defines.
func (in *interp) inKernelBody() bool {
	return len(in.sites) == 0 || in.sites[len(in.sites)-1].Local
}

// callClosure runs a lambda called through a value. Called in the body
// that made it (a local lambda called in place), it sees that body's
// variables as they are now, and what it assigns to them by reference is
// theirs afterwards (callLambda). Called elsewhere (a helper calling its
// parameter), it sees what it captured; a variable it captures by
// reference and assigns is unknown there, as an earlier call through the
// helper may have changed it.
func (in *interp) callClosure(c *closure, args []value, site *parser.Call) value {
	if c.fn != "" {
		if f := in.device(c.fn, args); f != nil {
			return in.inlineWith(f, args, nil, site)
		}
		return in.dataValue(symbolic.CauseCallResult, c.fn+"()")
	}
	if c.home == in.scope {
		return in.callLambda(c.lambda, args, site)
	}
	fr := newFrame()
	for k, v := range c.env {
		fr.vals[k] = v
	}
	for _, name := range capturedWrites(c, fr.vals) {
		fr.vals[name] = in.assignedByLambda(fr.vals[name], name, site.Start())
	}
	return in.inlineIn(c.lambda.Fn, args, nil, site, fr)
}

// capturedWrites are the variables of vars that lambda c captures by
// reference and its body assigns, sorted.
func capturedWrites(c *closure, vars map[string]value) []string {
	if c.lambda == nil || !c.lambda.ByRef || c.lambda.Fn.Body == nil {
		return nil
	}
	params := map[string]bool{}
	for _, p := range c.lambda.Fn.Params {
		params[p.Name] = true
	}
	var out []string
	for name := range assignedNames(c.lambda.Fn.Body, nil) {
		if _, ok := vars[name]; ok && !params[name] {
			out = append(out, name)
		}
	}
	sortStrings(out)
	return out
}

// passClosures gives each lambda of the current body passed as an
// argument that captures by reference the variables as they are now,
// which is what its body will read through the reference; it returns the
// closures passed.
func (in *interp) passClosures(args []value) []*closure {
	var out []*closure
	for i, a := range args {
		c := a.closure
		if c == nil || c.lambda == nil {
			continue
		}
		if c.home == in.scope && c.lambda.ByRef {
			fresh := *c
			fresh.env = cloneVars(in.vars)
			args[i].closure = &fresh
			c = &fresh
		}
		out = append(out, c)
	}
	return out
}

// afterClosures: after a call that was passed lambdas of the current body
// that capture by reference, the variables they assign are unknown here,
// since the callee may have called them any number of times.
func (in *interp) afterClosures(passed []*closure, site *parser.Call) {
	for _, c := range passed {
		if c.home != in.scope {
			continue
		}
		for _, name := range capturedWrites(c, in.vars) {
			in.vars[name] = in.assignedByLambda(in.vars[name], name, site.Start())
		}
	}
}

// assignedByLambda is variable name's value v once a lambda that
// captures it by reference and assigns it may have run (the call passing
// the lambda at at): unknown, with that cause, unless nothing can change
// it (a const integer, an array's address).
func (in *interp) assignedByLambda(v value, name string, at parser.Pos) value {
	if !clobberable(v) {
		return v
	}
	x := in.unknown(symbolic.CauseCapturedWrite, name, at, "assigned by a lambda: "+name, symbolic.Data)
	if v.kind == vInt {
		return value{kind: vInt, typ: v.typ, x: x}
	}
	return value{kind: vPtr, typ: v.typ, ptr: v.ptr.at(x, v.ptr.elem)}
}
