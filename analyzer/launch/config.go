package launch

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/lex"
	"github.com/cudalint/cudalint/symbolic"
)

// BlockSource says where a configuration's block shape comes from. Code
// compares sources; String is their text in messages and outputs.
type BlockSource uint8

// Block-shape sources, most specific first.
const (
	noBlockSource  BlockSource = iota // not set: prints as ""
	FromConfig                        // --block or the config file
	FromLaunch                        // a kernel<<<grid, block>>> in the analyzed files
	FromAnnotation                    // a // cudalint:block comment above the kernel
	FromBounds                        // __launch_bounds__(n) on the kernel, when no launch is found
	FromDefault                       // DefaultBlock
	// FromUnresolved is DefaultBlock for a launch whose block is not a
	// constant: its grid and arguments still count.
	FromUnresolved
)

var blockSourceText = [...]string{"", "config", "launch", "annotation", "launch-bounds", "default", "launch-unresolved"}

func (s BlockSource) String() string { return blockSourceText[s] }

// DefaultBlock is the block shape assumed for a kernel with no launch,
// annotation or configuration: 256 threads, laid out along the dimensions
// the kernel uses.
func DefaultBlock(usesY, usesZ bool) Dim3 {
	switch {
	case usesZ:
		return Dim3{8, 8, 4}
	case usesY:
		return Dim3{16, 16, 1}
	}
	return Dim3{256, 1, 1}
}

// boundsBlock is the block shape __launch_bounds__(n) suggests when no
// launch gives one: n threads in x for a 1D kernel; for a 2D one, rows of
// a power of two near the square root of n, at most a warp (256 gives
// 16x16, as the default; 1024 gives 32x32, 512 32x16). A 3D kernel keeps
// the default.
func boundsBlock(prog *Program, f *parser.File, fn *parser.Func, usesY, usesZ bool) (Dim3, bool) {
	if fn.LaunchBounds == nil || usesZ {
		return Dim3{}, false
	}
	n, ok := prog.ConstIn(f, fn.LaunchBounds)
	if !ok || n <= 0 || n > 1024 {
		return Dim3{}, false
	}
	if !usesY {
		return Dim3{n, 1, 1}, true
	}
	x := int64(1)
	for x*x < n && x < 32 {
		x *= 2
	}
	if n%x != 0 {
		return Dim3{}, false
	}
	return Dim3{x, n / x, 1}, true
}

// Config is one way a kernel runs: a block shape and what is known
// of the grid and the arguments.
type Config struct {
	Block       Dim3
	BlockSource BlockSource
	// BlockKnown says which dimensions of Block the launch gave as
	// constants; for FromUnresolved the others are assumed (fillBlock).
	BlockKnown [3]bool
	// At is where the block shape comes from: the launch or the annotation.
	At parser.Pos
	// Grid holds the launch's grid; a dimension the launch does not give
	// as a constant is AssumedGrid's, and GridKnown says which are known.
	Grid      Dim3
	GridKnown [3]bool
	// Unread, for a kernel no launch gives a block, is where host code
	// launches it in a statement cudalint could not read, if it does.
	Unread parser.Pos
	// Hidden, for a launch whose block is not a constant, are the
	// #defines a conditional not taken skipped that would have given the
	// names the block is written with (darknet's BLOCK under #ifdef GPU).
	Hidden []parser.HiddenDefine
	// Params are integer parameters with known values; Bases the byte
	// offsets at which pointer parameters point into their allocations;
	// NonNull whether pointer parameters are non-null (1) or null (0).
	Params  map[string]int64
	Bases   map[string]int64
	NonNull map[string]int64
	// TemplateArgs are the launch's template arguments in the kernel's
	// order, as the compiler names the instance (int, 256, &op): a type's
	// name, a value's number, "?" for one the launch does not give as a
	// constant; nil for a launch of a kernel that is no template.
	TemplateArgs []string
	// Bare: some of the launch's values depend on main's argument count,
	// and are those of the program run without arguments (argc = 1): the
	// sizes a sample sets unless its command line changes them.
	Bare bool
}

