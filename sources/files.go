package sources

import (
	"fmt"
	"path/filepath"

	"github.com/cudalint/cudalint/parser/cpp"
)

// Read is the one rule for every file cudalint reads: sources, includes,
// configurations, baselines and patches all go through it (includes
// through Load's guard, which checks the same way with the include
// folders added).
//
// Every read is of a regular file of at most MaxFileSize bytes, read
// where it really is, with every link resolved. A file the user named on
// the command line (named) is read wherever it is. Any other, one the
// project names (a discovered .cudalint.yaml), must, once resolved, lie
// inside root with no hidden component below it: a committed
// .cudalint.yaml -> .env or -> ~/.aws/credentials is refused, unread.
func Read(path, root string, named bool) ([]byte, error) {
	real, err := Check(path, root, named)
	if err != nil {
		return nil, err
	}
	return cpp.ReadSource(real)
}

// Check is Read's rule without the read: where path really is, or why it
// must not be read (a *cpp.RefusedError), or the error resolving it. The
// name looked up (.cudalint.yaml) may itself be hidden; where a link
// leads may not.
func Check(path, root string, named bool) (string, error) {
	g := &guard{root: resolveDir(root), named: map[string]bool{}, lookedUp: filepath.Base(path)}
	if named {
		if real, err := resolve(path); err == nil {
			g.named[real] = true
		}
	}
	return g.check(path)
}

// CheckDir says why a folder the project names (an include-dirs entry)
// must not widen what includes read, or nil: once its links are
// resolved it must lie inside root, and neither it nor any folder on
// the way to it below root may be hidden (include-dirs: [.git] would let
// #include "config" read the CI token).
func CheckDir(dir, root string) error {
	real := resolveDir(dir)
	r := resolveDir(root)
	rel, ok := below(r, real)
	if !ok {
		return fmt.Errorf("%s is outside the project %s", dir, root)
	}
	if h := hiddenPart(rel); h != "" {
		return fmt.Errorf("%s is or passes through the hidden folder %s", dir, h)
	}
	return nil
}
