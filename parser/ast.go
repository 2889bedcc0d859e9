package parser

import "github.com/cudalint/cudalint/parser/ptx"

// The syntax tree. Expressions come from the precedence-climbing reader
// (exprparse.go), declarations from the hand-written readers (fastdecl.go)
// or the participle grammar (grammar.go); statements and top-level items
// from the structural scanner (structure.go). Every node knows where it
// starts.

// Node is any syntax node.
type Node interface{ Start() Pos }

// Expr is an expression.
type Expr interface {
	Node
	exprNode()
}

type (
	// Ident is a name, possibly qualified (a::b); a launched template
	// kernel carries its template arguments.
	Ident struct {
		P     Pos
		Name  string
		Targs []TemplateArg
		// Scope are the template arguments of the class that qualifies
		// the name: <8, 8> in Transform<8, 8>::run.
		Scope []TemplateArg
	}
	// IntLit is an integer literal.
	IntLit struct {
		P     Pos
		Value int64
		Text  string
	}
	// FloatLit is a floating-point literal.
	FloatLit struct {
		P    Pos
		Text string
	}
	// StringLit is a string or character literal.
	StringLit struct {
		P    Pos
		Text string
	}
	// Unary is a prefix operator: - + ! ~ * & ++ --.
	Unary struct {
		P  Pos
		Op Op
		X  Expr
		E  Pos
	}
	// Postfix is x++ or x--.
	Postfix struct {
		P  Pos
		Op Op
		X  Expr
		E  Pos
	}
	// Binary is a binary operator, assignments and the comma included.
	Binary struct {
		P    Pos
		Op   Op
		X, Y Expr
	}
	// Ternary is c ? a : b.
	Ternary struct {
		P                Pos
		Cond, Then, Else Expr
	}
	// Call is f(args), including functional casts such as float4(a, b, c, d).
	Call struct {
		P    Pos
		Fun  Expr
		Args []Expr
		E    Pos
	}
	// Launch is kernel<<<config>>>(args).
	Launch struct {
		P      Pos
		Kernel Expr
		Config []Expr
		Args   []Expr
	}
	// Index is x[i].
	Index struct {
		P     Pos
		X     Expr
		Index Expr
		E     Pos
	}
	// Member is x.name or x->name.
	Member struct {
		P     Pos
		X     Expr
		Name  string
		Arrow bool
		E     Pos
	}
	// Cast is (T)x, static_cast<T>(x) and friends.
	Cast struct {
		P    Pos
		Type *TypeRef
		X    Expr
	}
	// SizeofType is sizeof(T).
	SizeofType struct {
		P    Pos
		Type *TypeRef
	}
	// SizeofExpr is sizeof x.
	SizeofExpr struct {
		P Pos
		X Expr
	}
	// InitList is { a, b, c }.
	InitList struct {
		P     Pos
		Elems []Expr
	}
	// PackExpansion is x... in an argument or initializer list: the
	// pattern x repeated for each element of the parameter packs it
	// names, a number of values the parser cannot know.
	PackExpansion struct {
		P Pos
		X Expr
		// Fold: (... op X), whose pattern may name other things before
		// the pack.
		Fold bool
	}
	// SizeofPack is sizeof...(Pack): how many elements a pack holds.
	SizeofPack struct {
		P    Pos
		Pack string
	}
	// Lambda is [captures](params) { body }: Fn holds the parameters and
	// the body; ByRef is set when the default capture is by reference.
	Lambda struct {
		P     Pos
		Fn    *Func
		ByRef bool
	}
)

func (e *Call) End() Pos    { return e.E }
func (e *Index) End() Pos   { return e.E }
func (e *Member) End() Pos  { return e.E }
func (e *Unary) End() Pos   { return e.E }
func (e *Postfix) End() Pos { return e.E }

