package cpp

import (
	"os"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/parser/lex"
)

// memFiles reads included files from a map.
func memFiles(files map[string]string) func(string) ([]byte, error) {
	return func(path string) ([]byte, error) {
		if text, ok := files[path]; ok {
			return []byte(text), nil
		}
		return nil, os.ErrNotExist
	}
}

// Each budget of a translation unit stops it with one note at the place
// it ran out; what came before is kept.
func TestUnitBudgets(t *testing.T) {
	big := "int " + strings.Repeat("x, ", 1000) + "y;\n"
	tests := []struct {
		name   string
		main   string
		files  map[string]string
		limits Limits
		want   string // in the one budget note
		at     string // its file
		line   int32  // and line
		keep   string // a token that still comes through
	}{
		{"includes", "int kept;\n#include \"twice.h\"\n", map[string]string{"twice.h": "#include \"twice.h\"\n#include \"twice.h\"\n"},
			Limits{Includes: 100}, "more than 100 includes", "twice.h", 1, "kept"},
		{"included bytes", "int kept;\n#include \"big.h\"\n#include \"big.h\"\n#include \"big.h\"\n", map[string]string{"big.h": big},
			Limits{IncludedBytes: int64(2*len(big) + 1)}, "more than 6015 bytes", "main.cu", 4, "kept"},
		{"tokens", "int kept;\n#include \"big.h\"\nint after;\n", map[string]string{"big.h": big},
			Limits{Tokens: 500}, "more than 500 tokens", "big.h", 1, "kept"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pp := Preprocess("main.cu", []byte(tt.main), Config{ReadFile: memFiles(tt.files), Limits: tt.limits})
			var budget []lex.Note
			for _, n := range pp.Notes {
				if strings.Contains(n.Msg, "more than") && !strings.Contains(n.Msg, "deep") {
					budget = append(budget, n)
				}
			}
			if len(budget) != 1 || !strings.Contains(budget[0].Msg, tt.want) || budget[0].Pos.File != tt.at || budget[0].Pos.Line != tt.line {
				t.Fatalf("budget notes %v, want one with %q at %s:%d", budget, tt.want, tt.at, tt.line)
			}
			if tt.limits.Tokens > 0 && len(pp.Tokens) > tt.limits.Tokens {
				t.Errorf("%d tokens, over the budget of %d", len(pp.Tokens), tt.limits.Tokens)
			}
			if !strings.Contains(texts(pp.Tokens), tt.keep) {
				t.Errorf("%q lost", tt.keep)
			}
		})
	}
}

// A header that includes itself twice would expand 2^64 times under the
// depth limit alone; the default budget ends it quickly, with notes that
// stay few.
func TestSelfIncludingTwiceEnds(t *testing.T) {
	files := map[string]string{"self.h": "#include \"self.h\"\n#include \"self.h\"\nint x;\n"}
	pp := Preprocess("main.cu", []byte("#include \"self.h\"\nint end;\n"), Config{ReadFile: memFiles(files)})
	budget := false
	for _, n := range pp.Notes {
		budget = budget || strings.Contains(n.Msg, "includes; no more are read")
	}
	if !budget || len(pp.Notes) > 10 {
		t.Errorf("%d notes, budget noted %v; want the include budget noted and few notes", len(pp.Notes), budget)
	}
	if got := strings.Count(texts(pp.Tokens), "int x"); got > DefaultLimits.Includes {
		t.Errorf("%d copies of the header, over the budget", got)
	}
}

// A file the reader refuses is a note with the reason at the directive,
// quoted or angled, and the search stops there.
func TestRefusedIncludeIsNoted(t *testing.T) {
	read := func(path string) ([]byte, error) {
		if strings.HasSuffix(path, "secret") {
			return nil, &RefusedError{Path: path, Reason: "outside the root"}
		}
		return []byte("int leaked;\n"), nil
	}
	src := "#include \"../secret\"\n#include <../secret>\n"
	pp := Preprocess("main.cu", []byte(src), Config{ReadFile: read, IncludeDirs: []string{"inc"}})
	if len(pp.Notes) != 2 {
		t.Fatalf("notes %v, want two", pp.Notes)
	}
	for i, n := range pp.Notes {
		if n.Pos.Line != int32(i+1) || !strings.Contains(n.Msg, `"../secret" not read: outside the root`) {
			t.Errorf("note %v", n)
		}
	}
	if len(pp.Tokens) != 0 {
		t.Errorf("tokens %s: another folder was searched after the refusal", texts(pp.Tokens))
	}
}

// Substitutions are charged to the expansion budget as they copy, not only
// when an expansion ends: a body that uses its argument twice, nested 22
// deep, doubles to 4 M tokens before the outermost expansion returns. Each
// stops at the budget with one note at the invocation that ran out, keeps
// what the file says before and after, and stays within the budget.
func TestSubstitutionsAreBudgeted(t *testing.T) {
	tests := []struct {
		name, def string
		depth     int
		col       int32 // of the invocation the note names
	}{
		{"doubling", "#define D(x) x x\n", 22, 9},
		{"tripling", "#define D(x) x x x\n", 14, 9},
		{"variadic", "#define D(...) __VA_ARGS__ __VA_ARGS__\n", 22, 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.def + "int v = " + strings.Repeat("D(", tt.depth) + "1" + strings.Repeat(")", tt.depth) + ";\nint after;\n"
			pp := Preprocess("bomb.cu", []byte(src), Config{})
			var budget []lex.Note
			for _, n := range pp.Notes {
				if n.Kind == lex.NoteExpansionLimit {
					budget = append(budget, n)
				}
			}
			if len(budget) != 1 || budget[0].Pos.File != "bomb.cu" || budget[0].Pos.Line != 2 || budget[0].Pos.Col < tt.col {
				t.Fatalf("expansion notes %v, want one at bomb.cu:2 past column %d", budget, tt.col)
			}
			if len(pp.Tokens) > maxExpandedTokens {
				t.Errorf("%d tokens, over the expansion budget of %d", len(pp.Tokens), maxExpandedTokens)
			}
			text := texts(pp.Tokens)
			if !strings.HasPrefix(text, "int v =") || !strings.Contains(text, "int after ;") {
				t.Errorf("what the file says around the invocation is lost: %.40q ... %.40q", text, text[max(0, len(text)-40):])
			}
		})
	}
}
