package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// Small things a new user meets first: each says what to do instead of
// failing silently or strangely.
func TestSubcommandPapercuts(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		out, err string // substrings expected on stdout and stderr
		notOut   string
	}{
		{"help is the usage, not a file", []string{"help"}, exitOK, "usage: cudalint", "", "no such file"},
		{"a misspelt rule gets a suggestion", []string{"explain", "swaped-axes"}, exitError, "", `did you mean swapped-axes?`, ""},
		{"an unknown rule far from every name gets none", []string{"explain", "zzz"}, exitError, "", `unknown rule "zzz" (cudalint rules`, ""},
		{"rules takes only --format", []string{"rules", "--bogus"}, exitError, "", "usage: cudalint rules", ""},
		{"rules lists text by default", []string{"rules"}, exitOK, "RULE", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runCLI(tt.args...)
			if code != tt.code || !strings.Contains(out, tt.out) || !strings.Contains(errs, tt.err) ||
				(tt.notOut != "" && strings.Contains(out+errs, tt.notOut)) {
				t.Errorf("exit %d (want %d)\nstdout: %s\nstderr: %s", code, tt.code, out, errs)
			}
		})
	}
}

// cudalint rules --format json lists every rule with what SARIF carries.
func TestRulesJSON(t *testing.T) {
	code, out, errs := runCLI("rules", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got []ruleJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(got) != len(ruleIDs()) {
		t.Fatalf("%d rules, want %d", len(got), len(ruleIDs()))
	}
	for _, r := range got {
		if r.ID == "" || r.Title == "" || r.Summary == "" || !strings.HasSuffix(r.URL, r.ID+".md") || len(r.Tags) == 0 {
			t.Errorf("rule %+v lacks a field", r)
		}
	}
}

// A --new-from-patch file that holds no diff (an empty file from a diff
// step that failed, an error page) is an error, never "nothing is new".
func TestPatchWithoutDiff(t *testing.T) {
	for name, text := range map[string]string{"empty": "", "not a diff": "fatal: bad revision 'origin/main'\n"} {
		t.Run(name, func(t *testing.T) {
			if _, err := parseUnifiedDiff(strings.NewReader(text), "/base"); err == nil || !strings.Contains(err.Error(), "holds no unified diff") {
				t.Errorf("error %v, want one saying the file holds no diff", err)
			}
		})
	}
	dir := writeFiles(t, map[string]string{"k.cu": copyKernel, "p.diff": ""})
	code, _, errs := runCLI("--root", dir, "--new-from-patch", dir+"/p.diff", dir)
	if code != exitError || !strings.Contains(errs, "p.diff: holds no unified diff") {
		t.Errorf("exit %d, stderr %s", code, errs)
	}
}