func (e *Ident) Start() Pos         { return e.P }
func (e *IntLit) Start() Pos        { return e.P }
func (e *FloatLit) Start() Pos      { return e.P }
func (e *StringLit) Start() Pos     { return e.P }
func (e *Unary) Start() Pos         { return e.P }
func (e *Postfix) Start() Pos       { return e.P }
func (e *Binary) Start() Pos        { return e.P }
func (e *Ternary) Start() Pos       { return e.P }
func (e *Call) Start() Pos          { return e.P }
func (e *Launch) Start() Pos        { return e.P }
func (e *Index) Start() Pos         { return e.P }
func (e *Member) Start() Pos        { return e.P }
func (e *Cast) Start() Pos          { return e.P }
func (e *SizeofType) Start() Pos    { return e.P }
func (e *SizeofExpr) Start() Pos    { return e.P }
func (e *InitList) Start() Pos      { return e.P }
func (e *Lambda) Start() Pos        { return e.P }
func (e *PackExpansion) Start() Pos { return e.P }
func (e *SizeofPack) Start() Pos    { return e.P }

func (*Ident) exprNode()         {}
func (*IntLit) exprNode()        {}
func (*FloatLit) exprNode()      {}
func (*StringLit) exprNode()     {}
func (*Unary) exprNode()         {}
func (*Postfix) exprNode()       {}
func (*Binary) exprNode()        {}
func (*Ternary) exprNode()       {}
func (*Call) exprNode()          {}
func (*Launch) exprNode()        {}
func (*Index) exprNode()         {}
func (*Member) exprNode()        {}
func (*Cast) exprNode()          {}
func (*SizeofType) exprNode()    {}
func (*SizeofExpr) exprNode()    {}
func (*InitList) exprNode()      {}
func (*Lambda) exprNode()        {}
func (*PackExpansion) exprNode() {}
func (*SizeofPack) exprNode()    {}

// TemplateArg is one template argument: a type or a value.
type TemplateArg struct {
	Type  *TypeRef
	Value Expr
}

// TypeRef names a type as written: the base words ("unsigned", "int";
// "float4"; "S12"), qualifiers, and pointer levels.
type TypeRef struct {
	P     Pos
	Words []string // base type words, qualifiers removed
	Const bool
	Ptr   int  // number of '*'
	Ref   bool // a trailing '&'
	// Restrict: the pointer is declared __restrict__ (no other pointer
	// the function uses reaches what it points to), so the compiler
	// reuses what it loaded through it across stores elsewhere.
	Restrict bool
	// Targs are a class template's arguments: <float> in Packed<float>.
	Targs []TemplateArg
}

// Declarator is one name introduced by a declaration.
type Declarator struct {
	P     Pos
	Name  string
	Type  *TypeRef // the base type with this declarator's pointers applied
	Dims  []Expr   // array dimensions; a nil element for []
	Init  Expr     // = init, or nil
	Ctor  []Expr   // T name(args), or nil
	IsCtr bool     // written with parentheses or braces
}

// Decl is a declaration: storage and CUDA memory-space specifiers, a type,
// and one or more declarators.
type Decl struct {
	P           Pos
	Specs       []string // static, extern, __shared__, __constant__, __device__, ...
	Declarators []*Declarator
}

// HasSpec reports whether the declaration carries the given specifier.
func (d *Decl) HasSpec(s string) bool {
	for _, x := range d.Specs {
		if x == s {
			return true
		}
	}
	return false
}

// Stmt is a statement.
type Stmt interface {
	Node
	stmtNode()
}