// Values are the values the launch gives symbols: the block's and the
// grid's sizes (the grid's assumed where not known), the parameters' and
// the pointers' null tests.
func (c *Config) Values() map[symbolic.SymID]int64 {
	out := make(map[symbolic.SymID]int64, 6+len(c.Params)+len(c.NonNull))
	for _, a := range symbolic.Axes {
		out[symbolic.BlockDim(a).ID()] = c.Block[a]
		out[symbolic.GridDim(a).ID()] = c.Grid[a]
	}
	for name, v := range c.Params {
		out[symbolic.ParamID(name)] = v
	}
	for name, v := range c.NonNull {
		out[symbolic.NonNullID(name)] = v
	}
	return out
}

// Describe says where the block shape came from, for messages.
func (c *Config) Describe() string {
	switch c.BlockSource {
	case FromLaunch:
		s := fmt.Sprintf("block %s from launch at %s:%d", c.Block, baseName(c.At.File), c.At.Line)
		if c.Bare {
			s += ", main run without arguments"
		}
		return s
	case FromAnnotation:
		return fmt.Sprintf("block %s from annotation at %s:%d", c.Block, baseName(c.At.File), c.At.Line)
	case FromConfig:
		return fmt.Sprintf("block %s from configuration", c.Block)
	case FromUnresolved:
		if dims := c.assumedDims(); c.BlockKnown[0] && dims != "" {
			return fmt.Sprintf("block %s, blockDim.%s assumed (the launch at %s:%d gives no constant for it)", c.Block, dims, baseName(c.At.File), c.At.Line)
		}
		return fmt.Sprintf("block %s by default (the launch at %s:%d gives no constant block%s)", c.Block, baseName(c.At.File), c.At.Line, c.hiddenText())
	case FromBounds:
		return fmt.Sprintf("block %s from __launch_bounds__ (%s)", c.Block, c.noLaunch())
	}
	return fmt.Sprintf("block %s by default (%s)", c.Block, c.noLaunch())
}

// hiddenText says which skipped #defines would have given the block,
// and the -D that takes the #ifdef: "; BLOCK is defined only under
// #ifdef GPU, at darknet.h:9: give -D GPU".
func (c *Config) hiddenText() string {
	var b strings.Builder
	for _, h := range c.Hidden {
		fmt.Fprintf(&b, "; %s is defined only under %s, at %s:%d", h.Name, h.Cond, baseName(h.Pos.File), h.Pos.Line)
		if name, ok := strings.CutPrefix(h.Cond, "#ifdef "); ok && !strings.ContainsAny(name, " ()") {
			fmt.Fprintf(&b, ": give -D %s", name)
		}
	}
	return b.String()
}

// noLaunch says why no launch gave the block: none was found, or the one
// found could not be read.
func (c *Config) noLaunch() string {
	if c.Unread.IsValid() {
		return fmt.Sprintf("the launch at %s:%d could not be read: see --stats", baseName(c.Unread.File), c.Unread.Line)
	}
	return "no launch found"
}

// unreadLaunch is where the program's host code launches the kernel
// named name in a statement cudalint could not read (the first such), or
// no position.
func (p *Program) unreadLaunch(name string) parser.Pos {
	for _, f := range p.Files {
		for _, n := range f.Notes {
			if n.Kind == lex.NoteLaunchNotUnderstood && n.Subject == name {
				return n.Pos
			}
		}
	}
	return parser.Pos{}
}

// assumedDims names the block dimensions the launch did not give ("y").
func (c *Config) assumedDims() string {
	var b strings.Builder
	for d, known := range c.BlockKnown {
		if !known {
			b.WriteByte("xyz"[d])
		}
	}
	return b.String()
}

// fillBlock completes a launch's block whose dimensions are partly
// constant (dim3 block(1, n)): the first unknown dimension takes what
// brings the block to the default's 256 threads, the others 1, so that
// warps are formed along the dimensions the launch fixed, as they are
// for any larger value. What it takes is a power of two: dim3(n / 4,
// heads, 3) is 64x1x3, not 85x1x3, whose rows of 85 would start warps
// mid-sector that real widths (a head's size over 4) never do. A block
// with no known dimension is none of this.
func fillBlock(b Dim3, known [3]bool) (Dim3, bool) {
	if known == [3]bool{} {
		return Dim3{}, false
	}
	threads, first := int64(1), true
	for d := range b {
		if known[d] {
			threads *= b[d]
		}
	}
	for d := range b {
		if known[d] {
			continue
		}
		b[d] = 1
		if first {
			b[d] = floorPow2(max(1, 256/threads))
			first = false
		}
	}
	return b, b.Threads() <= 1024
}

