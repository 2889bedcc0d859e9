package ctype

import "github.com/cudalint/cudalint/parser"

// Struct returns the definition of the struct or class called name (its
// template parameters, static members and methods), or nil.
func (ts *Types) Struct(name string) *parser.Struct {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.structs[name]
}

// Typedef returns the typedef or alias called name, or nil.
func (ts *Types) Typedef(name string) *parser.Typedef {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.typedefs[name]
}
