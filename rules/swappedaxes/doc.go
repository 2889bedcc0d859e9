// Package swappedaxes reports 2D and 3D indexing whose unit-stride dimension is driven by threadIdx.y while threadIdx.x moves along rows (swapped-axes), with a fix that swaps the thread mapping when that is safe.
//
// The rule's page, docs/rules/swapped-axes.md, says why with measured numbers and
// shows the fix; cudalint explain swapped-axes prints it.
package swappedaxes