// floorPow2 is the largest power of two at most n (n >= 1).
func floorPow2(n int64) int64 {
	p := int64(1)
	for p*2 <= n {
		p *= 2
	}
	return p
}

func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// Instances lists the type-argument sets kernel fn is launched with: ""
// for a kernel without type parameters or launches that give them.
func (p *Program) Instances(fn *parser.Func) []string {
	if !p.splitsInstances(fn) {
		return []string{""}
	}
	var out []string
	seen := map[string]bool{}
	for _, l := range p.LaunchesOf(fn.Name) {
		if l.Reaches(fn) && !seen[l.Instance()] {
			seen[l.Instance()] = true
			out = append(out, l.Instance())
		}
	}
	if len(out) == 0 {
		return []string{""}
	}
	return out
}

// splitsInstances reports whether fn's launches are analyzed apart by
// their template arguments: those over types or functions, and those
// over values where they may pick a specialization.
func (p *Program) splitsInstances(fn *parser.Func) bool {
	return hasTypeParams(fn) || p.picksSpecialization(fn)
}

// hasTypeParams reports whether fn is a template over types (or
// functions: each is analyzed once per function its launches give).
func hasTypeParams(fn *parser.Func) bool {
	for i, tp := range fn.Template {
		if tp.IsType || parser.FuncParam(fn.Template, i) {
			return true
		}
	}
	return false
}

// TypeArgs binds kernel fn's type parameters to the types of the first
// launch with the given instance (see Instances).
func (p *Program) TypeArgs(fn *parser.Func, instance string) map[string]*ctype.Type {
	for _, l := range p.LaunchesOf(fn.Name) {
		if !l.Reaches(fn) || l.Instance() != instance {
			continue
		}
		m := map[string]*ctype.Type{}
		for i, tp := range fn.Template {
			if tp.IsType && i < len(l.TypeArgs) && l.TypeArgs[i] != nil {
				m[tp.Name] = l.TypeArgs[i]
			}
		}
		return m
	}
	return nil
}

// DimArgs are the values of kernel fn's template value parameters that
// every launch of the instance gives alike: what sizes its arrays
// (__shared__ float s_b[BK][BN]) as the compiler does. A parameter the
// launches give different values, or none, is left out.
func (p *Program) DimArgs(fn *parser.Func, instance string) map[string]int64 {
	out, mixed := map[string]int64{}, map[string]bool{}
	for _, l := range p.LaunchesOf(fn.Name) {
		if !l.Reaches(fn) || (p.splitsInstances(fn) && l.Instance() != instance) {
			continue
		}
		for i, tp := range fn.Template {
			if tp.IsType || parser.FuncParam(fn.Template, i) {
				continue
			}
			v, ok := int64(0), false
			if i < len(l.Targs) && l.Targs[i] != nil && l.Targs[i].Int != nil {
				v, ok = symbolic.IsConst(l.Targs[i].Int)
			}
			if prev, seen := out[tp.Name]; !ok || (seen && prev != v) {
				mixed[tp.Name] = true
			}
			out[tp.Name] = v
		}
	}
	for name := range mixed {
		delete(out, name)
	}
	return out
}

// FuncArgs binds kernel fn's function template parameters to the
// functions the first launch with the given instance names.
func (p *Program) FuncArgs(fn *parser.Func, instance string) map[string]string {
	for _, l := range p.LaunchesOf(fn.Name) {
		if !l.Reaches(fn) || l.Instance() != instance {
			continue
		}
		m := map[string]string{}
		for i, tp := range fn.Template {
			if parser.FuncParam(fn.Template, i) && i < len(l.Targs) && l.Targs[i] != nil && l.Targs[i].Func != "" {
				m[tp.Name] = l.Targs[i].Func
			}
		}
		return m
	}
	return nil
}

