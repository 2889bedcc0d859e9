package sources

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/cpp"
)

// DefaultRoot is the folder a run may read includes from when no --root is
// given: the repository holding the working directory (the nearest folder
// above it with a .git, a folder or, in a worktree, a file), or the working
// directory itself outside a repository.
func DefaultRoot() (string, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return repoRoot(cwd), nil
}

// RepoRoot returns the nearest folder from dir upward that holds .git (a
// folder, or a file in a worktree), or dir when none does.
func RepoRoot(dir string) string { return repoRoot(dir) }

func repoRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// resolve makes path absolute with every symbolic link followed, so that
// checks see where a read really goes.
func resolve(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// resolveDir resolves a folder; one that does not exist keeps its
// absolute spelling (it then admits nothing that exists).
func resolveDir(dir string) string {
	if r, err := resolve(dir); err == nil {
		return r
	}
	abs, _ := filepath.Abs(dir)
	return abs
}

// guard decides which files an #include may read: files below the root or
// an include folder that no hidden folder holds, and the files the user
// named. The rest stays unread whatever a hostile source asks: the CI
// token in .git/config, /etc/passwd, a key in ~/.ssh.
type guard struct {
	root  string
	dirs  []string        // include folders, resolved
	named map[string]bool // the files of the run, resolved
	// lookedUp, when set, is the name a reader looked for (.cudalint.yaml):
	// a file of that name is not refused for being hidden itself.
	lookedUp string
}

func newGuard(cfg parser.Config, files []string) (*guard, error) {
	root := cfg.Root
	if root == "" {
		var err error
		if root, err = DefaultRoot(); err != nil {
			return nil, err
		}
	}
	g := &guard{root: resolveDir(root), named: map[string]bool{}}
	for _, d := range cfg.IncludeDirs {
		g.dirs = append(g.dirs, resolveDir(d))
	}
	for _, f := range files {
		if r, err := resolve(f); err == nil {
			g.named[r] = true
		}
	}
	return g, nil
}

// check returns where an include that may be read really is (to be read
// there: a link changed after the check is not followed), a
// *cpp.RefusedError for one that must not be, or the error resolving
// it (a missing file).
func (g *guard) check(path string) (string, error) {
	real, err := resolve(path)
	if err != nil {
		return "", err
	}
	if g.named[real] {
		return real, nil
	}
	for _, base := range append([]string{g.root}, g.dirs...) {
		if rel, ok := below(base, real); ok && g.visible(rel) {
			return real, nil
		}
	}
	return "", g.refusal(path, real)
}

// visible reports whether rel, a resolved path below a base, has no
// hidden component, but for a last one that is the name looked up.
func (g *guard) visible(rel string) bool {
	if g.lookedUp != "" && filepath.Base(rel) == g.lookedUp {
		rel = filepath.Dir(rel)
	}
	return hiddenPart(rel) == ""
}

// refusal says why real, reached as path, is not read, and how to allow it.
func (g *guard) refusal(path, real string) error {
	if rel, ok := below(g.root, real); ok {
		if g.lookedUp != "" {
			return &cpp.RefusedError{Path: path, Reason: fmt.Sprintf("a link into %s, which is hidden; not read", hiddenPart(rel))}
		}
		return &cpp.RefusedError{Path: path, Reason: fmt.Sprintf(
			"%s is hidden; -I DIR on the command line allows a folder", hiddenPart(rel))}
	}
	if g.lookedUp != "" {
		return &cpp.RefusedError{Path: path, OutsideRoot: true, Reason: fmt.Sprintf("a link to %s, outside the project %s; not read", real, g.root)}
	}
	return &cpp.RefusedError{Path: path, OutsideRoot: true, Reason: fmt.Sprintf(
		"outside the root %s; -I %s on the command line allows it", g.root, filepath.Dir(real))}
}

// below returns path relative to base when path lies inside base.
func below(base, path string) (string, bool) {
	rel, err := filepath.Rel(base, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// hiddenPart returns the first component of rel that starts with a dot
// (.git, .ssh, .env), or "". The walker skips hidden folders too.
func hiddenPart(rel string) string {
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if strings.HasPrefix(part, ".") && part != "." {
			return part
		}
	}
	return ""
}
