package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/rules"
	"github.com/cudalint/cudalint/rules/accesses"
)

var errHelp = errors.New("help requested")

// listFlag collects comma-separated values.
type listFlag struct{ list *[]string }

func (l listFlag) String() string { return "" }
func (l listFlag) Set(s string) error {
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			*l.list = append(*l.list, v)
		}
	}
	return nil
}

type rawArgs struct{ defines []string }

type options struct {
	accesses   bool
	stats      bool
	cpuprofile string
	memprofile string
	output     string
	fix        bool
	exitZero   bool
	config     string
	severity   string
	enable     []string
	disable    []string
	ruleArgs   rawArgs // -D, --block, --param as given, for the rules' driver
	format     string
	defines    map[string]string
	blocks     map[string]analyzer.Dim3
	params     map[string]int64
	paths      []string
	root       string   // --root: the folder includes may read
	includes   []string // -I: more folders includes may read
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
	fs.StringVar(&o.format, "format", "text", "output format: text, json, sarif or github (sarif and github for findings only)")
	fs.StringVar(&o.output, "output", "", "write the report to `FILE` instead of standard output")
	fs.BoolVar(&o.fix, "fix", false, "apply suggested fixes in place, then report what remains")
	fs.BoolVar(&o.exitZero, "exit-zero", false, "exit 0 even when there are findings (errors still exit 2)")
	fs.StringVar(&o.config, "config", "", "use this configuration `FILE` instead of finding .cudalint.yaml files")
	fs.StringVar(&o.severity, "severity", "", "report findings at or above this severity: info, warning or error")
	fs.Var(listFlag{&o.enable}, "enable", "run only these rules (comma-separated, repeatable)")
	fs.Var(listFlag{&o.disable}, "disable", "do not run these rules (comma-separated, repeatable)")
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the run to `FILE`")
	fs.StringVar(&o.memprofile, "memprofile", "", "write a memory profile of the run to `FILE`")
	fs.StringVar(&o.root, "root", "", "the `DIR` whose files an #include may read (default: the repository of the current folder, or the current folder)")
	fs.Var(multiFlag{func(s string) error {
		o.includes = append(o.includes, s)
		return nil
	}}, "I", "search `DIR` for included files and let includes read it (repeatable)")
	fs.Var(multiFlag{func(s string) error {
		name, val, _ := strings.Cut(s, "=")
		if name == "" {
			return fmt.Errorf("-D needs NAME or NAME=VALUE")
		}
		o.defines[name] = val
		o.ruleArgs.defines = append(o.ruleArgs.defines, s)
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
	case "sarif", "github":
		if o.accesses || o.stats {
			return nil, fmt.Errorf("--format %s reports findings; use text or json with --accesses and --stats", o.format)
		}
	default:
		return nil, fmt.Errorf("unknown --format %q (want text, json, sarif or github)", o.format)
	}
	if o.severity != "" {
		if _, err := accesses.ParseSeverity(o.severity); err != nil {
			return nil, err
		}
	}
	for _, id := range append(append([]string{}, o.enable...), o.disable...) {
		if rules.ByID(id) == nil {
			return nil, fmt.Errorf("unknown rule %q (cudalint rules lists them)", id)
		}
	}
	if info, err := os.Stat(o.root); o.root != "" && (err != nil || !info.IsDir()) {
		return nil, fmt.Errorf("--root %s: not a folder", o.root)
	}
	if len(o.paths) == 0 {
		fs.Usage()
		return nil, errors.New("no PATH given")
	}
	return o, nil
}
