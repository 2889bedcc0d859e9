// Package bankconflict reports shared-memory accesses whose lanes hit one bank at different words (shared-bank-conflict).
//
// The rule's page, docs/rules/shared-bank-conflict.md, says why with measured numbers and
// shows the fix; cudalint explain shared-bank-conflict prints it.
package bankconflict
