// Command cudalint predicts how many 32-byte sectors each global memory
// access of a CUDA kernel costs per warp request, and reports accesses
// that waste bandwidth.
//
//	cudalint [flags] PATH...
//
// PATH is a .cu/.cuh file or a folder to search, or - for standard
// input. See README.md.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK       = 0
	exitFindings = 1
	exitError    = 2
)

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "explain":
			return buffered(stdout, stderr, func(w io.Writer) int { return explain(args[1:], w, stderr) })
		case "rules":
			return buffered(stdout, stderr, func(w io.Writer) int { return listRules(args[1:], w, stderr) })
		case "help":
			// As git and go do: "help" is the usage, not a file named help.
			return buffered(stdout, stderr, func(w io.Writer) int { writeUsage(w); return exitOK })
		case "lsp":
			return serveLSP(args[1:], stdin, stdout, stderr)
		}
	}
	opts, err := parseFlags(args)
	switch err {
	case nil:
	case errHelp:
		return buffered(stdout, stderr, func(w io.Writer) int { writeUsage(w); return exitOK })
	case errVersion:
		return buffered(stdout, stderr, func(w io.Writer) int { fmt.Fprintln(w, versionLine()); return exitOK })
	default:
		reportError(stderr, err)
		return exitError
	}
	return opts.execute(stdin, stdout, stderr)
}

// buffered runs write over a buffer on w, and turns a failed write into
// exit status 2: the output is thousands of small writes, and a report
// lost to a full disk or a closed pipe must not pass for a clean run.
func buffered(w, stderr io.Writer, write func(io.Writer) int) int {
	bw := bufio.NewWriterSize(w, 64<<10)
	code := write(bw)
	if err := bw.Flush(); err != nil {
		reportError(stderr, fmt.Errorf("writing the report: %v", err))
		return exitError
	}
	return code
}

// reportError prints err on stderr, escaped: errors name files, and a
// file name can hold anything.
func reportError(stderr io.Writer, err error) {
	fmt.Fprintf(stderr, "cudalint: %s\n", message(err.Error()))
}
