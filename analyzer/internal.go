package analyzer

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/cudalint/cudalint/parser"
)

// InternalError is a bug of cudalint met while analyzing a kernel: a
// panic, recovered so that it costs that kernel (or, when it struck while
// predicting, only that launch configuration) and never the run.
type InternalError struct {
	Kernel string     // the kernel's name
	Pos    parser.Pos // where the kernel is defined
	// Config describes the launch configuration being predicted; empty
	// when the error struck while interpreting the kernel, which loses
	// all of its accesses.
	Config string
	Panic  string // the panic value, as text
	// Frame is the innermost frame of the stack in cudalint's own code,
	// "package.Func (file.go:line)"; empty when none was found.
	Frame string
}

func (e InternalError) Error() string {
	where := ""
	if e.Config != "" {
		where = " (" + e.Config + ")"
	}
	at := ""
	if e.Frame != "" {
		at = " at " + e.Frame
	}
	return fmt.Sprintf("internal error while analyzing kernel %s%s: %s%s", e.Kernel, where, e.Panic, at)
}

// panicHook, when set (by tests only), is called at each stage of a
// kernel's analysis ("interpret", then "predict" per configuration) so
// that tests can make it fail there.
var panicHook func(stage string, fn *parser.Func, cfg *LaunchConfig)

func hook(stage string, fn *parser.Func, cfg *LaunchConfig) {
	if panicHook != nil {
		panicHook(stage, fn, cfg)
	}
}

// contain runs f; a panic in it is returned as an InternalError for fn
// (under cfg, when not nil) instead of unwinding further.
func contain(fn *parser.Func, cfg *LaunchConfig, f func()) (ie *InternalError) {
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		ie = &InternalError{Kernel: fn.Name, Pos: fn.P, Panic: fmt.Sprint(v), Frame: ownFrame()}
		if cfg != nil {
			ie.Config = cfg.Describe()
		}
	}()
	f()
	return nil
}

// modulePath prefixes the functions of this module in stack frames.
const modulePath = "github.com/cudalint/cudalint/"

// ownFrame finds, from inside a deferred recover, the innermost frame of
// the panicking stack that belongs to this module (not the runtime's, nor
// the recovering code's own).
func ownFrame() string {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(3, pcs) // past Callers, ownFrame and the deferred func
	frames := runtime.CallersFrames(pcs[:n])
	for {
		fr, more := frames.Next()
		if strings.HasPrefix(fr.Function, modulePath) && !strings.HasPrefix(fr.Function, modulePath+"analyzer.contain") {
			return fmt.Sprintf("%s (%s:%d)", strings.TrimPrefix(fr.Function, modulePath), filepath.Base(fr.File), fr.Line)
		}
		if !more {
			return ""
		}
	}
}
