package interp

import (
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/symbolic"
)

// Cooperative groups. A group (cg::this_thread_block(), cg::this_grid(),
// cg::tiled_partition<N>(g)) is a struct value whose hidden fields hold
// what its methods return: the calling thread's rank in the group, the
// group's size, and for tiles the tile's rank among its siblings. Grid-
// stride loops written with grid.thread_rank() and grid.size() are then
// ordinary induction variables.

const (
	cgRank      = "#rank"
	cgSize      = "#size"
	cgMeta      = "#meta"
	cgMetaCount = "#metacount"
	cgBlockRank = "#blockrank"
	cgBlocks    = "#blocks"
)

// rankOf is the rank of index idx within sizes dim, x fastest: a thread's
// in its block, a block's in the grid.
func rankOf(idx, dim func(symbolic.Axis) symbolic.Builtin) symbolic.Expr {
	dx, dy := dim(symbolic.X).Sym(), dim(symbolic.Y).Sym()
	return symbolic.Add(idx(symbolic.X).Sym(),
		symbolic.Add(symbolic.Mul(idx(symbolic.Y).Sym(), dx), symbolic.Mul(idx(symbolic.Z).Sym(), symbolic.Mul(dx, dy))))
}

// countOf is the product of sizes dim over the three axes.
func countOf(dim func(symbolic.Axis) symbolic.Builtin) symbolic.Expr {
	return symbolic.Mul(dim(symbolic.X).Sym(), symbolic.Mul(dim(symbolic.Y).Sym(), dim(symbolic.Z).Sym()))
}

// threadRank is the thread's rank in its block, x fastest.
func threadRank() symbolic.Expr { return rankOf(symbolic.ThreadIdx, symbolic.BlockDim) }

func blockThreads() symbolic.Expr { return countOf(symbolic.BlockDim) }

func group(fields map[string]symbolic.Expr) value {
	v := value{kind: vStruct, fields: map[string]value{}}
	for k, x := range fields {
		v.fields[k] = intValue(x)
	}
	return v
}

// groupNamed returns the group a variable holds, or the group a
// constructor called in place makes (cg::this_grid().thread_rank(), as
// 3D Gaussian splatting's kernels index with).
func (in *interp) groupNamed(x parser.Expr) (value, bool) {
	if c, ok := x.(*parser.Call); ok && groupConstructors[calleeName(c.Fun)] {
		v := in.eval(c)
		return v, isGroup(v)
	}
	id, ok := x.(*parser.Ident)
	if !ok {
		return value{}, false
	}
	v, ok := in.lookup(id.Name)
	return v, ok && isGroup(v)
}

// groupConstructors are the cooperative-groups calls groupCall makes a
// group of.
var groupConstructors = map[string]bool{"this_thread_block": true, "this_grid": true, "tiled_partition": true}

func isGroup(v value) bool {
	_, ok := v.fields[cgRank]
	return v.kind == vStruct && ok
}

// groupCall evaluates a cooperative-groups constructor, or reports false.
func (in *interp) groupCall(e *parser.Call, name string, args []value) (value, bool) {
	switch name {
	case "this_thread_block":
		return group(map[string]symbolic.Expr{cgRank: threadRank(), cgSize: blockThreads()}), true
	case "this_grid":
		blockRank := rankOf(symbolic.BlockIdx, symbolic.GridDim)
		blocks := countOf(symbolic.GridDim)
		return group(map[string]symbolic.Expr{
			cgRank:      symbolic.Add(symbolic.Mul(blockRank, blockThreads()), threadRank()),
			cgSize:      symbolic.Mul(blocks, blockThreads()),
			cgBlockRank: blockRank,
			cgBlocks:    blocks,
		}), true
	case "tiled_partition":
		if len(args) == 0 || !isGroup(args[0]) {
			return value{}, false
		}
		var n value
		switch id, _ := e.Fun.(*parser.Ident); {
		case id != nil && len(id.Targs) == 1 && id.Targs[0].Value != nil:
			n = in.eval(id.Targs[0].Value)
		case len(args) == 2:
			n = args[1]
		default:
			return value{}, false
		}
		if n.kind != vInt {
			return value{}, false
		}
		rank, size := args[0].fields[cgRank].x, args[0].fields[cgSize].x
		return group(map[string]symbolic.Expr{
			cgRank:      symbolic.Binary(symbolic.OpRem, rank, n.x),
			cgSize:      n.x,
			cgMeta:      symbolic.Binary(symbolic.OpDiv, rank, n.x),
			cgMetaCount: symbolic.Binary(symbolic.OpDiv, size, n.x),
		}), true
	}
	return value{}, false
}

// groupMethod evaluates g.method() on a group, or reports false.
func (in *interp) groupMethod(g value, method string) (value, bool) {
	field := map[string]string{
		"thread_rank": cgRank, "size": cgSize, "num_threads": cgSize,
		"meta_group_rank": cgMeta, "meta_group_size": cgMetaCount,
		"block_rank": cgBlockRank, "num_blocks": cgBlocks,
	}[method]
	if v, ok := g.fields[field]; ok && field != "" {
		return v, true
	}
	switch method {
	case "sync":
		return intValue(symbolic.Const(0)), true
	case "group_index", "block_index":
		return builtins[symbolic.KindBlockIdx], true
	case "thread_index":
		return builtins[symbolic.KindThreadIdx], true
	case "group_dim", "dim_threads":
		return builtins[symbolic.KindBlockDim], true
	}
	return value{}, false
}
