// Package vectorizable reports a thread's adjacent scalar accesses that
// make one aligned vector, 4 floats or 2 doubles, while lanes step by the
// whole vector: one float4 (double2, int4...) access would move the same
// bytes in one contiguous instruction (vectorizable-access).
//
// The alignment is proved, not assumed: the first element's byte address
// must be a multiple of the vector's width for every lane and value of
// the symbols (symbolic.Divisor), with what the launch gives bound.
//
// The rule's page, docs/rules/vectorizable-access.md, says why with
// numbers and shows the fix; cudalint explain vectorizable-access prints
// it.
package vectorizable
