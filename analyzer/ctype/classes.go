package ctype

import "github.com/cudalint/cudalint/parser"

// Struct returns the definition of the struct or class called name (its
// template parameters, static members and methods), or nil.
func (ts *Types) Struct(name string) *parser.Struct {
	if s, ok := ts.structs[name]; ok || ts.parent == nil {
		return s
	}
	return ts.parent.Struct(name)
}

// Typedef returns the typedef or alias called name, or nil.
func (ts *Types) Typedef(name string) *parser.Typedef {
	if td, ok := ts.typedefs[name]; ok || ts.parent == nil {
		return td
	}
	return ts.parent.Typedef(name)
}