type (
	// Block is { stmts }.
	Block struct {
		P     Pos
		Stmts []Stmt
	}
	// DeclStmt is a local declaration.
	DeclStmt struct{ Decl *Decl }
	// ExprStmt is an expression followed by ';'.
	ExprStmt struct{ X Expr }
	// If is if (Cond) Then else Else.
	If struct {
		P          Pos
		Cond       Expr
		Then, Else Stmt
		// Arch is what __CUDA_ARCH__ stands for in the condition
		// (if constexpr (__CUDA_ARCH__ >= 1000)), "" when it reads none:
		// the branch it leaves out is code for another architecture.
		Arch string
	}
	// For is for (Init; Cond; Post) Body; any part may be nil.
	For struct {
		P    Pos
		Init Stmt
		Cond Expr
		Post Expr
		Body Stmt
		// Unroll is the #pragma unroll just before the loop, if any.
		Unroll Unroll
		// RangeVars are the names a range-based for declares (for (auto
		// i : r), for (auto [k, v] : m)): its header is not modelled, and
		// they hold values cudalint does not know.
		RangeVars []string
	}
	// While is while (Cond) Body, or do Body while (Cond) when Do is set.
	While struct {
		P      Pos
		Cond   Expr
		Body   Stmt
		Do     bool
		Unroll Unroll
	}
	// Switch is switch (Tag) Body.
	Switch struct {
		P    Pos
		Tag  Expr
		Body Stmt
	}
	// Case is a case or default label; Value is nil for default.
	Case struct {
		P     Pos
		Value Expr
	}
	// Return is return X;
	Return struct {
		P Pos
		X Expr
	}
	// Jump is break, continue or goto.
	Jump struct {
		P    Pos
		Kind JumpKind
	}
	// Empty is ';' or a label.
	Empty struct{ P Pos }
	// BadStmt is a statement the parser could not read; Note says why.
	// Idents are the identifiers it mentions, each once, in order: what
	// it may change (an asm output, a lambda's capture).
	BadStmt struct {
		P      Pos
		Note   string
		Idents []string
		// Declares are the names it seems to declare: an identifier after
		// a type's last token (a name, *, &, >) and before =, ;, ',', [,
		// ( or {. int off = X<long, -1>::get(t); declares off.
		Declares []string
		// MovesMemory: the statement is inline assembly that reads or
		// writes memory (ptx.MovesMemory), whose traffic no prediction
		// prices, so its kernel's cost leaves it out.
		MovesMemory bool
	}
	// Asm is an inline-assembly statement whose template the model
	// follows: each of Instrs is a memory instruction it models, a
	// register or synchronisation instruction, or a predicate (package
	// ptx). An asm with any other instruction is a BadStmt naming it.
	Asm struct {
		P        Pos
		Template string       // the template, its literals joined and unescaped
		Operands []AsmOperand // the outputs, then the inputs: %N is Operands[N]
		Outputs  int          // how many of Operands are outputs
		Instrs   []ptx.Instr
	}
)

// AsmOperand is one operand of an asm: [Name] "Constraint" (X).
type AsmOperand struct {
	Name, Constraint string
	X                Expr
}

func (s *Block) Start() Pos    { return s.P }
func (s *DeclStmt) Start() Pos { return s.Decl.P }
func (s *ExprStmt) Start() Pos { return s.X.Start() }
func (s *If) Start() Pos       { return s.P }
func (s *For) Start() Pos      { return s.P }
func (s *While) Start() Pos    { return s.P }
func (s *Switch) Start() Pos   { return s.P }
func (s *Case) Start() Pos     { return s.P }
func (s *Return) Start() Pos   { return s.P }
func (s *Jump) Start() Pos     { return s.P }
func (s *Empty) Start() Pos    { return s.P }
func (s *BadStmt) Start() Pos  { return s.P }
func (s *Asm) Start() Pos      { return s.P }

func (*Block) stmtNode()    {}
func (*DeclStmt) stmtNode() {}
func (*ExprStmt) stmtNode() {}
func (*If) stmtNode()       {}
func (*For) stmtNode()      {}
func (*While) stmtNode()    {}
func (*Switch) stmtNode()   {}
func (*Asm) stmtNode()      {}
func (*Case) stmtNode()     {}
func (*Return) stmtNode()   {}
func (*Jump) stmtNode()     {}
func (*Empty) stmtNode()    {}
func (*BadStmt) stmtNode()  {}

