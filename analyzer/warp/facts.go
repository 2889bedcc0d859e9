package warp

import (
	"fmt"

	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/symbolic"
)

// AssumptionKind says what a prediction had to assume.
type AssumptionKind uint8

const (
	// AssumedParam: a parameter no launch or setting gives, taken to be
	// AssumedValue (large: the prediction that holds for large sizes).
	AssumedParam AssumptionKind = iota
	// AssumedGrid: a grid dimension no launch gives.
	AssumedGrid
	// TripUnknown: a loop whose trip count is not known; Value
	// iterations were averaged.
	TripUnknown
	// TripCapped: a loop of Value iterations or more; the first Value
	// were averaged.
	TripCapped
	// AssumedNonNull: pointer Name, tested for null, taken to be set.
	AssumedNonNull
	// DataGuard: which lanes take part depends on the value loaded by
	// Name at Site (a guard on data): the figures count every lane.
	DataGuard
	// UniformResidue: the base adds the warp-uniform value loaded by Name
	// at Site (Cause CauseLoadedValue), or carried by variable Name around
	// the loop at Site (CauseLoopCarried), whose residue mod 32 bytes is
	// unknown: the figures are the mean over Value residues Step bytes
	// apart (Lo to Hi sectors).
	UniformResidue
	// TailGuard: the access is behind a guard that only lanes past the
	// bound set by parameter Name pass (a remainder, such as the last
	// partial chunk of a size): large sizes leave none or few. The
	// figures are those of the lanes that pass with Name = Value; Value
	// 0 when no lane passed at any size tried, and the figures then
	// count every lane.
	TailGuard
	// OneThread: a guard compares the thread index with a value every
	// thread of the block shares (onethread.go): at most one thread of
	// each block performs the access, and the figures are one thread's.
	OneThread
	// SharedIndex: the address adds the value loaded by Name at Site, at
	// an address every lane of a warp shares under the launch
	// (sharedindex.go): the same in every lane, whatever the data.
	SharedIndex
)

// Assumption is one value a prediction rests on that the code did not
// give. It is a value, not prose: rules read its kind, and String makes
// the words at the output edge.
type Assumption struct {
	Kind  AssumptionKind
	Name  string // the parameter, pointer or loaded value, or the grid axis (x, y, z)
	Value int64
	Line  int           // the loop's line, for the trip kinds
	Site  symbolic.Site // where the value was loaded
	Step  int64         // UniformResidue: bytes between the residues
	Lo    float64       // UniformResidue: the cheapest residue's sectors
	Hi    float64       // UniformResidue: the costliest residue's sectors
	Cause symbolic.UnknownCause
}

func (a Assumption) String() string {
	switch a.Kind {
	case AssumedGrid:
		return fmt.Sprintf("gridDim.%s = %d (no launch gives it)", a.Name, a.Value)
	case TripUnknown:
		return fmt.Sprintf("loop at line %d: trip count unknown; %d iterations averaged", a.Line, a.Value)
	case TripCapped:
		return fmt.Sprintf("loop at line %d: %d iterations or more; the first %d averaged", a.Line, a.Value, a.Value)
	case AssumedNonNull:
		return a.Name + " is not null (no launch says)"
	case DataGuard:
		what := "loaded data"
		if a.Name != "" {
			what = "the value loaded by " + a.Name + " at " + a.Site.String()
		}
		return "which lanes take part depends on " + what + " (a guard on data): the figures count every lane, an upper bound"
	case SharedIndex:
		return "the value loaded by " + a.Name + " at " + a.Site.String() + " is read at an address every lane of a warp shares, so it is the same in all of them: the lanes move together whatever it holds"
	case OneThread:
		return "performed by at most one thread of each block (a guard compares the thread index with a value the block shares): the figures are one thread's"
	case TailGuard:
		head := "performed only by lanes past the bound " + a.Name + " (a remainder): "
		if a.Value == 0 {
			return head + "no lane passes at the sizes tried; the figures count every lane, an upper bound"
		}
		return fmt.Sprintf("%sthe figures are those of the few lanes that pass with %s = %d", head, a.Name, a.Value)
	case UniformResidue:
		what := "the warp-uniform value loaded by " + a.Name + " at " + a.Site.String()
		if a.Cause == symbolic.CauseLoopCarried {
			what = fmt.Sprintf("%s, the same in every lane but changed by the loop at line %d in a way not modelled (such as by a loaded value)", a.Name, a.Site.Line)
		}
		return fmt.Sprintf("the base adds %s, whose residue mod %d bytes is not known: the mean over the %d residues %d bytes apart, assuming an arbitrary offset (%.3g to %.3g sectors)",
			what, SectorBytes, a.Value, a.Step, a.Lo, a.Hi)
	}
	return fmt.Sprintf("%s = %d (no launch gives it; assumed large)", a.Name, a.Value)
}

// Facts are what a prediction knows about its access, typed, in the
// spirit of Triton's AxisInfo: the rules read these, not the address's
// printed form.
type Facts struct {
	Space     interp.Space
	ElemBytes int64 // the width of one memory instruction of the access
	// LaneBytes is the byte step of the address per unit of threadIdx.x,
	// .y and .z, with the launch's values bound (and AssumedValue for
	// parameters no launch gives); LaneKnown says which are constants.
	LaneBytes [3]int64
	LaneKnown [3]bool
	// Bounded: the launch and the settings gave every value the
	// prediction rests on; nothing was assumed.
	Bounded bool
}

// factsOf reads the facts of access a whose address, with everything
// bound that can be, is addr.
func factsOf(a *interp.Access, addr symbolic.Expr) Facts {
	f := Facts{Space: a.Space, ElemBytes: ctype.Pieces(a.Type)[0][1]}
	for d, sym := range threadSyms {
		c, ok := symbolic.Coefficient(addr, sym)
		if !ok {
			continue
		}
		f.LaneBytes[d], f.LaneKnown[d] = symbolic.IsConst(c)
	}
	return f
}

// merge is what two accesses at one position share: a lane step only
// where both have the same.
func (f Facts) merge(g Facts) Facts {
	for d := range f.LaneBytes {
		if !g.LaneKnown[d] || g.LaneBytes[d] != f.LaneBytes[d] {
			f.LaneKnown[d] = false
		}
	}
	f.Bounded = f.Bounded && g.Bounded
	return f
}
