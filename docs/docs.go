// Package docs holds the rule pages (rules/ID.md). They are the one source
// of each rule's documentation: cudalint explain prints them, SARIF's help
// text and the analyzers' Doc come from them.
package docs

import (
	"embed"
	"strings"
)

//go:embed rules/*.md
var pages embed.FS

// Rule returns the page of a rule, or "" when there is none.
func Rule(id string) string {
	b, err := pages.ReadFile("rules/" + id + ".md")
	if err != nil {
		return ""
	}
	return string(b)
}

// Summary is the first paragraph after the title: one or two sentences.
func Summary(id string) string {
	page := Rule(id)
	var lines []string
	started := false
	for _, l := range strings.Split(page, "\n") {
		switch {
		case strings.HasPrefix(l, "#"):
			if started {
				return strings.Join(lines, " ")
			}
		case strings.TrimSpace(l) == "":
			if started {
				return strings.Join(lines, " ")
			}
		default:
			started = true
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	return strings.Join(lines, " ")
}
