package parser

import (
	"os"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/internal/gen"
	"github.com/cudalint/cudalint/parser/cpp"
)

func addSeeds(f *testing.F) {
	for _, s := range gen.FuzzSeeds("..") {
		f.Add(s)
	}
}

// FuzzParse: any input parses without panicking, and every note has a
// position in the file.
func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		file := Parse("fuzz.cu", src, Config{ReadFile: func(string) ([]byte, error) { return nil, os.ErrNotExist }})
		for _, n := range file.Notes {
			if n.Pos.File == "" || strings.TrimSpace(n.Msg) == "" {
				t.Fatalf("note without position or text: %+v", n)
			}
		}
		for _, fn := range file.Funcs {
			if fn.Body == nil {
				t.Fatalf("function %s without body", fn.Name)
			}
		}
	})
}

// FuzzChunkedParse: reading a file item by item finds every function and
// struct that parsing its whole token stream finds. (It may find more:
// after a stray top-level "{}" the whole-stream reading skips to the next
// ';', where items end at the brace.)
func FuzzChunkedParse(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		noInclude := Config{ReadFile: func(string) ([]byte, error) { return nil, os.ErrNotExist }}
		chunked := Parse("fuzz.cu", src, noInclude)
		whole := ParseTokens("fuzz.cu", cpp.Preprocess("fuzz.cu", src, noInclude.preprocessor()).Tokens)
		names := func(f *File) map[string]int {
			n := map[string]int{}
			for _, fn := range f.Funcs {
				n[fn.Namespace+"::"+fn.Name]++
			}
			for _, s := range f.Structs {
				n["struct "+s.Name]++
			}
			return n
		}
		got := names(chunked)
		for name, k := range names(whole) {
			if got[name] < k {
				t.Fatalf("%s: %d item by item, %d in the whole stream", name, got[name], k)
			}
		}
	})
}
