package symbolic

// SymID is a symbol's identity, the key Subst, Mentions, Coefficient, Eval
// and Env go by. It is not a name: only this package makes one, from a
// symbol (Var.Key) or from what a symbol stands for (ThreadIdx(X).ID(),
// ParamID), so that a name, or a misspelt builtin, cannot be passed where
// an identity is meant.
type SymID struct{ key string }

// Axis is a builtin's dimension.
type Axis int8

const (
	X Axis = iota
	Y
	Z
)

// Axes are x, y and z, in order: loops over a dim3 range over them.
var Axes = [3]Axis{X, Y, Z}

func (a Axis) String() string { return [...]string{"x", "y", "z"}[a] }

// Builtin is one of CUDA's index and size variables along an axis:
// threadIdx.x, blockDim.z.
type Builtin struct {
	Kind SymKind // KindThreadIdx, KindBlockIdx, KindBlockDim or KindGridDim
	Axis Axis
}

// ThreadIdx, BlockIdx, BlockDim and GridDim are the builtins along a.
func ThreadIdx(a Axis) Builtin { return Builtin{KindThreadIdx, a} }
func BlockIdx(a Axis) Builtin  { return Builtin{KindBlockIdx, a} }
func BlockDim(a Axis) Builtin  { return Builtin{KindBlockDim, a} }
func GridDim(a Axis) Builtin   { return Builtin{KindGridDim, a} }

// BuiltinKinds are the kinds of the builtins, in the order of SymKind.
var BuiltinKinds = [4]SymKind{KindThreadIdx, KindBlockIdx, KindBlockDim, KindGridDim}

// builtinSyms holds every builtin symbol, by kind and axis: they are
// immutable, so shared by every reference instead of rebuilt at each.
var builtinSyms = func() (out [len(BuiltinKinds)][len(Axes)]Expr) {
	for i, k := range BuiltinKinds {
		c := Uniform
		if k == KindThreadIdx {
			c = Lane
		}
		for _, a := range Axes {
			out[i][a] = NewSym(Var{Name: k.String() + "." + a.String(), Class: c, Kind: k, Axis: a})
		}
	}
	return out
}()

// Sym is the builtin as an expression.
func (b Builtin) Sym() Expr { return builtinSyms[b.Kind-KindThreadIdx][b.Axis] }

// ID is the builtin's identity.
func (b Builtin) ID() SymID { return idOf(b.Sym()) }

// String is the builtin as CUDA spells it, for messages.
func (b Builtin) String() string { return b.Kind.String() + "." + b.Axis.String() }

// ParamSym is a uniform value the user can give, called name: a kernel
// parameter, a template value, a name no header read defines.
func ParamSym(name string) Expr {
	return NewSym(Var{Name: name, Class: Uniform, Kind: KindParam, Of: name})
}

// ParamID is the identity of ParamSym(name): a launch's or the user's
// value for the parameter binds it. A parameter is identified by its name
// (identityOf), so none is built here: launches bind many.
func ParamID(name string) SymID { return SymID{name} }

// BaseSym is the byte offset at which pointer parameter param points into
// its allocation (0 unless a launch says otherwise).
func BaseSym(param string) Expr {
	return NewSym(Var{Name: "base(" + param + ")", Class: Uniform, Kind: KindBase, Of: param})
}

// BaseID is the identity of BaseSym(param).
func BaseID(param string) SymID { return idOf(BaseSym(param)) }

// NonNullSym says whether pointer parameter param is non-null (1) or null
// (0). Its name is for printing only: code reads the parameter from Of.
func NonNullSym(param string) Expr {
	return NewSym(Var{Name: "nonnull(" + param + ")", Class: Uniform, Kind: KindNonNull, Of: param})
}

// NonNullID is the identity of NonNullSym(param).
func NonNullID(param string) SymID { return idOf(NonNullSym(param)) }

// EntrySym is the placeholder for the value variable name has on entry to
// a loop; the loop's analysis substitutes it.
func EntrySym(name string) Expr {
	return NewSym(Var{Name: "entry:" + name, Class: Uniform, Kind: KindEntry, Of: name})
}

// EntryID is the identity of EntrySym(name).
func EntryID(name string) SymID { return idOf(EntrySym(name)) }

// IDOf is the identity of the symbol e is; ok is false when e is not
// exactly one symbol.
func IDOf(e Expr) (SymID, bool) {
	v, ok := AsVar(e)
	if !ok {
		return SymID{}, false
	}
	return v.Key(), true
}

func idOf(e Expr) SymID {
	id, _ := IDOf(e)
	return id
}
