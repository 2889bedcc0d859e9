package parser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileSeeds are small inputs that have broken parsers before.
var hostileSeeds = []string{
	"", "#", "#define", "#define F(", "#if", "#else\n#endif", "#include \"", "\"", "'", "/*", "\\",
	"__global__ void k(", "__global__ void k() {", "}}}}", "((((", "a[[[", "k<<<", "k<<<1,2>>>(",
	"template<", "template<typename T", "struct {", "typedef", "namespace {", "extern \"C\" {",
	"#define A A B\nA", "#define F(x) F(x)\nF(1)", "#define S(x) #x\nS(", "#define P(a,b) a##b\nP(,)",
	"\xff\xfe\x00\x01", "\xef\xbb\xbf", "int a\r\n= 1;\r\n", "a ? b : c ? d", "a ? b", "x = (int)(float*)",
	"__global__ void k(float* a) { for (;;) { for (;;) { a[0] = 1; } } }",
	"__global__ void k(float* a) { do do a[0]=1; while(0); while(1); }",
	"__global__ void k(float* a) { switch (1) case 1: a[0] = 0; }",
	"__global__ void k(float* a) { if (1) else a[0] = 0; }",
}

func addSeeds(f *testing.F) {
	for _, s := range hostileSeeds {
		f.Add([]byte(s))
	}
	files, _ := filepath.Glob("../testdata/*/*.cu")
	more, _ := filepath.Glob("../examples/*.cu")
	for _, path := range append(files, more...) {
		if src, err := os.ReadFile(path); err == nil {
			f.Add(src)
		}
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
		whole := ParseTokens("fuzz.cu", Preprocess("fuzz.cu", src, noInclude).Tokens)
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
