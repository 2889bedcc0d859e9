package warp

import "github.com/cudalint/cudalint/symbolic"

// Unknown says why a prediction has no number: the cause, where it
// arises, and what it concerns.
type Unknown struct {
	Cause symbolic.UnknownCause
	Site  symbolic.Site
	Name  string // the variable, function, type or expression it concerns
}

// unknownOf is the Unknown a symbol stands for.
func unknownOf(v *symbolic.Var) Unknown {
	if v.Kind != symbolic.KindUnknown {
		return Unknown{Cause: symbolic.CauseUnresolvedName, Name: v.Name}
	}
	return Unknown{Cause: v.Cause, Site: v.Site, Name: v.Of}
}

// Reason says why p has no number, in words (for outputs).
func (p *Prediction) Reason() string {
	if p.Known {
		return ""
	}
	switch p.Unknown.Cause {
	case symbolic.CauseNoLane:
		return "no lane of any warp performs this access under the launch (its guards exclude them all)"
	case symbolic.CauseNotEvaluable:
		return "the address cannot be evaluated for every lane"
	}
	return "the address depends on " + p.Unknown.Describe()
}

// Describe is the prose for u, as the end of "the address depends on ...".
func (u Unknown) Describe() string {
	switch u.Cause {
	case symbolic.CauseLoadedValue:
		return "the value loaded by " + u.Name + " at " + u.Site.String()
	case symbolic.CauseLoopCarried:
		return u.Name + ", which changes across loop iterations in a way not modelled"
	case symbolic.CauseCallResult:
		return "the result of " + u.Name
	case symbolic.CauseUnresolvedType:
		return "a value of type " + u.Name + ", which cudalint cannot resolve"
	case symbolic.CauseBranchMixed:
		return "a variable that holds different kinds of values on two branches"
	case symbolic.CauseUninitialised:
		return u.Name + ", which is declared without a value and not assigned on every path"
	case symbolic.CauseLoadedMember:
		return "a member of a value loaded from memory"
	case symbolic.CauseFloatValue:
		return "a floating-point value"
	case symbolic.CauseTooComplex:
		if u.Name != "" {
			return u.Name
		}
		return symbolic.TooComplexName
	case symbolic.CauseNotUnderstood:
		return u.Name + ", which is changed by a statement not understood at " + u.Site.String()
	case symbolic.CauseUnresolvedName:
		return u.Name + ", which cudalint cannot resolve"
	case symbolic.CauseCapturedWrite:
		return u.Name + ", which the lambda passed to the call at " + u.Site.String() + " may assign"
	case symbolic.CauseNotModelled:
		if u.Name == "" {
			return "an expression cudalint does not model"
		}
		return u.Name
	}
	return u.Name
}
