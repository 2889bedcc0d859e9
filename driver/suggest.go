package driver

import (
	"fmt"
	"strings"
)

// suggest picks the names a mistyped word was probably meant to be: those
// within two edits of it (a typo; one for words under five letters), or, failing that, those containing it
// whole (a name given short, as "strided" for "strided-access"). Case,
// hyphens and underscores do not count as differences.
func suggest(word string, names []string) []string {
	w := normalize(word)
	if w == "" {
		return nil
	}
	// Two edits turn a short word into almost anything: allow fewer.
	limit := 2
	switch n := len([]rune(w)); {
	case n < 2:
		limit = 0
	case n < 5:
		limit = 1
	}
	best, out := limit+1, []string(nil)
	for _, n := range names {
		d := editDistance(w, normalize(n))
		switch {
		case d < best:
			best, out = d, []string{n}
		case d == best && d <= limit:
			out = append(out, n)
		}
	}
	if out != nil {
		return out
	}
	if len(w) < 3 { // "x" is in too many names to mean any of them
		return nil
	}
	for _, n := range names {
		if strings.Contains(normalize(n), w) {
			out = append(out, n)
		}
	}
	return out
}

// separators are what normalize drops: built once, not per word.
var separators = strings.NewReplacer("-", "", "_", "")

func normalize(s string) string { return separators.Replace(strings.ToLower(s)) }

// DidYouMean is the " (did you mean X?)" tail of a message about an
// unknown word, or "" when no name is close.
func DidYouMean(word string, names []string) string { return didYouMean(word, names) }

// didYouMean is the " (did you mean X?)" tail of a message, or "" when
// nothing is close; it names at most three candidates.
func didYouMean(word string, names []string) string {
	s := suggest(word, names)
	switch {
	case len(s) == 0:
		return ""
	case len(s) > 3:
		s = s[:3]
	}
	return fmt.Sprintf(" (did you mean %s?)", orList(s))
}

// orList writes "a", "a or b", "a, b or c".
func orList(s []string) string {
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// editDistance is the optimal string alignment distance: insertions,
// deletions, substitutions and swaps of adjacent characters, the usual
// typing mistakes, each cost one.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}
