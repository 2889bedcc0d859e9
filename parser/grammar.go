package parser

import (
	"errors"
	"io"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The participle grammar for CUDA C declarations and expressions.
//
// Participle parses one statement's tokens at a time, which the structural
// scanner (structure.go) has already delimited: a failure stays local to
// that statement, and no byte of host code the scanner skips ever reaches
// participle. Expressions are read by precedence climbing (exprparse.go),
// which keeps participle from backtracking through a dozen precedence
// levels; expression statements and declarations of the common shapes are
// read by hand (fastdecl.go) into the same trees, and participle reads the
// rest.

// Token types the grammar refers to by name.
const (
	ttIdent lexer.TokenType = -(iota + 2)
	ttTypeName
	ttTypeKw
	ttQual
	ttSpec
	ttTag
	ttKeyword
	ttNumber
	ttString
	ttChar
	ttPunct
	ttBinOp
)

var grammarSymbols = map[string]lexer.TokenType{
	"EOF": lexer.EOF, "Ident": ttIdent, "TypeName": ttTypeName, "TypeKw": ttTypeKw,
	"Qual": ttQual, "Spec": ttSpec, "Tag": ttTag, "Keyword": ttKeyword,
	"Number": ttNumber, "String": ttString, "Char": ttChar, "Punct": ttPunct, "BinOp": ttBinOp,
}

var typeKeywords = setOf("void", "char", "short", "int", "long", "float", "double", "signed",
	"unsigned", "bool", "auto", "_Bool", "__int128")
var qualKeywords = setOf("const", "volatile", "__restrict__", "__restrict", "restrict")
var specKeywords = setOf("static", "extern", "__shared__", "__constant__", "__device__", "__host__",
	"__managed__", "register", "inline", "__inline__", "__forceinline__", "__noinline__", "constexpr",
	"mutable", "thread_local", "__global__")
var tagKeywords = setOf("struct", "union", "class", "enum", "typename")
var otherKeywords = setOf("sizeof", "static_cast", "reinterpret_cast", "const_cast", "dynamic_cast",
	"return", "if", "else", "for", "while", "do", "switch", "case", "default", "break", "continue",
	"goto", "template", "namespace", "using", "typedef", "operator", "new", "delete", "throw", "try", "catch")

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

type gComma struct {
	Pos   lexer.Position
	Exprs []*gExpr `parser:"@@ ( ',' @@ )*"`
}

// gExpr is an expression without top-level commas. It implements
// participle.Parseable: expressions are read by precedence climbing in
// exprparse.go, which is an order of magnitude faster than letting
// participle try every alternative at every token; the declarations,
// types and declarators around them remain participle grammar.
type gExpr struct {
	Pos  lexer.Position
	Head *gUnary
	Tail []*gOp
}

type gOp struct {
	Pos lexer.Position
	Op  string
	Rhs *gUnary
}

type gUnary struct {
	Pos  lexer.Position
	End  int // index of the last token
	Pre  []*gPrefix
	Prim *gPrimary
	Post []*gPostfix
}

type gPrefix struct {
	Pos  lexer.Position
	Cast *gCastType
	Op   string
}

type gBaseType struct {
	Pos   lexer.Position
	Quals []string    `parser:"@Qual*"`
	Words []string    `parser:"( @TypeKw+ | Tag? @(TypeName | Ident) ( '::' @(TypeName | Ident) )* )"`
	Targs []*gTypeArg `parser:"( '<' @@ ( ',' @@ )* '>' )?"`
	// Nested names a member type of a template: vec3<T>::Type.
	Nested []string `parser:"( '::' @(TypeName | Ident) )*"`
	More   []string `parser:"@(Qual | TypeKw)*"`
}

// gTypeArg is a template argument inside a type: a type or a number.
type gTypeArg struct {
	Type *gCastType `parser:"  @@"`
	Num  *string    `parser:"| @Number"`
}

type gCastType struct {
	Pos   lexer.Position
	Base  *gBaseType `parser:"@@"`
	Stars []string   `parser:"@( '*' | '&' | '&&' | Qual )*"`
}

type gPrimary struct {
	Pos     lexer.Position
	CppCast *gCppCast
	Sizeof  *gSizeof
	Ctor    *gCtor
	Lambda  *gLambda
	Paren   *gComma
	Fold    *gComma // (... op pattern): a left fold over a parameter pack
	Init    *gInitList
	Number  *string
	Str     []string
	Char    *string
	Name    []string
	// Targs are template arguments after a launched kernel's name.
	Targs []*gTemplateArg
	// Scope are the template arguments of a qualifying class: Cls<A>::m.
	Scope []*gTemplateArg
}

type gTemplateArg struct {
	Type *gCastType
	X    *gExpr
	Pack bool // IN...: a pack expanded in place
}

type gCppCast struct {
	Pos  lexer.Position
	Kind string
	Type *gCastType
	X    *gComma
}

type gSizeof struct {
	Pos  lexer.Position
	Type *gCastType
	X    *gUnary
	Pack string // sizeof...(args): the pack's name
}

// gLambda is a lambda written in an expression, [captures](params) { body }:
// the span of its tokens, From at '[' and To after '}', relative to the
// statement; its parameters and body are read by the structural parser.
type gLambda struct {
	From, To int
}

type gCtor struct {
	Pos  lexer.Position
	Type []string
	Args *gArgList
}

type gArgList struct {
	Pos  lexer.Position
	Args []*gExpr `parser:"( @@ ( ',' @@ )* )?"`
	// Packs marks the arguments written as pack expansions, f(args...);
	// nil when there is none.
	Packs []bool
}

type gInitList struct {
	Pos   lexer.Position
	Elems []*gInitElem `parser:"'{' ( @@ ( ',' @@ )* ','? )? '}'"`
}

type gInitElem struct {
	Pos   lexer.Position
	Field *string `parser:"( '.' @Ident '=' )?"`
	X     *gExpr  `parser:"@@"`
	Pack  bool    // {f(args)...}: a pattern expanded over a pack
}

type gPostfix struct {
	Pos    lexer.Position
	End    int // index of the last token
	Index  *gComma
	Call   *gArgList
	Launch *gLaunch
	Member *string
	Arrow  *string
	Op     *string
}

type gLaunch struct {
	Pos    lexer.Position
	Config []*gExpr
	Args   *gArgList
}

type gDecl struct {
	Pos   lexer.Position
	Specs []string       `parser:"@Spec*"`
	Type  *gBaseType     `parser:"@@"`
	Decls []*gDeclarator `parser:"@@ ( ',' @@ )*"`
}

type gDeclarator struct {
	Pos   lexer.Position
	Ptrs  []string   `parser:"@( '*' | '&' | '&&' | Qual )*"`
	Name  string     `parser:"@(Ident | TypeName)"`
	Dims  []*gDim    `parser:"@@*"`
	Init  *gExpr     `parser:"( '=' @@"`
	Ctor  *gArgList  `parser:"| '(' @@ ')'"`
	Brace *gInitList `parser:"| @@ )?"`
}

type gDim struct {
	Pos  lexer.Position
	Size *gExpr `parser:"'[' @@? ']'"`
}

type gParam struct {
	Pos     lexer.Position
	Specs   []string   `parser:"@Spec*"`
	Type    *gBaseType `parser:"@@"`
	Ptrs    []string   `parser:"@( '*' | '&' | '&&' | Qual )*"`
	Pack    bool       `parser:"@'...'?"`
	Name    *string    `parser:"@(Ident | TypeName)?"`
	Dims    []*gDim    `parser:"@@*"`
	Default *gExpr     `parser:"( '=' @@ )?"`
}

// gParamList is a whole parameter list: one participle call per function.
type gParamList struct {
	Pos    lexer.Position
	Params []*gParam `parser:"@@ ( ',' @@ )*"`
}

type lexDef struct{}

func (lexDef) Symbols() map[string]lexer.TokenType { return grammarSymbols }
func (lexDef) Lex(string, io.Reader) (lexer.Lexer, error) {
	return nil, errors.New("cudalint feeds participle pre-scanned tokens")
}

func build[G any]() *participle.Parser[G] {
	return participle.MustBuild[G](participle.Lexer(lexDef{}), participle.UseLookahead(1))
}

var (
	exprParser   = build[gComma]()
	declParser   = build[gDecl]()
	paramParser  = build[gParam]()
	paramsParser = build[gParamList]()
	typeParser   = build[gCastType]()
)
