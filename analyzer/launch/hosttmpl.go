package launch

import (
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/internal/par"
	"github.com/cudalint/cudalint/parser"
)

// maxInstantiations bounds the instantiations of host function templates
// interpreted in one program.
const maxInstantiations = 256

// hostTemplates are the host function templates that launch kernels, with
// the instantiations the program makes of them.
type hostTemplates struct {
	fileOf map[*parser.Func]*parser.File
	order  []*parser.Func
	insts  []interp.Instantiation
}

func newHostTemplates() *hostTemplates {
	return &hostTemplates{fileOf: map[*parser.Func]*parser.File{}}
}

func (h *hostTemplates) add(f *parser.File, fn *parser.Func) {
	if _, ok := h.fileOf[fn]; !ok {
		h.order = append(h.order, fn)
	}
	h.fileOf[fn] = f
}

func (h *hostTemplates) made(insts []interp.Instantiation) { h.insts = append(h.insts, insts...) }

// instantiate interprets each host function template once per
// instantiation that calls (or an explicit instantiation) make, its type
// parameters bound, for the launches it makes; a template nothing
// instantiates is interpreted once with its types unknown. An
// instantiation whose template, bindings and what they read are
// unchanged since memo's last analysis is taken from it.
func (p *Program) instantiate(h *hostTemplates, memo *Index) {
	h.made(p.Instantiations())
	seen := map[string]bool{}
	done := map[*parser.Func]bool{}
	// The queue is taken a round at a time, each round's instantiations
	// interpreted on every core and what they give taken in queue order:
	// the instantiations they make join the queue's end as they would
	// one by one, so the launches and the order are the same.
	for next := 0; next < len(h.insts) && len(seen) < maxInstantiations; {
		var round []hostRunWork
		for ; next < len(h.insts) && len(seen) < maxInstantiations; next++ {
			inst := h.insts[next]
			f, ok := h.fileOf[inst.Func]
			if !ok || seen[inst.Key()] {
				continue
			}
			seen[inst.Key()] = true
			done[inst.Func] = true
			round = append(round, hostRunWork{f: f, inst: inst})
		}
		p.runAll(round, memo)
		for _, w := range round {
			h.made(w.more) // a template that calls another
			p.addLaunches(w.f, w.launches)
		}
	}
	var unbound []hostRunWork
	for _, fn := range h.order {
		if !done[fn] {
			unbound = append(unbound, hostRunWork{f: h.fileOf[fn], inst: interp.Instantiation{Func: fn}})
		}
	}
	p.runAll(unbound, memo)
	for _, w := range unbound {
		p.addLaunches(w.f, w.launches)
	}
}

// hostRunWork is one host function template to interpret under one
// instantiation, and what it gave: its launches and the instantiations
// it made.
type hostRunWork struct {
	f        *parser.File
	inst     interp.Instantiation
	launches []*interp.Launch
	more     []interp.Instantiation
}

// runAll interprets the works on every core, each on its own
// interpreter, from memo where what it reads is unchanged.
func (p *Program) runAll(works []hostRunWork, memo *Index) {
	par.Each(len(works), func(i int) {
		w := &works[i]
		w.launches, w.more = memo.hostRun(w.f, w.inst, func() ([]*interp.Launch, []interp.Instantiation) {
			return p.HostRun(w.f, w.inst.Func, w.inst)
		})
	})
}

func (p *Program) addLaunches(f *parser.File, launches []*interp.Launch) {
	for _, l := range launches {
		p.Launches = append(p.Launches, p.site(f, l))
	}
}

// callsHostTemplate reports whether host function fn calls a host
// function template that launches kernels (its instantiations are found
// by interpreting fn).
func (p *Program) callsHostTemplate(fn *parser.Func) bool {
	if fn.Device {
		return false
	}
	found := false
	parser.WalkStmt(fn.Body, func(e parser.Expr) {
		if c, ok := e.(*parser.Call); ok && !found {
			if id, ok := c.Fun.(*parser.Ident); ok {
				found = p.IsHostTemplateName(id.Name)
			}
		}
	})
	return found
}
