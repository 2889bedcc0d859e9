// Package misaligned reports contiguous accesses that do not start on a 32-byte boundary: offsets and row pitches (misaligned-access).
//
// The rule's page, docs/rules/misaligned-access.md, says why with measured numbers and
// shows the fix; cudalint explain misaligned-access prints it.
package misaligned
