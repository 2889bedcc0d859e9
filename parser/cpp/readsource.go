package cpp

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// MaxFileSize is the largest file read; a larger one is refused.
const MaxFileSize = 256 << 20

// RefusedError is a file that exists but is not read: a device, a pipe, a
// file too large, or one outside the folders a run may read. Config.ReadFile
// returns it so that the preprocessor notes the reason at the #include
// instead of reporting the file missing.
type RefusedError struct {
	Path   string
	Reason string
	// OutsideRoot: refused for lying outside the folders the run may
	// read (the root and -I folders), not for what the file is.
	OutsideRoot bool
}

func (e *RefusedError) Error() string { return e.Path + ": " + e.Reason }

// ReadSource reads a regular file of at most MaxFileSize bytes. Anything
// else is refused without blocking: a FIFO would block open or read for
// ever, and /dev/zero or a procfs file (whose stat says size 0) would be
// read without end.
func ReadSource(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := checkSource(path, info); err != nil {
		return nil, err
	}
	// O_NONBLOCK: the file can be swapped for a FIFO between the stat and
	// the open; the open then returns at once and the Stat below refuses it.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := checkSource(path, info); err != nil {
		return nil, err
	}
	// The limit holds whatever stat said: files grow, and some lie.
	src, err := readAtMost(f, info.Size(), MaxFileSize+1)
	if err != nil {
		return nil, err
	}
	if len(src) > MaxFileSize {
		return nil, tooLarge(path)
	}
	return src, nil
}

// checkSource refuses what is not a regular file of a readable size.
func checkSource(path string, info fs.FileInfo) error {
	if !info.Mode().IsRegular() {
		return &RefusedError{Path: path, Reason: "not a regular file (" + FileKind(info.Mode()) + ")"}
	}
	if info.Size() > MaxFileSize {
		return tooLarge(path)
	}
	return nil
}

func tooLarge(path string) error {
	return &RefusedError{Path: path, Reason: fmt.Sprintf("more than the %d MiB cudalint reads", MaxFileSize>>20)}
}

// FileKind names what a file that is not regular is, for a message.
func FileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a folder"
	}
	return "a special file"
}

// readAtMost reads r to its end or to limit bytes. The buffer starts at
// the size stat gave, so a file read whole costs one allocation rather
// than io.ReadAll's doubling copies (a tenth of a run on a large tree).
func readAtMost(r io.Reader, size, limit int64) ([]byte, error) {
	size = min(max(size, 0), limit) + 1 // one more byte, to see the end
	buf := make([]byte, 0, size)
	lr := io.LimitReader(r, limit)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}
