package analyzer

import (
	"fmt"
	"testing"
	"time"

	"github.com/cudalint/cudalint/internal/gen"
	"github.com/cudalint/cudalint/parser"
)

func TestPhases(t *testing.T) {
	if !testing.Verbose() {
		t.Skip()
	}
	src := []byte(gen.KernelDense(1 << 20))
	t0 := time.Now()
	pp := parser.Preprocess("d.cu", src, parser.Config{})
	t1 := time.Now()
	f := parser.ParseTokens("d.cu", pp.Tokens)
	t2 := time.Now()
	prog := NewProgram([]*parser.File{f})
	var ks []*Kernel
	for _, fn := range f.Funcs {
		if fn.Global {
			ks = append(ks, analyzeKernel(prog, f, fn, Options{}))
		}
	}
	t3 := time.Now()
	n := 0
	for _, k := range ks {
		for _, a := range k.Accesses {
			if a.Space == Global {
				for _, c := range k.Configs {
					Predict(a, c, k.params)
					n++
				}
			}
		}
	}
	t4 := time.Now()
	fmt.Printf("tokens %d preprocess %v parse %v interp %v predict %v (%d predictions)\n", len(pp.Tokens), t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), t4.Sub(t3), n)
}
