package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/driver"
	"github.com/cudalint/cudalint/rules/lint"
)

// errHelp and errVersion are not failures: the flags asked for
// something other than a run.
var (
	errHelp    = errors.New("help requested")
	errVersion = errors.New("version requested")
)

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
	accesses      bool
	stats         bool
	noHostCpp     bool
	cpuprofile    string
	memprofile    string
	output        string
	sarifOutput   string // --sarif-output: the findings as SARIF too
	fix           bool
	diff          bool
	exitZero      bool
	config        string
	severity      string
	enable        []string
	disable       []string
	ruleArgs      rawArgs // -D, --block, --param as given, for the rules' driver
	format        string
	sortBy        string            // --sort: position or impact
	color         string            // --color: auto, always or never
	noSnippet     bool              // --no-snippet: the finding lines alone
	settings      analyzer.Settings // -D, --block, --grid, --param, -I
	paths         []string
	version       bool
	stdinName     string // --stdin-filename
	root          string // --root: the folder includes may read
	failLevel     string // --fail-level: info, warning, error or none
	newFromRev    string // --new-from-rev: only findings on lines changed since REV
	newFromPatch  string // --new-from-patch: only findings on lines the diff adds
	baseline      string // --baseline: drop findings recorded in FILE
	writeBaseline string // --write-baseline: record the findings in FILE
}

// multiFlag collects a repeatable NAME=VALUE flag.
type multiFlag struct {
	set func(string) error
}

func (m multiFlag) String() string     { return "" }
func (m multiFlag) Set(s string) error { return m.set(s) }

// usageHead is the top of --help.
const usageHead = `usage: cudalint [flags] PATH...
       cudalint explain RULE
       cudalint rules [--format text|json]
       cudalint lsp [--log FILE]
       cudalint help

PATH is a .cu/.cuh file or a folder searched for them; - reads standard
input (name it with --stdin-filename). -- ends the flags.

commands:
  explain RULE   print a rule's documentation (explain picture: the warp picture)
  rules          list the rules (--format json: with titles, tags and pages)
  lsp            run the language server on stdin/stdout (docs/editors.md)
  help           print this

` + pictureLegend + `
flags:
`

// pictureLegend explains the line under a finding (--help and
// cudalint explain picture).
const pictureLegend = `The picture under a finding draws the first warp's sectors, one character
each by how much of it the lanes use: █ all, ▆ ¾, ▄ ½, ▂ ¼, ▁ less, and ·
between sectors that are not adjacent. "first warp: ▁·▁·▁  32 sectors, 128
of 1024 bytes used" is a warp whose lanes each touch a sector of their own.
`

