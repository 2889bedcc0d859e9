package lsp

import (
	"os"
	"sync"
	"time"
)

// diskCache keeps the files analyses read from disk (headers, the
// project's other files) while a stat finds them unchanged: an edit's
// analysis then reads again only what changed on disk, one stat a file,
// rather than resolving, opening and reading every header it includes.
// It is dropped with the header cache, when the client says the disk
// changed (a save, a watched file), so a change within one tick of the
// file system's clock that keeps the size is seen then.
//
// A text is kept from its second read on: the headers an analysis
// includes are read by every analysis, while the project's files that
// the context scans read are read once (the driver's context cache keeps
// what it found in them), and keeping those would hold ggml's whole tree.
type diskCache struct {
	mu    sync.Mutex
	files map[string]diskFile
}

type diskFile struct {
	mod  time.Time
	size int64
	src  []byte // nil after the first read
}

func newDiskCache() *diskCache { return &diskCache{files: map[string]diskFile{}} }

// read is readDisk(path), from the cache while path's modification time
// and size are those it was read at. A file's stat is taken before it is
// read: one changed in between is read again at the next stat.
func (c *diskCache) read(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return readDisk(path) // its error, as the reader words it
	}
	c.mu.Lock()
	f, ok := c.files[path]
	c.mu.Unlock()
	again := ok && f.mod.Equal(info.ModTime()) && f.size == info.Size()
	if again && f.src != nil {
		return f.src, nil
	}
	src, err := readDisk(path)
	if err != nil {
		return nil, err
	}
	f = diskFile{mod: info.ModTime(), size: info.Size()}
	if again && int64(len(src)) == info.Size() {
		f.src = src
	}
	c.mu.Lock()
	c.files[path] = f
	c.mu.Unlock()
	return src, nil
}
