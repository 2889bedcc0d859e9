// Package deepkey writes a value's whole content as a string, the key
// under which the editor's memos keep an analysis: two values with the
// same key have the same content, field by field.
package deepkey

import (
	"fmt"
	"maps"
	"reflect"
	"sort"
	"strings"
)

// Write writes everything under v to b. A pointer to a value whose type
// identity accepts (a parsed item, which the parser's cache returns as
// the same object while it is unchanged) is written by its address
// instead; a pointer met again by its first place; maps in sorted order.
func Write(b *strings.Builder, v reflect.Value, identity func(reflect.Type) bool) {
	write(b, v, identity, map[place]int{})
}

// place is a pointer met before: its address and type (a struct and its
// first field share the address, not the content).
type place struct {
	addr uintptr
	typ  reflect.Type
}

func write(b *strings.Builder, v reflect.Value, identity func(reflect.Type) bool, seen map[place]int) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		if identity != nil && identity(v.Elem().Type()) {
			fmt.Fprintf(b, "@%x", v.Pointer())
			return
		}
		at := place{v.Pointer(), v.Type()}
		if i, ok := seen[at]; ok {
			fmt.Fprintf(b, "^%d", i)
			return
		}
		seen[at] = len(seen)
		b.WriteByte('&')
		write(b, v.Elem(), identity, seen)
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		fmt.Fprintf(b, "(%s)", v.Elem().Type())
		write(b, v.Elem(), identity, seen)
	case reflect.Struct:
		b.WriteByte('{')
		for i := 0; i < v.NumField(); i++ {
			write(b, v.Field(i), identity, seen)
			b.WriteByte(',')
		}
		b.WriteByte('}')
	case reflect.Slice, reflect.Array:
		b.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			write(b, v.Index(i), identity, seen)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case reflect.Map:
		keys := v.MapKeys()
		parts := make([]string, len(keys))
		for i, k := range keys {
			// Each entry numbers the pointers it meets afresh: the
			// entries are written before they are sorted, and their
			// order must not change the key.
			entry := maps.Clone(seen)
			var kb strings.Builder
			write(&kb, k, identity, entry)
			kb.WriteByte(':')
			write(&kb, v.MapIndex(k), identity, entry)
			parts[i] = kb.String()
		}
		sort.Strings(parts)
		fmt.Fprintf(b, "map%v", parts)
	case reflect.UnsafePointer:
		// A cache (symbolic's lazily made strings, atomic.Pointer): what
		// it holds is made from the content written beside it, and
		// whether it is made yet is not content.
		b.WriteString("cache")
	case reflect.Func, reflect.Chan:
		fmt.Fprintf(b, "%s@%x", v.Kind(), v.Pointer())
	case reflect.String:
		fmt.Fprintf(b, "%q", v.String())
	case reflect.Bool:
		fmt.Fprint(b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		fmt.Fprint(b, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		fmt.Fprint(b, v.Uint())
	case reflect.Float32, reflect.Float64:
		fmt.Fprint(b, v.Float())
	default:
		fmt.Fprintf(b, "%v", v.Kind())
	}
}
