package sources

import (
	"reflect"
	"testing"
)

func TestQuotedIncludes(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{`#include "a.cuh"`, []string{"a.cuh"}},
		{"  #  include\t\"dir/b.h\"\nint x;\n#include <stdio.h>\n", []string{"dir/b.h", "stdio.h"}},
		{"x = 1; #include \"not.h\"\n", nil},                        // not first on its line
		{"#define H \"h.h\"\n#include H\n#includex \"y.h\"\n", nil}, // computed; not an include
		{"#include \"\"\n#include \"open\n\"\n", nil},
		{"a\r\n#include \"crlf.h\"\r\n", []string{"crlf.h"}},
		{"#include \"one.h\"\n\t#include \"two.h\"", []string{"one.h", "two.h"}},
	}
	for _, tt := range tests {
		if got := quotedIncludes([]byte(tt.src)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("quotedIncludes(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
}
