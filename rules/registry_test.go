package rules

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/rules/lint"
)

// A new rule is its package, its page and one registry line: this test
// is what holds the rest together. Every rule has an ID, a title, a page
// with a summary and tags; every rule package is registered, has a test
// file, and testdata with // want expectations; IDs and analyzer names
// are unique.
func TestRegistry(t *testing.T) {
	ids, names := map[string]bool{}, map[string]bool{}
	for _, r := range All {
		switch {
		case r.ID == "" || r.Title == "" || len(r.Tags) == 0 || r.Precision == "":
			t.Errorf("rule %+v lacks an ID, a title, tags or a precision", r)
		case ids[r.ID]:
			t.Errorf("rule %s is listed twice", r.ID)
		case r.Doc() == "" || r.Summary() == "":
			t.Errorf("rule %s has no page docs/rules/%s.md, or the page has no summary", r.ID, r.ID)
		}
		ids[r.ID] = true
		if (r.Analyzer != nil) != (r.Kind == lint.FromPredictions) {
			t.Errorf("rule %s: kind %d but analyzer %v: only prediction rules have one", r.ID, r.Kind, r.Analyzer)
		}
	}
	registered := map[string]bool{}
	for _, s := range Precedence {
		if names[s.Name] {
			t.Errorf("analyzer name %s is used twice", s.Name)
		}
		names[s.Name] = true
		registered[s.Name] = true
		if ByID(s.ID) != &s.Rule {
			t.Errorf("rule %s is in Precedence but not in All", s.ID)
		}
		checkRulePackage(t, s.Name)
	}
	for _, dir := range rulePackages(t) {
		if !registered[dir] {
			t.Errorf("rules/%s is a rule package that no registry line lists (add it to All and Precedence)", dir)
		}
	}
}

var wantLine = regexp.MustCompile(`//\s*want\s+"`)

// checkRulePackage: the rule's package, named as its analyzer, has a test
// file and testdata that expects findings.
func checkRulePackage(t *testing.T, name string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(name, name+"_test.go")); err != nil {
		t.Errorf("rule package %s has no %s_test.go", name, name)
	}
	files, _ := filepath.Glob(filepath.Join(name, "testdata", "*.cu"))
	for _, f := range files {
		if src, err := os.ReadFile(f); err == nil && wantLine.Match(src) {
			return
		}
	}
	t.Errorf("rule package %s has no testdata/*.cu with // want expectations", name)
}

// rulePackages are the folders under rules/ that hold a rule: those
// defining a Rule spec.
func rulePackages(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		src, err := os.ReadFile(filepath.Join(e.Name(), e.Name()+".go"))
		if err == nil && strings.Contains(string(src), "var Rule = spec.NewRule(") {
			out = append(out, e.Name())
		}
	}
	if len(out) == 0 {
		t.Fatal("found no rule package")
	}
	return out
}
