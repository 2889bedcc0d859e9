package driver

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/rules"
	"github.com/cudalint/cudalint/rules/lint"
)

// ConfigError is a mistake in a configuration file. The file is checked
// as a YAML tree rather than decoded straight into Config so that every
// mistake has a position and is said in the file's terms, never in Go's.
type ConfigError struct {
	File      string
	Line, Col int // 0 when not known
	Msg       string
}

func (e *ConfigError) Error() string {
	switch {
	case e.Line == 0:
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	case e.Col == 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// position is where a key of blocks or params was written, for warnings.
type position struct{ line, col int }

// checker collects the mistakes of one file.
type checker struct {
	file string
	errs []error
	at   map[string]map[string]position // setting -> entry -> where
}

func (c *checker) errorf(n *yaml.Node, format string, args ...any) {
	c.errs = append(c.errs, &ConfigError{File: c.file, Line: n.Line, Col: n.Column, Msg: fmt.Sprintf(format, args...)})
}

// settings are the keys a configuration may have, each with its check.
// include-dirs is decoded by the field the include-dirs change adds to
// Config; it is listed here so that its spelling is checked like the rest.
var settings = map[string]func(c *checker, key string, v *yaml.Node){
	"enable":       (*checker).ruleList,
	"disable":      (*checker).ruleList,
	"min-severity": (*checker).severity,
	"exclude":      (*checker).globs,
	"blocks":       (*checker).blocks,
	"grids":        (*checker).grids,
	"params":       (*checker).params,
	"defines":      (*checker).defines,
	"include-dirs": (*checker).paths,
	"host-cpp":     (*checker).boolean,
}

func settingNames() []string {
	var out []string
	for k := range settings {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// parseConfig checks src, the text of file, and returns its root mapping
// (nil for an empty file) or every mistake found.
func parseConfig(file string, src []byte) (*yaml.Node, *checker) {
	c := &checker{file: file, at: map[string]map[string]position{}}
	dec := yaml.NewDecoder(strings.NewReader(string(src)))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err.Error() != "EOF" {
			c.errs = append(c.errs, syntaxError(file, src, err))
		}
		return nil, c
	}
	var extra yaml.Node
	if dec.Decode(&extra) == nil {
		c.errorf(&extra, "a configuration is one YAML document; remove this second one")
	}
	if len(doc.Content) == 0 {
		return nil, c
	}
	root := resolve(doc.Content[0])
	if isNull(root) {
		return nil, c
	}
	if root.Kind != yaml.MappingNode {
		// Its kind only, never its text: the file may be someone's
		// secrets under the configuration's name.
		c.errorf(root, "a configuration is a mapping of settings (%s), got %s", strings.Join(settingNames(), ", "), kindOf(root))
		return nil, c
	}
	c.top(root)
	return root, c
}

// top checks the settings: known keys, each once, each well formed.
func (c *checker) top(root *yaml.Node) {
	for _, kv := range c.pairs("the configuration", root) {
		check, ok := settings[kv[0].Value]
		if !ok {
			// Named only when it is a near miss of a setting (a typo):
			// any other key may be a secret's name, and the position
			// locates it.
			if h := didYouMean(kv[0].Value, settingNames()); h != "" {
				c.errorf(kv[0], "unknown key %q%s", kv[0].Value, h)
			} else {
				c.errorf(kv[0], "unknown key; the keys are %s", orList(settingNames()))
			}
			continue
		}
		check(c, kv[0].Value, kv[1])
	}
}

// pairs returns the entries of a mapping, reporting keys that are not
// plain names and keys given twice.
func (c *checker) pairs(what string, m *yaml.Node) [][2]*yaml.Node {
	var out [][2]*yaml.Node
	seen := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := resolve(m.Content[i]), resolve(m.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			c.errorf(k, "the keys of %s are names, got %s", what, describe(k))
			continue
		}
		if line, ok := seen[k.Value]; ok {
			c.errorf(k, "%q is given twice in %s (first at line %d)", k.Value, what, line)
			continue
		}
		seen[k.Value] = k.Line
		out = append(out, [2]*yaml.Node{k, v})
	}
	return out
}

// mapping returns the entries of a setting that must be a mapping; what
// describes it, with an example, for the message when it is not.
func (c *checker) mapping(key string, v *yaml.Node, what string) [][2]*yaml.Node {
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.MappingNode {
		c.errorf(v, "%s must be %s, got %s", key, what, describe(v))
		return nil
	}
	out := c.pairs(key, v)
	c.at[key] = map[string]position{}
	for _, kv := range out {
		c.at[key][kv[0].Value] = position{kv[0].Line, kv[0].Column}
	}
	return out
}

// list returns the entries of a setting that must be a list of names or
// patterns; what describes one entry.
func (c *checker) list(key string, v *yaml.Node, what string) []*yaml.Node {
	if isNull(v) {
		return nil
	}
	if v.Kind == yaml.ScalarNode {
		c.errorf(v, "%s must be a list of %ss, got %s (write %s: [%s])", key, what, describe(v), key, v.Value)
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		c.errorf(v, "%s must be a list of %ss, got %s", key, what, describe(v))
		return nil
	}
	var out []*yaml.Node
	for _, it := range v.Content {
		it = resolve(it)
		if it.Kind != yaml.ScalarNode || isNull(it) {
			c.errorf(it, "each entry of %s must be a %s, got %s", key, what, describe(it))
			continue
		}
		out = append(out, it)
	}
	return out
}

func (c *checker) ruleList(key string, v *yaml.Node) {
	for _, it := range c.list(key, v, "rule name") {
		if err := CheckRule(it.Value); err != nil {
			c.errorf(it, "%s: %v", key, err)
		}
	}
}

func (c *checker) severity(key string, v *yaml.Node) {
	levels := []string{"info", "warning", "error"}
	if v.Kind != yaml.ScalarNode || isNull(v) {
		c.errorf(v, "%s must be one of info, warning or error, got %s", key, describe(v))
		return
	}
	if _, err := lint.ParseSeverity(v.Value); err != nil {
		c.errorf(v, "%s: unknown severity %q%s", key, v.Value, hintOr(v.Value, levels, "; want info, warning or error"))
	}
}

func (c *checker) boolean(key string, v *yaml.Node) {
	var b bool
	if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!bool" || v.Decode(&b) != nil {
		c.errorf(v, "%s must be true or false, got %s", key, describe(v))
	}
}

func (c *checker) globs(key string, v *yaml.Node) {
	for _, it := range c.list(key, v, "path pattern") {
		if err := checkGlob(it.Value); err != nil {
			c.errorf(it, "%s: %v", key, err)
		}
	}
}

func (c *checker) paths(key string, v *yaml.Node) {
	c.at[key] = map[string]position{} // where each folder is written, for the run's checks
	for _, it := range c.list(key, v, "folder") {
		if it.Value == "" {
			c.errorf(it, "each entry of %s must be a folder, got an empty name", key)
		}
		if _, ok := c.at[key][it.Value]; !ok {
			c.at[key][it.Value] = position{it.Line, it.Column}
		}
	}
}

func (c *checker) blocks(key string, v *yaml.Node) {
	c.shapes(key, v, "block", "32x8", "blocks: {transpose: 32x8}", ParseBlock)
}

// shapes checks a mapping of kernel names to block or grid shapes, each
// read by parse.
func (c *checker) shapes(key string, v *yaml.Node, what, example, mapping string, parse func(string) (analyzer.Dim3, error)) {
	for _, kv := range c.mapping(key, v, "a mapping of kernel names to "+what+" shapes, as in "+mapping) {
		name, shape := kv[0], kv[1]
		if !ident.MatchString(name.Value) {
			c.errorf(name, "%s: %q is not a kernel name", key, name.Value)
			continue
		}
		if shape.Kind != yaml.ScalarNode || isNull(shape) {
			c.errorf(shape, "%s.%s must be a %s shape such as %s, got %s", key, name.Value, what, example, describe(shape))
			continue
		}
		if _, err := parse(shape.Value); err != nil {
			c.errorf(shape, "%s.%s: %v", key, name.Value, err)
		}
	}
}

func (c *checker) params(key string, v *yaml.Node) {
	for _, kv := range c.mapping(key, v, "a mapping of parameter names to integers, as in params: {n: 1024, \"kernel.n\": 64}") {
		name, val := kv[0], kv[1]
		if !paramKey.MatchString(name.Value) {
			c.errorf(name, "%s: %q is not a parameter name: write NAME or KERNEL.NAME", key, name.Value)
			continue
		}
		// yaml.v3 would truncate 1.5 to 1: the text must be an integer.
		var n int64
		_, err := strconv.ParseInt(val.Value, 0, 64)
		if val.Kind != yaml.ScalarNode || isNull(val) || err != nil || val.Decode(&n) != nil {
			c.errorf(val, "%s.%s must be an integer, got %s", key, name.Value, describe(val))
		}
	}
}

func (c *checker) defines(key string, v *yaml.Node) {
	for _, kv := range c.mapping(key, v, "a mapping of macro names to values, as in defines: {TILE: \"32\"}") {
		name, val := kv[0], kv[1]
		if !ident.MatchString(name.Value) {
			c.errorf(name, "%s: %q is not a macro name", key, name.Value)
			continue
		}
		if val.Kind != yaml.ScalarNode {
			c.errorf(val, "%s.%s must be a value such as \"32\", got %s", key, name.Value, describe(val))
		}
	}
}

var (
	ident    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	paramKey = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*\.)?[A-Za-z_][A-Za-z0-9_]*$`)
)

// CheckRule reports whether id names a rule, suggesting the nearest
// names when it does not.
func CheckRule(id string) error {
	if rules.ByID(id) != nil {
		return nil
	}
	var ids []string
	for _, r := range rules.All {
		ids = append(ids, r.ID)
	}
	return fmt.Errorf("unknown rule %q%s", id, hintOr(id, ids, "; cudalint rules lists them"))
}

// ParseBlock reads a block shape (256, 32x8, 8x8x4) as CUDA allows it.
// It is stricter than analyzer.ParseDim3, which reads "32y8" as 32 and
// lets huge dimensions overflow the thread count.
func ParseBlock(s string) (analyzer.Dim3, error) {
	return parseShape("block", s, blockLimits, blockThreads)
}

// The limits CUDA puts on shapes: each dimension of a block and of a
// grid, and a block's threads in all.
var (
	blockLimits  = [3]int64{1024, 1024, 64}
	gridLimits   = [3]int64{1<<31 - 1, 65535, 65535}
	blockThreads = int64(1024)
)

// CheckBlock says whether a block shape a library caller gives is one
// CUDA can launch.
func CheckBlock(d analyzer.Dim3) error { return checkShape("block", d, blockLimits, blockThreads) }

// CheckGrid says whether a grid shape is within CUDA's limits.
func CheckGrid(d analyzer.Dim3) error { return checkShape("grid", d, gridLimits, 0) }

func checkShape(what string, d analyzer.Dim3, limits [3]int64, total int64) error {
	for i, n := range d {
		if n <= 0 || n > limits[i] {
			return fmt.Errorf("%s shape %s: %s is %d; CUDA allows 1 to %d", what, d, "xyz"[i:i+1], n, limits[i])
		}
	}
	if total > 0 && d.Threads() > total {
		return fmt.Errorf("%s shape %s has %d threads; CUDA allows at most %d", what, d, d.Threads(), total)
	}
	return nil
}

// parseShape reads a block or grid shape, each dimension within limits
// and, when total > 0, at most total in all.
func parseShape(what, s string, limits [3]int64, total int64) (analyzer.Dim3, error) {
	parts := strings.Split(strings.ToLower(strings.TrimSpace(s)), "x")
	if len(parts) > 3 {
		return analyzer.Dim3{}, fmt.Errorf("%s shape %q has more than three dimensions", what, s)
	}
	for i, part := range parts {
		part = strings.TrimSpace(part)
		if !isDigits(part) || strings.Trim(part, "0") == "" {
			return analyzer.Dim3{}, fmt.Errorf("%s shape %q: %q is not a positive number", what, s, part)
		}
		if n, err := strconv.ParseInt(part, 10, 64); err != nil || n > limits[i] {
			return analyzer.Dim3{}, fmt.Errorf("%s shape %q: %s is %s; CUDA allows at most %d", what, s, "xyz"[i:i+1], part, limits[i])
		}
	}
	d, err := analyzer.ParseDim3(s)
	if err == nil && total > 0 && d[0]*d[1]*d[2] > total {
		return d, fmt.Errorf("%s shape %q has %d threads; CUDA allows at most %d", what, s, d[0]*d[1]*d[2], total)
	}
	return d, err
}

func (c *checker) grids(key string, v *yaml.Node) {
	c.shapes(key, v, "grid", "264 or 64x64", "grids: {reduce: 264}", ParseGrid)
}

// ParseGrid reads a grid shape (264, 64x64, 8x8x2) within CUDA's limits.
func ParseGrid(s string) (analyzer.Dim3, error) {
	return parseShape("grid", s, gridLimits, 0)
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// checkGlob rejects patterns filepath.Match cannot read, as "[a-".
func checkGlob(pat string) error {
	if pat == "" {
		return fmt.Errorf("an empty pattern matches nothing")
	}
	if _, err := filepath.Match(strings.ReplaceAll(pat, "**", "*"), ""); err != nil {
		return fmt.Errorf("pattern %q is malformed (unclosed [ or a trailing \\)", pat)
	}
	return nil
}

// hintOr is " (did you mean X?)" when a name is near word, else other.
func hintOr(word string, names []string, other string) string {
	if h := didYouMean(word, names); h != "" {
		return h
	}
	return other
}

// resolve follows an alias (*anchor) to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; i < 100 && n.Kind == yaml.AliasNode && n.Alias != nil; i++ {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// describe says what a node is, in YAML's terms rather than Go's.
func describe(n *yaml.Node) string {
	switch {
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Kind != yaml.ScalarNode:
		return "an alias"
	case isNull(n):
		return "nothing"
	case n.ShortTag() == "!!str":
		return fmt.Sprintf("the text %q", quoted(n.Value))
	}
	return quoted(n.Value) // a number or a boolean, as written
}

// kindOf names what n is, without its text.
func kindOf(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode && !isNull(n) {
		return "a single value"
	}
	return describe(n)
}

// quoted is at most 40 characters of a value: a message names a mistake,
// it does not copy a file (a configuration may be a link to one that
// holds a secret).
func quoted(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// yamlLine finds "line N: " in yaml.v3's messages.
var yamlLine = regexp.MustCompile(`^line (\d+): `)

// syntaxError rewrites an error of the YAML parser as
// file:line:column: message, without the "yaml:" prefix or Go type
// names. yaml.v3 gives a line only, and none for a mistake on the first
// line or one it does not place (a control character, an unknown
// anchor), so the position is found in src by what the message says.
func syntaxError(file string, src []byte, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	e := &ConfigError{File: file}
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
	}
	e.Line, e.Col = locate(src, msg, e.Line)
	if strings.Contains(msg, "cannot unmarshal") || strings.Contains(msg, "!!") {
		msg = "a value has the wrong kind"
	}
	e.Msg = "not valid YAML: " + msg
	return e
}

// yamlAnchor finds the name in "unknown anchor 'NAME' referenced".
var yamlAnchor = regexp.MustCompile(`unknown anchor '([^']*)'`)

