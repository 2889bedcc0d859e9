package warp

import (
	"testing"

	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/symbolic"
)

func TestLaunchRanges(t *testing.T) {
	rg := launchRanges(launch.Dim3{16, 16, 1}, launch.Dim3{8, 1, 1}, nil, nil)
	x := symbolic.Add(symbolic.Mul(symbolic.BlockIdx(symbolic.X).Sym(), symbolic.Const(16)), symbolic.ThreadIdx(symbolic.X).Sym())
	if !rg.alwaysTrue(symbolic.Binary(symbolic.OpLt, x, symbolic.Const(128))) || rg.alwaysTrue(symbolic.Binary(symbolic.OpLt, x, symbolic.Const(127))) {
		t.Error("bounds of blockIdx.x*16 + threadIdx.x over 8 blocks of 16 are [0, 127]")
	}
}
