package lsp

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/cudalint/cudalint/analyzer"
)

// Settings are read at the edge: blocks become shapes and parameter
// values integers, or the settings are refused with what is wrong.
func TestParseSettings(t *testing.T) {
	tests := []struct {
		raw     string
		blocks  map[string]analyzer.Dim3
		params  map[string]int64
		wantErr string
	}{
		{`{"blocks": {"k": "32x8"}, "params": {"n": 1024, "k.m": "0x10"}}`, map[string]analyzer.Dim3{"k": {32, 8, 1}}, map[string]int64{"n": 1024, "k.m": 16}, ""},
		{`{"cudalint": {"blocks": {"k": 256}}}`, map[string]analyzer.Dim3{"k": {256, 1, 1}}, nil, ""},
		{`{"blocks": {"k": "64x64"}}`, nil, nil, `blocks.k: block shape "64x64" has 4096 threads; CUDA allows at most 1024`},
		{`{"params": {"n": "many"}}`, nil, nil, `params.n: "many" is not an integer`},
		{`{"params": {"n": [1]}}`, nil, nil, `params.n: want a string or a number`},
	}
	for _, tt := range tests {
		s, err := parseSettings(json.RawMessage(tt.raw))
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("%s: error %v, want %q", tt.raw, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(s.Blocks, tt.blocks) || !reflect.DeepEqual(s.Params, tt.params) {
			t.Errorf("%s: blocks %v params %v err %v; want %v %v", tt.raw, s.Blocks, s.Params, err, tt.blocks, tt.params)
		}
	}
}
