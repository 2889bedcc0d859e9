// Package transpose reports kernels that read along one axis and write along the other (uncoalesced-transpose).
//
// The rule's page, docs/rules/uncoalesced-transpose.md, says why with measured numbers and
// shows the fix; cudalint explain uncoalesced-transpose prints it.
package transpose
