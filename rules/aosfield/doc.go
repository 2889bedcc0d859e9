// Package aosfield reports one field of an array of structs read per lane (aos-field).
//
// The rule's page, docs/rules/aos-field.md, says why with measured numbers and
// shows the fix; cudalint explain aos-field prints it.
package aosfield
