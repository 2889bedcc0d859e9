package cpp

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cudalint/cudalint/internal/gen"
)

// comparable is what a preprocessed file holds that the cache must not
// change: the tokens with their positions and origins, notes, includes,
// cudalint: comments and sources.
func comparable(pp *Preprocessed) string {
	var b strings.Builder
	for _, t := range pp.Tokens {
		fmt.Fprintf(&b, "%q %v %d %d %v %v", t.Text, t.Pos, t.End, t.Kind, t.BOL, t.Space)
		if t.Macro != nil {
			fmt.Fprintf(&b, " from %s@%v", t.Macro.Name, t.Macro.Def)
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "notes %v\nincludes %v\ndirectives %v\n", pp.Notes, pp.Includes, pp.Directives)
	for _, path := range pp.Includes {
		fmt.Fprintf(&b, "source %s %d\n", path, len(pp.Sources[path]))
	}
	return b.String()
}

// checkMemo preprocesses each main file twice through one cache (the
// second round replays what the first recorded) and compares every result
// with preprocessing without a cache. It returns the cache's replays.
func checkMemo(t *testing.T, fs gen.Files, mains []string, cfg Config) int64 {
	t.Helper()
	cfg.ReadFile = fs.Read
	memo := cfg
	memo.Headers = NewHeaderCache()
	for round := 0; round < 2; round++ {
		for _, m := range mains {
			src := []byte(fs[m])
			want := comparable(Preprocess(m, src, cfg))
			if got := comparable(Preprocess(m, src, memo)); got != want {
				t.Fatalf("round %d, %s: with the header cache\n%s\nwithout\n%s", round, m, got, want)
			}
		}
	}
	return memo.Headers.replays.Load()
}

func TestHeaderCacheSameOutput(t *testing.T) {
	tests := []struct {
		name  string
		fs    gen.Files
		mains []string
		// wantReplays is the least number of replays: the cache must be
		// used where it can be, not only be harmless.
		wantReplays int64
	}{
		{"two macro states", gen.Files{
			"h.h":  "#ifdef A\nint a;\n#else\nint b;\n#endif\n",
			"1.cu": "#include \"h.h\"\n", "2.cu": "#define A\n#include \"h.h\"\n", "3.cu": "#define A 2\n#include \"h.h\"\n",
		}, []string{"1.cu", "2.cu", "3.cu"}, 3},
		{"macro body differs", gen.Files{
			"h.h":  "int x = N;\n",
			"1.cu": "#define N 1\n#include \"h.h\"\n", "2.cu": "#define N 2\n#include \"h.h\"\n", "3.cu": "#include \"h.h\"\n",
		}, []string{"1.cu", "2.cu", "3.cu"}, 3},
		{"include guard", gen.Files{
			"h.h":  "#ifndef H_H\n#define H_H\nint h;\n#endif\n",
			"1.cu": "#include \"h.h\"\n#include \"h.h\"\nint a;\n", "2.cu": "#define H_H\n#include \"h.h\"\n",
		}, []string{"1.cu", "2.cu"}, 3},
		{"pragma once", gen.Files{
			"h.h": "#pragma once\nint h;\n", "g.h": "#include \"h.h\"\nint g;\n",
			"1.cu": "#include \"h.h\"\n#include \"g.h\"\n", "2.cu": "#include \"g.h\"\n#include \"h.h\"\n",
		}, []string{"1.cu", "2.cu"}, 2},
		{"header undefines", gen.Files{
			"h.h":  "#undef X\n#define Y 3\n",
			"1.cu": "#define X 1\n#include \"h.h\"\nX Y\n", "2.cu": "#include \"h.h\"\nX Y\n",
		}, []string{"1.cu", "2.cu"}, 2},
		{"one header defines for a later one", gen.Files{
			"a.h": "#define N 4\n", "b.h": "int x[N];\n",
			"1.cu": "#include \"a.h\"\n#include \"b.h\"\n", "2.cu": "#include \"b.h\"\n", "3.cu": "#define N 8\n#include \"b.h\"\n",
		}, []string{"1.cu", "2.cu", "3.cu"}, 4},
		{"nested headers", gen.Files{
			"inner.h": "#pragma once\n#define K(x) (x * M)\nint inner;\n", "outer.h": "#include \"inner.h\"\nint o = K(2);\n",
			"1.cu": "#define M 1\n#include \"outer.h\"\n", "2.cu": "#define M 1\n#include \"inner.h\"\n#include \"outer.h\"\n",
		}, []string{"1.cu", "2.cu"}, 2},
		{"invocation crosses the end of a header", gen.Files{
			"h.h": "int v = F\n", "1.cu": "#define F(x) x + 1\n#include \"h.h\"\n(2);\n",
		}, []string{"1.cu"}, 0},
		{"header closes its includer's #if", gen.Files{
			"h.h": "int h;\n#endif\n", "1.cu": "#if 1\n#include \"h.h\"\nint a;\n",
		}, []string{"1.cu"}, 0},
		{"header with #else of its includer", gen.Files{
			"h.h": "#else\nint h;\n", "1.cu": "#if 1\n#include \"h.h\"\nint a;\n#endif\n",
		}, []string{"1.cu"}, 0},
		{"notes and directives replayed", gen.Files{
			"h.h":  "// cudalint:ignore\n#include \"missing.h\"\n#if 1 +\n#endif\nint h;\n",
			"1.cu": "#include \"h.h\"\n",
		}, []string{"1.cu"}, 1},
		{"function-like macro defined in header", gen.Files{
			"h.h":  "#define SQ(x) ((x) * (x))\n",
			"1.cu": "#include \"h.h\"\nint a = SQ(3);\n",
		}, []string{"1.cu"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := checkMemo(t, tt.fs, tt.mains, Config{}); got < tt.wantReplays {
				t.Errorf("%d replays, want at least %d", got, tt.wantReplays)
			}
		})
	}
}

// A self-including header hits the depth limit: the note depends on how
// deep the includer stood, so no recording of it is reused.
func TestHeaderCacheIncludeCycle(t *testing.T) {
	fs := gen.Files{"h.h": "int h;\n#include \"h.h\"\n", "1.cu": "#include \"h.h\"\n", "2.cu": "int a;\n#include \"h.h\"\n"}
	checkMemo(t, fs, []string{"1.cu", "2.cu"}, Config{Limits: Limits{Includes: 100}})
}

// Budgets are charged for replayed headers as for read ones.
func TestHeaderCacheBudgets(t *testing.T) {
	fs := gen.Files{"h.h": "#include \"g.h\"\nint h;\n", "g.h": "int g1, g2;\n",
		"1.cu": "#include \"h.h\"\n#include \"h.h\"\n#include \"h.h\"\n"}
	for _, lim := range []Limits{{Includes: 5}, {IncludedBytes: 60}, {Tokens: 12}} {
		t.Run(fmt.Sprint(lim), func(t *testing.T) { checkMemo(t, fs, []string{"1.cu"}, Config{Limits: lim}) })
	}
}

func TestHeaderCacheTemplateProject(t *testing.T) {
	fs, mains := gen.TemplateProject(12, 20)
	if got := checkMemo(t, fs, mains, Config{}); got < 20 {
		t.Errorf("%d replays, want at least 20", got)
	}
}

var sourceExts = map[string]bool{".cu": true, ".cuh": true, ".h": true, ".c": true, ".cpp": true}

// The files of the repository, preprocessed through a shared cache, give
// what they give alone.
func TestHeaderCacheRepositoryFiles(t *testing.T) {
	var paths []string
	for _, dir := range []string{"../../testdata", "../../examples"} {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && sourceExts[filepath.Ext(p)] {
				paths = append(paths, p)
			}
			return nil
		})
	}
	if len(paths) == 0 {
		t.Fatal("no files found")
	}
	memo := Config{Headers: NewHeaderCache()}
	for round := 0; round < 2; round++ {
		for _, p := range paths {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := comparable(Preprocess(p, src, memo)), comparable(Preprocess(p, src, Config{})); got != want {
				t.Errorf("%s differs with the header cache", p)
			}
		}
	}
}

