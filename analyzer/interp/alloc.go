package interp

import "strconv"

// AllocKind says what an allocation a pointer points into is.
type AllocKind uint8

const (
	AllocNone   AllocKind = iota // not known: the zero Alloc
	AllocParam                   // what pointer parameter Name (a member path for a struct's) points into
	AllocVar                     // variable or array Name: __shared__, local, __device__, a host pointer cudaMalloc sets
	AllocLoaded                  // what the pointer loaded by expression Name points into
	AllocHost                    // host array Name with an initialiser; ID tells its declarations apart
	AllocSelect                  // one of the allocations Name lists, as they print (p = c ? a : b)
)

// Alloc is the allocation a pointer points into. Code tells allocations
// apart and reads their kind by comparing values, never by reading the
// printed form back; String is for messages and keys.
type Alloc struct {
	Kind AllocKind
	Name string
	ID   int
}

// String is the allocation as messages name it: the variable, *expr for
// a loaded pointer, "a or b" for a select.
func (a Alloc) String() string {
	switch a.Kind {
	case AllocLoaded:
		return "*" + a.Name
	case AllocHost:
		return "host:" + a.Name + "#" + strconv.Itoa(a.ID)
	}
	return a.Name
}

// allocEither is the allocation of a pointer that points into a or b.
func allocEither(a, b Alloc) Alloc {
	return Alloc{Kind: AllocSelect, Name: a.String() + " or " + b.String()}
}