// Param is a function parameter.
type Param struct {
	P    Pos
	Name string
	Type *TypeRef
	// ArrayLen is N of a reference (or pointer) to an array, T (&a)[N]:
	// Type is then a pointer to T, and N, a template value parameter or
	// a constant, is deduced from or matched with the argument's length.
	ArrayLen Expr
	// Pack marks a function parameter pack (Args... args): it stands
	// for any number of arguments, so the arguments from its place on
	// are not bound to the parameters by position.
	Pack bool
}

// TemplateParam is a template parameter: a type (typename T) or a value (int N).
type TemplateParam struct {
	Name    string
	IsType  bool
	Type    *TypeRef // for value parameters
	Default []Token  // as written, possibly empty
	// Func marks a pointer-to-function value parameter:
	// void (*F)(float*, int).
	Func bool
}

// FuncParam reports whether params[i] is a pointer-to-function value
// parameter: written so (void (*F)(float*)), or a value parameter whose
// type is neither arithmetic nor one of the template's own type
// parameters (template <fn_ptr F>, with using fn_ptr = void (*)(...)).
// Calling such a parameter is what only a function allows.
func FuncParam(params []TemplateParam, i int) bool {
	tp := params[i]
	if tp.Func {
		return true
	}
	if tp.IsType || tp.Type == nil || tp.Type.Ptr > 0 || len(tp.Type.Words) != 1 {
		return false
	}
	w := tp.Type.Words[0]
	if arithmeticNames[w] {
		return false
	}
	for _, other := range params {
		if other.IsType && other.Name == w {
			return false // template <class T, T v>
		}
	}
	return true
}

// arithmeticNames are the one-word types a value template parameter of
// a number has.
var arithmeticNames = map[string]bool{
	"int": true, "unsigned": true, "signed": true, "long": true, "short": true, "char": true, "bool": true, "auto": true,
	"size_t": true, "ptrdiff_t": true, "int8_t": true, "int16_t": true, "int32_t": true, "int64_t": true,
	"uint8_t": true, "uint16_t": true, "uint32_t": true, "uint64_t": true, "uint": true, "dim3": true,
}

// Func is a function definition.
type Func struct {
	P        Pos // of the name
	Name     string
	Global   bool // __global__: a kernel
	Device   bool // __device__
	Host     bool // __host__, or no execution-space specifier
	Template []TemplateParam
	Params   []*Param
	Result   *TypeRef
	Body     *Block
	// Namespace is the namespace the function is declared in, outermost
	// first ("a::b"; "" for the global one); an anonymous namespace is
	// named by where it opens (see VisibleNamespace).
	Namespace string
	// Usings are the using-directives and -declarations of the body.
	Usings []*Using
	// BlockAnnotation is the text of a "cudalint:block" comment directive
	// found right above the function, if any (set by the caller).
	BlockAnnotation string
	// LaunchBounds is the first argument of __launch_bounds__(...): the
	// most threads per block the kernel is compiled for, or nil.
	LaunchBounds Expr
	// Class is the struct or class a member function is defined in
	// (see Struct.Methods); Static marks a static member function, Ctor a
	// constructor, whose member initializer list is Inits.
	Class  string
	Static bool
	Ctor   bool
	Inits  []MemberInit
	// Specialized marks an explicit specialization of a function template
	// (template <> void f<half, 4>(...)), SpecArgs its arguments: a call
	// f<T, N>(...) runs it when its arguments are these.
	Specialized bool
	SpecArgs    []TemplateArg
}

// Using is "using namespace N;" (a using-directive: Namespace is N as
// written) or "using N::f;" (a using-declaration: Name is "N::f" as
// written), standing in namespace Scope or in a function body: it makes
// those names visible to unqualified lookup there.
type Using struct {
	P         Pos
	Scope     string
	Namespace string
	Name      string
}

// MemberInit is one entry of a constructor's member initializer list:
// Name(Args) or Name{Args}.
type MemberInit struct {
	P    Pos
	Name string
	Args []Expr
}