// FuzzHeaderCache: any header, included by files that see different macro
// states and by itself twice, preprocesses with the cache as without it.
func FuzzHeaderCache(f *testing.F) {
	for _, s := range gen.FuzzSeeds("../..") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header []byte) {
		fs := gen.Files{"h.h": string(header),
			"1.cu": "#include \"h.h\"\nint a;\n",
			"2.cu": "#define A 1\n#define F(x) x\n#include \"h.h\"\n#include \"h.h\"\n(2)\n",
			"3.cu": "#if 1\n#include \"h.h\"\n#endif\nint b;\n",
		}
		checkMemo(t, fs, []string{"1.cu", "2.cu", "3.cu", "1.cu"}, Config{Limits: Limits{Includes: 50, Tokens: 5000}})
	})
}

// Files that load in parallel both record a header none has kept yet; the
// cache keeps one recording per key, and a different macro state is still
// a variant of its own.
func TestHeaderCacheOneRecordingPerKey(t *testing.T) {
	tests := []struct {
		name     string
		mains    []string // each preprocessed at the same time as the others
		variants int
	}{
		{"same state", []string{"int a;\n#include \"h.cuh\"\n", "int b;\n#include \"h.cuh\"\n", "#include \"h.cuh\"\n"}, 1},
		{"two states", []string{"#define N 1\n#include \"h.cuh\"\n", "int a;\n#include \"h.cuh\"\n", "#include \"h.cuh\"\n"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var arrived sync.WaitGroup
			arrived.Add(len(tt.mains))
			read := func(path string) ([]byte, error) {
				if path != "h.cuh" {
					return nil, os.ErrNotExist
				}
				arrived.Done()
				arrived.Wait() // every file has read the header before any records it
				return []byte("#ifdef N\nint n = N;\n#endif\nint h;\n"), nil
			}
			cfg := Config{ReadFile: read, Headers: NewHeaderCache()}
			var done sync.WaitGroup
			for i, m := range tt.mains {
				done.Add(1)
				go func() {
					defer done.Done()
					Preprocess(fmt.Sprintf("main%d.cu", i), []byte(m), cfg)
				}()
			}
			done.Wait()
			if got := len(cfg.Headers.variants("h.cuh")); got != tt.variants {
				t.Errorf("%d recordings of h.cuh kept, want %d", got, tt.variants)
			}
		})
	}
}

