package main

import (
	"runtime/debug"
	"strings"
)

// version is cudalint's version, the one source of what --version
// prints, SARIF's tool version and the language server's: a release
// build stamps it (go build -ldflags "-X main.version=1.2.3", as
// .goreleaser.yaml does); any other build leaves it empty and init
// spells it from the build information. It is a semantic version
// without the leading v (SARIF's semanticVersion).
var version string

// nextRelease is the version a build from a checkout is a development
// build of.
const nextRelease = "0.1.0"

func init() {
	if version == "" {
		info, ok := debug.ReadBuildInfo()
		if !ok {
			info = &debug.BuildInfo{}
		}
		version = describeBuild(info)
	}
}

// versionLine is what --version prints.
func versionLine() string {
	return "cudalint " + version
}

// describeBuild spells an unstamped build's version as a semantic
// version: the module version it was built as (1.2.3 from go install
// …@v1.2.3, or since Go 1.24 a pseudo-version that already holds the
// commit), else nextRelease-devel with the commit and a mark for
// uncommitted changes as build metadata when the build recorded them.
func describeBuild(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v != "" && v != "(devel)" {
		return strings.TrimPrefix(v, "v")
	}
	v = nextRelease + "-devel"
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
	if rev == "" {
		return v
	}
	if modified {
		rev += ".dirty"
	}
	return v + "+" + rev
}
