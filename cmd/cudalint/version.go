package main

import (
	"runtime/debug"
	"strings"
)

// versionLine is what --version prints: the module version the binary
// was built as (v1.2.3 from go install …@v1.2.3), and the commit with a
// mark for uncommitted changes when it was built from a checkout.
func versionLine() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "cudalint " + version
	}
	return "cudalint " + describeBuild(info)
}

// describeBuild spells a build's version. The go command stamps a build
// in a checkout as (devel), or since Go 1.24 as a pseudo-version that
// already holds the commit; the commit is added only where it is not.
func describeBuild(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "" || v == "(devel)" {
		v = version + "-devel"
	}
	var rev string
	var modified bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev == "" || strings.Contains(v, rev) {
		return v
	}
	if modified {
		rev += "+dirty"
	}
	return v + " (commit " + rev + ")"
}
