// Package decomposed reports accesses whose lanes reach their elements
// through a division or remainder of their index (decomposed-index): the
// permute, reshape and one-dimensional transpose kernels that split a
// flat thread index into coordinates and index with them in another order.
//
// The rule's page, docs/rules/decomposed-index.md, says why with measured
// numbers and shows the fix; cudalint explain decomposed-index prints it.
package decomposed
