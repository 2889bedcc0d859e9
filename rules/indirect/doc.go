// Package indirect reports data-dependent addresses, whose cost depends on the data (indirect-access).
//
// The rule's page, docs/rules/indirect-access.md, says why with measured numbers and
// shows the fix; cudalint explain indirect-access prints it.
package indirect