// newFlagSet defines cudalint's flags on o. The set prints nothing
// itself: --help goes to standard output, errors to standard error, once.
func newFlagSet(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("cudalint", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.BoolVar(&o.version, "version", false, "print the version and exit")
	fs.StringVar(&o.stdinName, "stdin-filename", "", "the `PATH` standard input (-) stands for: for configuration, includes and messages")
	fs.BoolVar(&o.accesses, "accesses", false, "list every global and shared load and store with its predicted sectors (or wavefronts) per request")
	fs.BoolVar(&o.stats, "stats", false, "report how much of the code was analyzed: kernels found, accesses modelled, notes by cause")
	fs.BoolVar(&o.noHostCpp, "no-host-cpp", false, "read no C or C++ file for the values its host code passes to the CUDA files' host functions (configuration: host-cpp: false)")
	fs.StringVar(&o.format, "format", "text", "output format: text, json, sarif, github or html (sarif, github and html for findings only; html is one self-contained page)")
	fs.StringVar(&o.color, "color", "auto", "colour text output: `auto` (on a terminal, unless NO_COLOR is set), always or never")
	fs.BoolVar(&o.noSnippet, "no-snippet", false, "print each finding on one line, without the source snippet and the warp picture")
	fs.StringVar(&o.sortBy, "sort", "position", "order findings by `position` in the files, or by impact: the memory time per launch fixing each saves, by the time model, largest first")
	fs.StringVar(&o.output, "output", "", "write the report to `FILE` instead of standard output")
	fs.StringVar(&o.sarifOutput, "sarif-output", "", "also write the findings as SARIF to `FILE`, from the same run (a CI step's annotations and code-scanning log at once)")
	fs.BoolVar(&o.fix, "fix", false, "apply suggested fixes in place, then report what remains")
	fs.BoolVar(&o.diff, "diff", false, "print the unified diff of what --fix would change, and write nothing (exit 1 when it is not empty)")
	fs.BoolVar(&o.exitZero, "exit-zero", false, "exit 0 even when there are findings (errors still exit 2)")
	fs.StringVar(&o.failLevel, "fail-level", "", "exit 1 only for findings at or above this severity: info, warning, error, or none (never; errors still exit 2). Default: any finding reported")
	fs.StringVar(&o.newFromRev, "new-from-rev", "", "report only findings on lines changed since git `REV` (committed, staged or not)")
	fs.StringVar(&o.newFromPatch, "new-from-patch", "", "report only findings on lines the unified diff `FILE` adds")
	fs.StringVar(&o.baseline, "baseline", "", "do not report the findings recorded in `FILE` (see --write-baseline)")
	fs.StringVar(&o.writeBaseline, "write-baseline", "", "record the findings in `FILE`, for --baseline, and exit 0")
	fs.StringVar(&o.config, "config", "", "use this configuration `FILE` instead of finding .cudalint.yaml files")
	fs.StringVar(&o.severity, "severity", "", "report findings at or above this severity: info, warning or error")
	fs.Var(listFlag{&o.enable}, "enable", "run only these rules (comma-separated, repeatable)")
	fs.Var(listFlag{&o.disable}, "disable", "do not run these rules (comma-separated, repeatable)")
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the run to `FILE`")
	fs.StringVar(&o.memprofile, "memprofile", "", "write a memory profile of the run to `FILE`")
	fs.StringVar(&o.root, "root", "", "the `DIR` whose files an #include may read (default: the repository of the current folder, or the current folder)")
	fs.Var(multiFlag{func(s string) error {
		o.settings.IncludeDirs = append(o.settings.IncludeDirs, s)
		return nil
	}}, "I", "search `DIR` for included files and let includes read it (repeatable)")
	fs.Var(multiFlag{func(s string) error {
		name, val, _ := strings.Cut(s, "=")
		if name == "" {
			return fmt.Errorf("-D needs NAME or NAME=VALUE")
		}
		o.settings.Defines[name] = val
		o.ruleArgs.defines = append(o.ruleArgs.defines, s)
		return nil
	}}, "D", "define a preprocessor macro: -D NAME=VALUE (repeatable)")
	fs.Var(multiFlag{func(s string) error {
		kernel, shape, ok := strings.Cut(s, "=")
		if !ok || kernel == "" {
			return fmt.Errorf("--block needs KERNEL=SHAPE, as in --block transpose=32x8")
		}
		d, err := driver.ParseBlock(shape)
		if err != nil {
			return err
		}
		o.settings.Blocks[kernel] = d
		return nil
	}}, "block", "block shape for a kernel: KERNEL=16x16 (repeatable; overrides launches)")
	fs.Var(multiFlag{func(s string) error {
		kernel, shape, ok := strings.Cut(s, "=")
		if !ok || kernel == "" {
			return fmt.Errorf("--grid needs KERNEL=SHAPE, as in --grid reduce=264")
		}
		d, err := driver.ParseGrid(shape)
		if err != nil {
			return err
		}
		o.settings.Grids[kernel] = d
		return nil
	}}, "grid", "grid shape for a kernel: KERNEL=264 or KERNEL=64x64, for a grid only run time knows (repeatable; overrides launches)")
	fs.Var(multiFlag{func(s string) error {
		name, val, ok := strings.Cut(s, "=")
		v, err := strconv.ParseInt(val, 0, 64)
		if !ok || name == "" || err != nil {
			return fmt.Errorf("--param needs NAME=INTEGER or KERNEL.NAME=INTEGER, got %q", s)
		}
		o.settings.Params[name] = v
		return nil
	}}, "param", "value of an integer kernel parameter: NAME=VALUE or KERNEL.NAME=VALUE (repeatable)")
	return fs
}

// writeUsage prints --help.
func writeUsage(w io.Writer) {
	fs := newFlagSet(&options{})
	fs.SetOutput(w)
	fmt.Fprint(w, usageHead)
	fs.PrintDefaults()
}

func parseFlags(args []string) (*options, error) {
	o := &options{settings: analyzer.Settings{Defines: map[string]string{}, Blocks: map[string]analyzer.Dim3{},
		Grids: map[string]analyzer.Dim3{}, Params: map[string]int64{}}}
	fs := newFlagSet(o)
	flagArgs, afterDashes := splitAtTerminator(fs, args)
	// Flags may come after paths too: parse, take the paths, parse the rest.
	rest := flagArgs
	for len(rest) > 0 {
		if err := fs.Parse(rest); err != nil {
			if err == flag.ErrHelp {
				return nil, errHelp
			}
			return nil, fmt.Errorf("%v (cudalint --help lists the flags)", err)
		}
		rest = fs.Args()
		// "-" is a path (standard input), not a flag: the flag package
		// stops at it, and taking it here is what ends the loop.
		for len(rest) > 0 && (rest[0] == "-" || !strings.HasPrefix(rest[0], "-")) {
			o.paths = append(o.paths, rest[0])
			rest = rest[1:]
		}
	}
	o.paths = append(o.paths, afterDashes...)
	if o.version {
		return nil, errVersion
	}
	if err := o.check(); err != nil {
		return nil, err
	}
	return o, nil
}

// splitAtTerminator splits args at the "--" that ends the flags: one in
// the place of a flag, not the value of a flag before it (--output --).
// The flag package stops at "--" too, but that loses where it stood when
// paths and flags alternate.
func splitAtTerminator(fs *flag.FlagSet, args []string) (flags, paths []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return args[:i], args[i+1:]
		case takesValue(fs, a):
			i++
		}
	}
	return args, nil
}

