package launch

import (
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/parser"
)

// hostWork is one host function findLaunches interprets, and what it
// gave: its launches and the host template instantiations it made.
type hostWork struct {
	f        *parser.File
	fn       *parser.Func
	tmpl     bool // a host function template: interpreted per instantiation
	launches []*interp.Launch
	insts    []interp.Instantiation
}