// Forget drops the recordings that read a header, its own and those of
// the headers including it, and keeps the others; preprocessing after
// the header's text changed then gives what it gives without a cache.
func TestHeaderCacheForget(t *testing.T) {
	base := gen.Files{
		"leaf.h":  "#pragma once\nint leaf = 1;\n",
		"mid.h":   "#pragma once\n#include \"leaf.h\"\nint mid;\n",
		"other.h": "#pragma once\nint other;\n",
		"1.cu":    "#include \"mid.h\"\n#include \"other.h\"\n",
	}
	tests := []struct {
		forget, changed string
		kept            []string // headers whose recordings stay
	}{
		{"leaf.h", "leaf.h", []string{"other.h"}},
		{"./leaf.h", "leaf.h", []string{"other.h"}}, // spelled otherwise
		{"mid.h", "mid.h", []string{"leaf.h", "other.h"}},
		{"other.h", "other.h", []string{"leaf.h", "mid.h"}},
	}
	for _, tt := range tests {
		t.Run(tt.forget, func(t *testing.T) {
			fs := gen.Files{}
			for k, v := range base {
				fs[k] = v
			}
			cfg := Config{ReadFile: fs.Read, Headers: NewHeaderCache()}
			Preprocess("1.cu", []byte(fs["1.cu"]), cfg)
			// The same length: only the text tells the recordings apart.
			fs[tt.changed] = strings.Replace(fs[tt.changed], "int", "for", 1)
			cfg.Headers.Forget(tt.forget)
			for _, h := range []string{"leaf.h", "mid.h", "other.h"} {
				if got, want := len(cfg.Headers.variants(h)) > 0, slices.Contains(tt.kept, h); got != want {
					t.Errorf("after Forget(%s): %s recorded %v, want %v", tt.forget, h, got, want)
				}
			}
			want := comparable(Preprocess("1.cu", []byte(fs["1.cu"]), Config{ReadFile: fs.Read}))
			if got := comparable(Preprocess("1.cu", []byte(fs["1.cu"]), cfg)); got != want {
				t.Errorf("after Forget(%s): with the cache\n%s\nwithout\n%s", tt.forget, got, want)
			}
		})
	}
}
