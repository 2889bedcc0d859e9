package lex

import "strings"

// DirectiveVerb says what a cudalint: comment asks for.
type DirectiveVerb uint8

const (
	// DirectiveOther is a comment whose first word cudalint does not
	// know, or which lacks its argument ("cudalint:ignore" alone).
	DirectiveOther DirectiveVerb = iota
	// DirectiveIgnore is "ignore RULE[,RULE] reason": the findings of
	// those rules on its line or the next are suppressed.
	DirectiveIgnore
	// DirectiveFileIgnore is "file-ignore RULE[,RULE] reason": the same
	// for the whole file.
	DirectiveFileIgnore
	// DirectiveBlock is "block WxH" (or "block=WxH"): the block shape of
	// the kernel defined just below.
	DirectiveBlock
)

// parseDirective reads a directive's text once, the way its readers
// did: an ignore's words split at spaces, its rules at commas; a block's
// words split at spaces and '='.
func parseDirective(p Pos, text string) Directive {
	d := Directive{Pos: p, Text: text}
	if w := strings.Fields(text); len(w) >= 1 && (w[0] == "ignore" || w[0] == "file-ignore") {
		d.Verb = DirectiveIgnore
		if len(w) >= 2 { // a bare ignore names no rule: Rules stays empty, and says so
			d.Rules = strings.Split(w[1], ",")
		}
		if w[0] == "file-ignore" {
			d.Verb = DirectiveFileIgnore
		}
		return d
	}
	if w := strings.Fields(strings.ReplaceAll(text, "=", " ")); len(w) >= 2 && w[0] == "block" {
		d.Verb, d.Shape = DirectiveBlock, w[1]
	}
	return d
}