// Configs lists the launch configurations of kernel fn of file f (with
// the type arguments instance names): one per distinct launch that
// reaches it; else one from its annotation, its __launch_bounds__ or the
// default, laid out along the dimensions the kernel uses.
//
// A launch whose constant block or grid CUDA would refuse is not a
// configuration: it is a note at the launch, among notes.
func (p *Program) Configs(f *parser.File, fn *parser.Func, usesY, usesZ bool, instance string) (configs []*Config, notes []lex.Note) {
	var out, unresolved []*Config
	seen := map[string]bool{}
	for _, l := range p.LaunchesOf(fn.Name) {
		if !l.Reaches(fn) || (p.splitsInstances(fn) && l.Instance() != instance) {
			continue
		}
		cfg, refused := fromLaunch(l, fn)
		if refused != nil {
			notes = append(notes, lex.Note{Pos: l.Pos, Kind: lex.NoteInvalidLaunch, Subject: fn.Name,
				Msg: fmt.Sprintf("this launch of %s is not one CUDA can make (%v); it is not analyzed", fn.Name, refused)})
			continue
		}
		if cfg.BlockSource == FromUnresolved {
			cfg.Hidden = p.hiddenIn(l.Block)
			unresolved = append(unresolved, cfg)
			continue
		}
		key := fmt.Sprint(cfg.Block, cfg.Grid, cfg.GridKnown, sortedPairs(cfg.Params), sortedPairs(cfg.Bases), sortedPairs(cfg.NonNull))
		if !seen[key] {
			seen[key] = true
			out = append(out, cfg)
		}
	}
	if len(out) == 0 && len(unresolved) > 0 {
		// Launches whose block is not known: their grids and arguments,
		// with the block the kernel says it takes, else the default.
		for _, cfg := range unresolved {
			given := cfg.Block
			cfg.Block = DefaultBlock(usesY, usesZ)
			if d, ok := fillBlock(given, cfg.BlockKnown); ok {
				cfg.Block = d
			} else if d, _, ok := annotation(f, fn); ok {
				cfg.Block = d
			} else if d, ok := boundsBlock(p, f, fn, usesY, usesZ); ok {
				cfg.Block = d
			}
			key := fmt.Sprint(cfg.Block, cfg.Grid, cfg.GridKnown, sortedPairs(cfg.Params), sortedPairs(cfg.Bases), sortedPairs(cfg.NonNull))
			if !seen[key] {
				seen[key] = true
				out = append(out, cfg)
			}
		}
	}
	if len(out) == 0 {
		cfg := &Config{Block: DefaultBlock(usesY, usesZ), BlockSource: FromDefault, Grid: AssumedGrid, Params: map[string]int64{}, Bases: map[string]int64{}}
		if d, at, ok := annotation(f, fn); ok {
			cfg.Block, cfg.BlockSource, cfg.At = d, FromAnnotation, at
		} else if d, ok := boundsBlock(p, f, fn, usesY, usesZ); ok {
			cfg.Block, cfg.BlockSource, cfg.At = d, FromBounds, fn.P
		}
		cfg.Unread = p.unreadLaunch(fn.Name)
		out = append(out, cfg)
	}
	return out, notes
}

// hiddenIn are the skipped #defines of the names dims are written with
// that no launch or definition resolves (a name host code does not know
// is a parameter symbol of its own), one per name, in name order.
func (p *Program) hiddenIn(dims [3]symbolic.Expr) []parser.HiddenDefine {
	names := map[string]bool{}
	for _, d := range dims {
		if d == nil {
			continue
		}
		symbolic.Symbols(d, func(v *symbolic.Var) {
			if v.Kind == symbolic.KindParam {
				names[v.Of] = true
			}
		})
	}
	var out []parser.HiddenDefine
	for _, name := range slices.Sorted(maps.Keys(names)) {
		if h, ok := p.hidden(name); ok {
			out = append(out, h)
		}
	}
	return out
}

// hidden is the first skipped #define of name in the program's files.
func (p *Program) hidden(name string) (parser.HiddenDefine, bool) {
	for _, f := range p.Files {
		for _, h := range f.Hidden {
			if h.Name == name {
				return h, true
			}
		}
	}
	return parser.HiddenDefine{}, false
}

func sortedPairs(m map[string]int64) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(&b, "%s=%d,", k, m[k])
	}
	return b.String()
}

