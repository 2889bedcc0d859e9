package main

import (
	"fmt"
	"io"
	"os"

	"github.com/cudalint/cudalint/driver"
)

// writeFixed writes a fixed file; tests replace it to fail as a full disk
// or a read-only folder does.
var writeFixed = driver.WriteFileAtomic

// fixRoot is the folder --fix and --diff may write in: the repository
// holding the working directory, or the working directory.
func fixRoot() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	return driver.FindRoot(wd)
}

// applyFixes runs --fix. What was not fixed, and why, goes to stderr.
func (o *options) applyFixes(stderr io.Writer, rep *driver.Report) *driver.FixReport {
	fr := driver.ApplyFixes(rep, driver.FixOptions{Root: fixRoot(), Write: writeFixed})
	for _, n := range fr.Notes {
		fmt.Fprintf(stderr, "cudalint: %s\n", n)
	}
	for _, err := range fr.Errors {
		fmt.Fprintf(stderr, "cudalint: %v\n", err)
	}
	for _, f := range fr.Changed() {
		fmt.Fprintf(stderr, "cudalint: fixed %s\n", f)
	}
	return fr
}
