package driver

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cudalint/cudalint/parser/cpp"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/sources"
)

// ConfigName is the file cudalint looks for, from each analyzed file's
// folder upward.
const ConfigName = ".cudalint.yaml"

// Config is a .cudalint.yaml file.
type Config struct {
	// Enable, when set, lists the only rules to run; Disable removes rules.
	Enable  []string `yaml:"enable"`
	Disable []string `yaml:"disable"`
	// MinSeverity hides findings below it: info, warning or error.
	MinSeverity string `yaml:"min-severity"`
	// Exclude lists path patterns (relative to the config file's folder,
	// as in filepath.Match, with ** for any number of folders).
	Exclude []string `yaml:"exclude"`
	// Blocks gives block shapes per kernel (KERNEL: 16x16).
	Blocks map[string]string `yaml:"blocks"`
	// Grids gives grid shapes per kernel (KERNEL: 264 or 64x64): a
	// launch's grid that only run time knows.
	Grids map[string]string `yaml:"grids"`
	// Params gives integer parameter values (NAME or KERNEL.NAME: value).
	Params map[string]int64 `yaml:"params"`
	// Defines are preprocessor definitions.
	Defines map[string]string `yaml:"defines"`
	// IncludeDirs are folders (relative to the config file's folder) that
	// includes may read and are searched, as with -I.
	IncludeDirs []string `yaml:"include-dirs"`
	// HostCpp, when false, reads no C++ file for host context
	// (hostcpp.go); unset is true.
	HostCpp *bool `yaml:"host-cpp"`

	path string
	min  lint.Severity
	// at is where each entry of blocks and params was written, so that
	// an entry that matches nothing can be pointed at.
	at map[string]map[string]position
}

// LoadConfig reads a config file. Its error, when the file has mistakes,
// joins one *ConfigError per mistake, each with its line and column.
// path is the user's (--config): it is read wherever it is.
func LoadConfig(path string) (*Config, error) { return loadConfig(path, "", true) }

// loadConfig reads a configuration through sources.Read's rule: only a
// regular file, read bounded and without blocking (a FIFO or a device
// must not hang the run), and, for one the project names (named false),
// only inside root with no hidden folder on the way once its links are
// resolved: .cudalint.yaml -> .env is refused unread.
func loadConfig(path, root string, named bool) (*Config, error) {
	b, err := sources.Read(path, root, named)
	var refused *cpp.RefusedError
	if errors.As(err, &refused) {
		return nil, fmt.Errorf("%s: %s", displayPath(path), refused.Reason)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", displayPath(path), err)
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs // exclude patterns are relative to its folder, whatever the working folder
	}
	name := displayPath(path)
	top, chk := parseConfig(name, b)
	if len(chk.errs) > 0 {
		return nil, errors.Join(chk.errs...)
	}
	c := &Config{path: path, at: chk.at}
	if top == nil {
		return c, nil
	}
	// Checked above, so decoding fails only on something the checks
	// missed; say so without yaml.v3's Go type names.
	if err := decodeConfig(top, c); err != nil {
		var ce *ConfigError
		if errors.As(err, &ce) {
			ce.File = name
			return nil, ce
		}
		return nil, syntaxError(name, b, err)
	}
	c.min, _ = lint.ParseSeverity(c.MinSeverity)
	return c, nil
}

// displayPath names a configuration file as the user would: relative to
// the working folder when it lies below it (discovery finds absolute
// paths).
func displayPath(path string) string {
	wd, err := os.Getwd()
	if err != nil || !filepath.IsAbs(path) {
		return path
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return rel
}

// configFor finds the config of a file: its folder's .cudalint.yaml, or
// the nearest above it.
func (d *run) configFor(file string) *Config {
	if d.opts.ConfigPath != "" || d.opts.NoDiscovery {
		return d.explicit
	}
	dir, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return nil
	}
	top := d.configTop(dir)
	for {
		if c, ok := d.configs[dir]; ok {
			return c
		}
		path := filepath.Join(dir, ConfigName)
		if _, err := os.Lstat(path); err == nil {
			c, err := loadConfig(path, top, false)
			d.configErrs = append(d.configErrs, splitErrors(err)...)
			d.configs[dir] = c
			return c
		}
		parent := filepath.Dir(dir)
		if dir == top || parent == dir {
			d.configs[dir] = nil
			return nil
		}
		dir = parent
	}
}

// configTop is the highest folder whose configuration may govern files
// in dir: the run's root when dir is inside it, else the repository
// holding dir, else the folder named on the command line that holds it,
// else dir itself. A .cudalint.yaml above the repository (in a home
// folder, or /tmp) belongs to someone else's project.
func (d *run) configTop(dir string) string {
	if d.root != "" && within(dir, d.root) {
		return d.root
	}
	if repo := sources.RepoRoot(dir); repo != dir || isRepo(dir) {
		return repo
	}
	for _, p := range d.opts.Paths {
		if abs, err := filepath.Abs(p); err == nil && within(dir, abs) {
			return abs
		}
	}
	return dir
}

func isRepo(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}

// within reports whether path is dir or below it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// excludes reports whether a config's patterns exclude file.
func (c *Config) excludes(file string) bool {
	if c == nil {
		return false
	}
	abs, _ := filepath.Abs(file)
	rel, err := filepath.Rel(filepath.Dir(c.path), abs)
	if err != nil {
		return false
	}
	rel = filepath.ToSlash(rel)
	for _, pat := range c.Exclude {
		if matchGlob(filepath.ToSlash(pat), rel) {
			return true
		}
	}
	return false
}

// matchGlob matches a slash-separated path against a pattern where **
// stands for any number of folders.
func matchGlob(pat, path string) bool {
	if !strings.Contains(pat, "**") {
		ok, _ := filepath.Match(pat, path)
		if !ok && !strings.Contains(pat, "/") { // a bare name matches in any folder
			ok, _ = filepath.Match(pat, filepath.Base(path))
		}
		return ok
	}
	prefix, rest, _ := strings.Cut(pat, "**")
	if !strings.HasPrefix(path, prefix) {
		return false
	}
	rest = strings.TrimPrefix(rest, "/")
	tail := strings.TrimPrefix(path, prefix)
	for {
		if rest == "" || matchGlob(rest, tail) {
			return true
		}
		i := strings.Index(tail, "/")
		if i < 0 {
			return false
		}
		tail = tail[i+1:]
	}
}

// ruleEnabled decides whether a rule runs for a file.
func (c *Config) ruleEnabled(id string) bool {
	if c == nil {
		return true
	}
	if len(c.Enable) > 0 && !contains(c.Enable, id) {
		return false
	}
	return !contains(c.Disable, id)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