// fromLaunch reads a launch site; its BlockSource is FromUnresolved,
// its block to be chosen, when its block shape is not constant. A
// constant block or grid CUDA would refuse is refused, with why.
func fromLaunch(l *Site, fn *parser.Func) (*Config, error) {
	cfg := &Config{BlockSource: FromLaunch, At: l.Pos, Params: map[string]int64{}, Bases: map[string]int64{}, NonNull: map[string]int64{}}
	l, cfg.Bare = withoutArguments(l)
	cfg.Bare = cfg.Bare || l.Bare
	for d := 0; d < 3; d++ {
		// A value of 0 or less is what host code the model could not
		// follow leaves (a device property read as 0), not what the
		// program launches: not known.
		v, ok := symbolic.IsConst(l.Block[d])
		if !ok || v <= 0 {
			cfg.BlockSource = FromUnresolved
			continue
		}
		cfg.Block[d], cfg.BlockKnown[d] = v, true
	}
	if err := checkDims("block", cfg.Block, cfg.BlockKnown, blockLimits); err != nil {
		return nil, err
	}
	if cfg.BlockSource == FromLaunch && cfg.Block.Threads() > maxThreads {
		return nil, fmt.Errorf("block %v has %d threads; CUDA allows at most %d", cfg.Block, cfg.Block.Threads(), maxThreads)
	}
	var grid Dim3
	var gridKnown [3]bool
	for d := 0; d < 3; d++ {
		v, ok := symbolic.IsConst(l.Grid[d])
		grid[d], gridKnown[d] = v, ok && v > 0
	}
	if err := checkDims("grid", grid, gridKnown, gridLimits); err != nil {
		return nil, err
	}
	for d := 0; d < 3; d++ {
		cfg.Grid[d], cfg.GridKnown[d] = AssumedGrid[d], gridKnown[d]
		if gridKnown[d] {
			cfg.Grid[d] = grid[d]
		}
	}
	for i, tp := range fn.Template {
		if i < len(l.Targs) && l.Targs[i] != nil && !tp.IsType && l.Targs[i].Int != nil {
			if v, ok := symbolic.IsConst(l.Targs[i].Int); ok {
				cfg.Params[tp.Name] = v
			}
		}
	}
	cfg.TemplateArgs = templateArgs(l, fn)
	for i, p := range fn.Params {
		if i >= len(l.Args) || p.Name == "" || p.Pack {
			break // a pack's elements are not counted: the rest binds to nothing known
		}
		cfg.setArg(p.Name, p.Type != nil && p.Type.Ptr > 0, l.Args[i])
	}
	return cfg, nil
}

// CUDA's limits on a launch (compute capability 9.0, as on every GPU
// since 2.0): block dimensions and threads per block, grid dimensions.
const maxThreads = 1024

var (
	blockLimits = Dim3{1024, 1024, 64}
	gridLimits  = Dim3{1<<31 - 1, 65535, 65535}
)

// checkDims checks the known dimensions of a block or grid against
// CUDA's limits, each on its own, so that no product can overflow.
func checkDims(what string, d Dim3, known [3]bool, limits Dim3) error {
	for i, axis := range []string{"x", "y", "z"} {
		if known[i] && d[i] > limits[i] {
			return fmt.Errorf("%s %s is %d; CUDA allows at most %d", what, axis, d[i], limits[i])
		}
	}
	return nil
}

// setArg records what a launch gives parameter name (a member path for
// struct members): an integer's value, a pointer's offset into its
// allocation, and whether a pointer is null.
func (cfg *Config) setArg(name string, isPtr bool, a interp.Arg) {
	switch {
	case a.Int != nil:
		if v, ok := symbolic.IsConst(a.Int); ok {
			cfg.Params[name] = v
			if isPtr && v == 0 {
				cfg.NonNull[name] = 0
			}
		}
	case a.Offset != nil:
		if v, ok := symbolic.IsConst(a.Offset); ok {
			cfg.Bases[name] = v
		}
		if isPtr {
			cfg.NonNull[name] = 1
		}
	case a.Fields != nil:
		for _, f := range slices.Sorted(maps.Keys(a.Fields)) {
			fa := a.Fields[f]
			cfg.setArg(interp.MemberPath(name, f), fa.Offset != nil, fa)
		}
	}
}

// annotation finds a "cudalint:block WxH" comment on the lines just above
// the kernel's name (or on its line).
func annotation(f *parser.File, fn *parser.Func) (Dim3, parser.Pos, bool) {
	for _, d := range f.Directives {
		if d.Pos.File != fn.P.File || d.Pos.Line > fn.P.Line || d.Pos.Line < fn.P.Line-3 {
			continue
		}
		if d.Verb == lex.DirectiveBlock {
			if dim, err := ParseDim3(d.Shape); err == nil {
				return dim, d.Pos, true
			}
		}
	}
	return Dim3{}, parser.Pos{}, false
}

