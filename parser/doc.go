// Package parser reads CUDA C source into syntax trees (File, Func,
// Stmt, Expr). Bytes go through the preprocessor (parser/cpp), whose
// tokens (parser/lex) keep their original positions; a structural scanner
// (structure.go, stmt.go) splits them into top-level items and statements
// by bracket matching alone. Expressions are read by hand, by precedence
// climbing (exprparse.go), and so are the common declarations and
// parameter lists (fastdecl.go); the participle grammar (grammar.go)
// reads the declarations only it can read. A construct it does not
// understand becomes a BadStmt with a Note and the identifiers it
// mentions, and the rest of the file is still parsed.
//
// Meaning is typed: an operator is an Op (Add, Lss, LogAnd, ...; its
// String is the C spelling), a jump a JumpKind, a note carries a
// lex.NoteKind and a directive its lex.DirectiveVerb. Inspect walks a
// body's statements and expressions, pruning where its callback says.
//
// Pos, Token, Note, Notes and Directive are the lex package's, named here
// too so that the syntax tree's users need not import it.
package parser

import (
	"github.com/cudalint/cudalint/parser/cpp"
	"github.com/cudalint/cudalint/parser/lex"
)

// Aliases for the token vocabulary the syntax tree is made of.
type (
	Pos       = lex.Pos
	Unroll    = lex.Unroll
	Token     = lex.Token
	Note      = lex.Note
	Notes     = lex.Notes
	Directive = lex.Directive
	// HiddenDefine is a #define a conditional not taken skipped.
	HiddenDefine = lex.HiddenDefine
)

// Config tells the parser about the world outside the file: what the
// preprocessor needs (see cpp.Config, whose fields these are) and the
// caches a run shares between its files.
type Config struct {
	// Defines are -D NAME=VALUE definitions; an empty value defines NAME as 1.
	Defines map[string]string
	// IncludeDirs are searched, after the including file's folder, for
	// #include "..." files; sources.Load also lets includes read them when
	// they lie outside Root.
	IncludeDirs []string
	// Root is the folder whose files includes may read (with IncludeDirs);
	// sources.Load's reader enforces it. Empty means the repository root
	// of the working directory, or the working directory outside one.
	Root string
	// ReadFile reads an included file; nil means cpp.ReadSource. An error
	// of type *cpp.RefusedError is noted at the #include with its reason.
	ReadFile func(path string) ([]byte, error)
	// Limits bound each translation unit; zero fields take cpp.DefaultLimits.
	Limits cpp.Limits
	// Items, when set, shares the parsed items of included files between
	// the files of a run.
	Items *ItemCache
	// Headers, when set, shares the preprocessed output of included files
	// between the files of a run (see cpp.HeaderCache).
	Headers *cpp.HeaderCache
}

// preprocessor is the preprocessor's part of c.
func (c Config) preprocessor() cpp.Config {
	return cpp.Config{Defines: c.Defines, IncludeDirs: c.IncludeDirs, Root: c.Root, ReadFile: c.ReadFile, Limits: c.Limits, Headers: c.Headers}
}
