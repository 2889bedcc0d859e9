package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/cudalint/cudalint/analyzer"
)

var errHelp = errors.New("help requested")

type options struct {
	accesses   bool
	stats      bool
	cpuprofile string
	format     string
	defines    map[string]string
	blocks     map[string]analyzer.Dim3
	params     map[string]int64
	paths      []string
}

// multiFlag collects a repeatable NAME=VALUE flag.
type multiFlag struct {
	set func(string) error
}

func (m multiFlag) String() string     { return "" }
func (m multiFlag) Set(s string) error { return m.set(s) }

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{defines: map[string]string{}, blocks: map[string]analyzer.Dim3{}, params: map[string]int64{}}
	fs := flag.NewFlagSet("cudalint", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: cudalint [flags] PATH...\n\nPATH is a .cu/.cuh file or a folder searched for them.\n\nflags:\n")
		fs.PrintDefaults()
	}
	fs.BoolVar(&o.accesses, "accesses", false, "list every global load and store with its predicted sectors per request")
	fs.BoolVar(&o.stats, "stats", false, "report how much of the code was analyzed: kernels found, accesses modelled, notes by cause")
	fs.StringVar(&o.format, "format", "text", "output format: text or json")
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the run to `FILE`")
	fs.Var(multiFlag{func(s string) error {
		name, val, _ := strings.Cut(s, "=")
		if name == "" {
			return fmt.Errorf("-D needs NAME or NAME=VALUE")
		}
		o.defines[name] = val
		return nil
	}}, "D", "define a preprocessor macro: -D NAME=VALUE (repeatable)")
	fs.Var(multiFlag{func(s string) error {
		kernel, shape, ok := strings.Cut(s, "=")
		if !ok || kernel == "" {
			return fmt.Errorf("--block needs KERNEL=SHAPE, as in --block transpose=32x8")
		}
		d, err := analyzer.ParseDim3(shape)
		if err != nil {
			return err
		}
		o.blocks[kernel] = d
		return nil
	}}, "block", "block shape for a kernel: KERNEL=16x16 (repeatable; overrides launches)")
	fs.Var(multiFlag{func(s string) error {
		name, val, ok := strings.Cut(s, "=")
		v, err := strconv.ParseInt(val, 0, 64)
		if !ok || name == "" || err != nil {
			return fmt.Errorf("--param needs NAME=INTEGER or KERNEL.NAME=INTEGER, got %q", s)
		}
		o.params[name] = v
		return nil
	}}, "param", "value of an integer kernel parameter: NAME=VALUE or KERNEL.NAME=VALUE (repeatable)")

	// Flags may come after paths too: parse, take the paths, parse the rest.
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			if err == flag.ErrHelp {
				return nil, errHelp
			}
			return nil, err
		}
		rest = fs.Args()
		for len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
			o.paths = append(o.paths, rest[0])
			rest = rest[1:]
		}
		if len(rest) == 0 {
			break
		}
		if rest[0] == "--" {
			o.paths = append(o.paths, rest[1:]...)
			break
		}
	}
	switch o.format {
	case "text", "json":
	default:
		return nil, fmt.Errorf("unknown --format %q (want text or json)", o.format)
	}
	if len(o.paths) == 0 {
		fs.Usage()
		return nil, errors.New("no PATH given")
	}
	return o, nil
}
