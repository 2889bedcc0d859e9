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
type diskCache struct {
	mu    sync.Mutex
	files map[string]diskFile
}

type diskFile struct {
	mod  time.Time
	size int64
	src  []byte
}

func newDiskCache() *diskCache { return &diskCache{files: map[string]diskFile{}} }

// read is readDisk(path), from the cache while path's modification time
// and size are those it was read at. A file's stat is taken before it is
// read: one changed in between is read again at the next stat.
func (c *diskCache) read(path string) ([]byte, error) {
	info, err := os.Stat(path)
	regular := err == nil && info.Mode().IsRegular()
	if regular {
		c.mu.Lock()
		f, ok := c.files[path]
		c.mu.Unlock()
		if ok && f.mod.Equal(info.ModTime()) && f.size == info.Size() {
			return f.src, nil
		}
	}
	src, err := readDisk(path)
	if err != nil {
		return nil, err
	}
	if regular && int64(len(src)) == info.Size() {
		c.mu.Lock()
		c.files[path] = diskFile{info.ModTime(), info.Size(), src}
		c.mu.Unlock()
	}
	return src, nil
}
