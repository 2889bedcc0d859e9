// Package vectorcast reports vector accesses through pointers that are not aligned to the vector's size: a fault on the GPU (unaligned-vector-cast).
//
// The rule's page, docs/rules/unaligned-vector-cast.md, says why with measured numbers and
// shows the fix; cudalint explain unaligned-vector-cast prints it.
package vectorcast
