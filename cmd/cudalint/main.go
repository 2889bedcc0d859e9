// Command cudalint predicts how many 32-byte sectors each global memory
// access of a CUDA kernel costs per warp request, and reports accesses
// that waste bandwidth.
//
//	cudalint [flags] PATH...
//
// PATH is a .cu/.cuh file or a folder to search. See README.md.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK       = 0
	exitFindings = 1
	exitError    = 2
)

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "explain":
			return explain(args[1:], stdout, stderr)
		case "rules":
			return listRules(stdout)
		}
	}
	opts, err := parseFlags(args, stderr)
	if err != nil {
		if err == errHelp {
			return exitOK
		}
		fmt.Fprintf(stderr, "cudalint: %v\n", err)
		return exitError
	}
	return opts.execute(stdout, stderr)
}
