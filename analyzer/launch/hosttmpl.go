package launch

import (
	"github.com/cudalint/cudalint/analyzer/interp"
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
	for i := 0; i < len(h.insts) && len(seen) < maxInstantiations; i++ {
		inst := h.insts[i]
		f, ok := h.fileOf[inst.Func]
		if !ok || seen[inst.Key()] {
			continue
		}
		seen[inst.Key()] = true
		done[inst.Func] = true
		launches, more := memo.hostRun(f, inst, func() ([]*interp.Launch, []interp.Instantiation) {
			return p.HostRun(f, inst.Func, inst)
		})
		h.made(more) // a template that calls another
		p.addLaunches(f, launches)
	}
	for _, fn := range h.order {
		if !done[fn] {
			unbound := interp.Instantiation{Func: fn}
			launches, _ := memo.hostRun(h.fileOf[fn], unbound, func() ([]*interp.Launch, []interp.Instantiation) {
				return p.HostRun(h.fileOf[fn], fn, unbound)
			})
			p.addLaunches(h.fileOf[fn], launches)
		}
	}
}

func (p *Program) addLaunches(f *parser.File, launches []*interp.Launch) {
	for _, l := range launches {
		p.Launches = append(p.Launches, &Site{Launch: *l, targets: p.launchTargets(f, l.Kernel)})
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
