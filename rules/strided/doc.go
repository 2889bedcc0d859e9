// Package strided reports accesses whose lanes step by a constant or parameter stride larger than the element (strided-access).
//
// The rule's page, docs/rules/strided-access.md, says why with measured numbers and
// shows the fix; cudalint explain strided-access prints it.
package strided