// locate returns the line and column (1-based, in bytes) of the mistake
// msg describes, line being yaml.v3's (0 when it gave none).
func locate(src []byte, msg string, line int) (int, int) {
	at := func(off int) (int, int) {
		before := src[:off]
		l := bytes.Count(before, []byte("\n")) + 1
		return l, off - (bytes.LastIndexByte(before, '\n') + 1) + 1
	}
	switch {
	case strings.Contains(msg, "control characters"):
		for i, b := range src {
			if b < 0x20 && b != '\t' && b != '\n' && b != '\r' || b == 0x7f {
				return at(i)
			}
		}
	case strings.Contains(msg, "UTF-8"):
		for i := 0; i < len(src); {
			r, n := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && n <= 1 {
				return at(i)
			}
			i += n
		}
	case yamlAnchor.MatchString(msg):
		if i := bytes.Index(src, []byte("*"+yamlAnchor.FindStringSubmatch(msg)[1])); i >= 0 {
			return at(i)
		}
	case strings.Contains(msg, "end of stream"):
		return at(len(src))
	case strings.Contains(msg, "incompatible YAML document"):
		if i := bytes.Index(src, []byte("%YAML")); i >= 0 {
			return at(i)
		}
	}
	if line < 1 {
		line = 1
	}
	// The line's start, then the character the message is about when it
	// names one, else the first one written.
	start := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(src[start:], '\n')
		if i < 0 {
			return at(len(src))
		}
		start += i + 1
	}
	text := src[start:]
	if i := bytes.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	col := len(text) - len(bytes.TrimLeft(text, " ")) // the first written
	switch {
	case strings.Contains(msg, "cannot start any token"):
		if i := bytes.IndexAny(text, "@`\t"); i >= 0 {
			col = i
		}
	case strings.Contains(msg, "mapping values are not allowed"):
		if first := bytes.IndexByte(text, ':'); first >= 0 {
			if i := bytes.IndexByte(text[first+1:], ':'); i >= 0 {
				col = first + 1 + i
			}
		}
	}
	return line, min(col, len(text)) + 1
}
