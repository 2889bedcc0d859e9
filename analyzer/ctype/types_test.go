package ctype

import (
	"strconv"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/parser"
)

func TestPieces(t *testing.T) {
	ts := NewTypes()
	tests := []struct {
		words []string
		want  string
	}{
		{[]string{"float4"}, "[[0 16]]"},
		{[]string{"float3"}, "[[0 4] [4 4] [8 4]]"},
		{[]string{"double2"}, "[[0 16]]"},
		{[]string{"char"}, "[[0 1]]"},
		{[]string{"float2"}, "[[0 8]]"},
		{[]string{"__half2"}, "[[0 4]]"},
		{[]string{"__nv_bfloat16"}, "[[0 2]]"},
		{[]string{"__nv_fp8_e4m3"}, "[[0 1]]"},
		{[]string{"__nv_fp8x2_e5m2"}, "[[0 2]]"},
		{[]string{"__nv_fp8x4_e4m3"}, "[[0 4]]"},
	}
	for _, tt := range tests {
		got := Pieces(ts.Resolve(&parser.TypeRef{Words: tt.words}))
		if s := fmtPieces(got); s != tt.want {
			t.Errorf("%v: %s, want %s", tt.words, s, tt.want)
		}
	}
}

func fmtPieces(p [][2]int64) string {
	var b strings.Builder
	b.WriteString("[")
	for i, x := range p {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString("[" + itoa(x[0]) + " " + itoa(x[1]) + "]")
	}
	return b.String() + "]"
}

func itoa(x int64) string { return strconv.FormatInt(x, 10) }