// Dim3 is a block or grid shape.
type Dim3 [3]int64

func (d Dim3) String() string {
	switch {
	case d[2] != 1:
		return fmt.Sprintf("%dx%dx%d", d[0], d[1], d[2])
	case d[1] != 1:
		return fmt.Sprintf("%dx%d", d[0], d[1])
	}
	return fmt.Sprintf("%d", d[0])
}

// Threads is the number of threads in the shape.
func (d Dim3) Threads() int64 { return d[0] * d[1] * d[2] }

// ParseDim3 reads "256", "16x16" or "8x8x4".
func ParseDim3(s string) (Dim3, error) {
	d := Dim3{1, 1, 1}
	parts := strings.Split(strings.ToLower(strings.TrimSpace(s)), "x")
	if len(parts) > 3 {
		return d, fmt.Errorf("block shape %q has more than three dimensions", s)
	}
	for i, part := range parts {
		var v int64
		if _, err := fmt.Sscan(part, &v); err != nil || v <= 0 {
			return d, fmt.Errorf("block shape %q: %q is not a positive number", s, part)
		}
		d[i] = v
	}
	if d.Threads() > 1024 {
		return d, fmt.Errorf("block shape %q has %d threads; CUDA allows at most 1024", s, d.Threads())
	}
	return d, nil
}

// AssumedGrid is the grid used when no launch gives one.
var AssumedGrid = Dim3{64, 64, 4}

// withoutArguments is l with main's argument count taken as 1 in its
// block, grid and arguments: a program that sets its sizes, then lets
// its command line change them (if (argc >= 4) dimx = atoi(argv[2])),
// runs its own sizes when started bare. It reports whether any value
// depended on the count. The host code itself runs with the count
// unknown: a usage check that exits when arguments are missing must not
// hide the launches after it.
func withoutArguments(l *Site) (*Site, bool) {
	changed := false
	bare := func(e symbolic.Expr) symbolic.Expr {
		b, ch := interp.WithoutArguments(e)
		changed = changed || ch
		return b
	}
	out := *l
	for d := 0; d < 3; d++ {
		out.Block[d], out.Grid[d] = bare(l.Block[d]), bare(l.Grid[d])
	}
	out.Args = make([]interp.Arg, len(l.Args))
	for i, a := range l.Args {
		out.Args[i] = bareArg(a, bare)
	}
	if !changed {
		return l, false
	}
	return &out, true
}

// KnownShape reports whether the launch gives its grid and block as
// constants (in the program run without arguments, as its
// configuration takes them): a launch whose kernel can be timed beside
// others.
func (l *Site) KnownShape() bool {
	b, _ := withoutArguments(l)
	for d := 0; d < 3; d++ {
		for _, e := range []symbolic.Expr{b.Grid[d], b.Block[d]} {
			if _, ok := symbolic.IsConst(e); e != nil && !ok {
				return false
			}
		}
	}
	return true
}

func bareArg(a interp.Arg, bare func(symbolic.Expr) symbolic.Expr) interp.Arg {
	a.Int, a.Offset = bare(a.Int), bare(a.Offset)
	if a.Fields != nil {
		fields := make(map[string]interp.Arg, len(a.Fields))
		for k, f := range a.Fields {
			fields[k] = bareArg(f, bare)
		}
		a.Fields = fields
	}
	return a
}

// templateArgs names the template arguments launch l gives fn, in fn's
// order: nil when fn is no template.
func templateArgs(l *Site, fn *parser.Func) []string {
	if len(fn.Template) == 0 {
		return nil
	}
	out := make([]string, len(fn.Template))
	for i, tp := range fn.Template {
		out[i] = "?"
		switch {
		case tp.IsType && i < len(l.TypeArgs) && l.TypeArgs[i] != nil:
			out[i] = l.TypeArgs[i].String()
		case i < len(l.Targs) && l.Targs[i] != nil && l.Targs[i].Func != "":
			out[i] = "&" + l.Targs[i].Func
		case i < len(l.Targs) && l.Targs[i] != nil && l.Targs[i].Int != nil:
			if v, ok := symbolic.IsConst(l.Targs[i].Int); ok {
				out[i] = strconv.FormatInt(v, 10)
			}
		}
	}
	return out
}