// takesValue reports whether a is a flag whose value is the next argument.
func takesValue(fs *flag.FlagSet, a string) bool {
	if len(a) < 2 || a[0] != '-' || strings.Contains(a, "=") {
		return false
	}
	f := fs.Lookup(strings.TrimPrefix(a[1:], "-"))
	if f == nil {
		return false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
}

// check validates the flags together.
func (o *options) check() error {
	switch o.format {
	case "text", "json":
	case "sarif", "github", "html":
		if o.accesses || o.stats {
			return fmt.Errorf("--format %s reports findings; use text or json with --accesses and --stats", o.format)
		}
	default:
		return fmt.Errorf("unknown --format %q (want text, json, sarif, github or html)", o.format)
	}
	if o.color != "auto" && o.color != "always" && o.color != "never" {
		return fmt.Errorf("unknown --color %q (want auto, always or never)", o.color)
	}
	if o.sortBy != "position" && o.sortBy != "impact" {
		return fmt.Errorf("unknown --sort %q (want position or impact)", o.sortBy)
	}
	if o.sarifOutput != "" && (o.accesses || o.stats || o.diff) {
		return errors.New("--sarif-output writes findings: it goes with none of --accesses, --stats, --diff")
	}
	if o.diff && (o.fix || o.accesses || o.stats || o.format != "text") {
		return errors.New("--diff prints a diff of the fixes: it goes with none of --fix, --accesses, --stats, --format")
	}
	if o.severity != "" {
		if _, err := lint.ParseSeverity(o.severity); err != nil {
			return fmt.Errorf("--severity: %v", err)
		}
	}
	switch o.failLevel {
	case "", "none":
	default:
		if _, err := lint.ParseSeverity(o.failLevel); err != nil {
			return fmt.Errorf("--fail-level %q: want info, warning, error or none", o.failLevel)
		}
	}
	if o.newFromRev != "" && o.newFromPatch != "" {
		return errors.New("--new-from-rev and --new-from-patch both say what is new: give one")
	}
	if (o.newFromRev != "" || o.newFromPatch != "" || o.baseline != "" || o.writeBaseline != "") && (o.accesses || o.stats || o.fix || o.diff) {
		return errors.New("--new-from-rev, --new-from-patch, --baseline and --write-baseline filter findings: they go with none of --accesses, --stats, --fix, --diff")
	}
	if err := checkRules("--enable", o.enable); err != nil {
		return err
	}
	if err := checkRules("--disable", o.disable); err != nil {
		return err
	}
	if info, err := os.Stat(o.root); o.root != "" && (err != nil || !info.IsDir()) {
		return fmt.Errorf("--root %s: not a folder", o.root)
	}
	stdin := slices.Contains(o.paths, "-")
	switch {
	case len(o.paths) == 0:
		return errors.New("no PATH given (cudalint --help lists the flags)")
	case o.stdinName != "" && !stdin:
		return errors.New("--stdin-filename names standard input, which is read when a PATH is -")
	case stdin && (o.fix || o.diff):
		return errors.New("--fix and --diff edit files in place; they cannot edit standard input")
	}
	return nil
}

// checkRules rejects an unknown rule name: with --enable a typo would
// otherwise run no rule at all and report a clean bill of health.
func checkRules(flag string, ids []string) error {
	for _, id := range ids {
		if err := driver.CheckRule(id); err != nil {
			return fmt.Errorf("%s: %v", flag, err)
		}
	}
	return nil
}
