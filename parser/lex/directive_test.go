package lex

import (
	"slices"
	"testing"
)

// A directive's meaning is read once, when its comment is scanned.
func TestDirectivesParsedOnce(t *testing.T) {
	tests := []struct {
		comment string
		verb    DirectiveVerb
		rules   []string
		shape   string
	}{
		{"// cudalint:ignore strided-access,aos-field the layout is fixed", DirectiveIgnore, []string{"strided-access", "aos-field"}, ""},
		{"/* cudalint:file-ignore misaligned-access padded on purpose */", DirectiveFileIgnore, []string{"misaligned-access"}, ""},
		{"// cudalint:block 16x16", DirectiveBlock, nil, "16x16"},
		{"// cudalint:block=32x8", DirectiveBlock, nil, "32x8"},
		{"// cudalint:ignore", DirectiveIgnore, nil, ""}, // bare: names no rule, and is reported
		{"// cudalint:ignore=strided-access", DirectiveOther, nil, ""},
		{"// cudalint:grid 64", DirectiveOther, nil, ""},
	}
	for _, tt := range tests {
		var dirs []Directive
		var notes Notes
		scanDirectives("t.cu", []byte(tt.comment+"\nint x;\n"), &notes, &dirs)
		if len(dirs) != 1 {
			t.Errorf("%s: %d directives", tt.comment, len(dirs))
			continue
		}
		d := dirs[0]
		if d.Verb != tt.verb || !slices.Equal(d.Rules, tt.rules) || d.Shape != tt.shape {
			t.Errorf("%s: verb %d rules %q shape %q, want %d %q %q", tt.comment, d.Verb, d.Rules, d.Shape, tt.verb, tt.rules, tt.shape)
		}
	}
}