// Field is a member of a struct or union.
type Field struct {
	P    Pos
	Name string
	Type *TypeRef
	Dims []Expr
}

// Struct is a struct, union or class with its data members.
type Struct struct {
	P     Pos
	Name  string
	Union bool
	// Bases are the base classes, as named (struct Bwd : Base): their
	// members come first in the layout.
	Bases  []string
	Fields []*Field
	// Align is an explicit __align__(n) / alignas(n), or 0.
	Align int64
	// AlignExpr is an alignas argument that is no literal
	// (alignas(sizeof(T) * N) in a class template): its instance
	// evaluates it with the arguments bound.
	AlignExpr Expr
	// Incomplete is set when a member could not be read: the layout
	// computed from Fields is then a guess.
	Incomplete bool
	// Template are the parameters of a class template.
	Template []TemplateParam
	// Specialized marks a specialization (struct Array<uint4_t, N> {...}):
	// its layout is not the class template's.
	Specialized bool
	// SpecArgs are a specialization's arguments as written, one string
	// of tokens each ("uint4_t", "N").
	SpecArgs []string
	// Statics are the static data members with an initializer (static
	// constexpr int size = ...).
	Statics []*Declarator
	// Methods are the member functions defined in the body, constructors
	// included.
	Methods []*Func
	// Typedefs are the member aliases (using value_type = T;).
	Typedefs []*Typedef
}

// Typedef binds a name to a type (typedef T name; using name = T;).
type Typedef struct {
	P    Pos
	Name string
	Type *TypeRef
	Dims []Expr
	// Params are an alias template's parameters (template <class T,
	// int N> using Pack = ...;): what it names depends on arguments.
	Params []TemplateParam
}

// File is a parsed translation unit.
type File struct {
	Path     string
	Funcs    []*Func
	Structs  []*Struct
	Typedefs []*Typedef
	Globals  []*Decl // file-scope variable declarations
	Notes    Notes
	Includes []string
	Bytes    int
	// Directives are the cudalint: comments, in source order.
	Directives []Directive
	// Hidden are the #defines conditionals not taken skipped, the file's
	// and its headers' (Preprocessed.Hidden).
	Hidden []HiddenDefine
	// Sources is the text of the file and of everything it includes.
	Sources map[string][]byte
	// Instantiations are the explicit instantiations of function
	// templates: template void run<int>(int*);
	Instantiations []*Ident
	// Usings are the using-directives and using-declarations at
	// namespace scope, in the order met (headers' included).
	Usings []*Using
	// Unit, when set, is everything the translation unit defines, its
	// headers as this file's macros made them: a loader that keeps each
	// header definition in one file only (Funcs, Structs, Typedefs and
	// Globals are then this file's share) keeps the whole here.
	Unit *Decls
}

// Decls are the definitions of a translation unit.
type Decls struct {
	Funcs    []*Func
	Structs  []*Struct
	Typedefs []*Typedef
	Globals  []*Decl
	Usings   []*Using
}

// UnitDecls returns what f's translation unit defines: f.Unit when set,
// else f's own lists.
func (f *File) UnitDecls() Decls {
	if f.Unit != nil {
		return *f.Unit
	}
	return Decls{Funcs: f.Funcs, Structs: f.Structs, Typedefs: f.Typedefs, Globals: f.Globals, Usings: f.Usings}
}

// Text returns the source text between two positions of one file, or ""
// when they do not delimit a span of it.
func (f *File) Text(from, to Pos) string {
	src, ok := f.Sources[from.File]
	if !ok || from.File != to.File || from.Offset < 0 || int(to.Offset) > len(src) || from.Offset >= to.Offset {
		return ""
	}
	return string(src[from.Offset:to.Offset])
}

// Ender is implemented by the nodes that know where they end: the ones
// that can be memory accesses.
type Ender interface {
	// End is the position just after the node's last token.
	End() Pos
}
