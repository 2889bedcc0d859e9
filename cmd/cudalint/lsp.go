package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/cudalint/cudalint/lsp"
)

// serveLSP runs `cudalint lsp [--log FILE]`: the language server on
// standard input and output (see docs/editors.md).
func serveLSP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("cudalint lsp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	logPath := fs.String("log", "", "append a log of the session's messages and analyses to `FILE`")
	fs.Bool("stdio", true, "talk over standard input and output (the only transport; accepted as editors pass it)")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitError
	}
	if fs.NArg() > 0 {
		reportError(stderr, fmt.Errorf("lsp takes no paths: the editor sends the files"))
		return exitError
	}
	opts := lsp.Options{}
	if *logPath != "" {
		f, err := os.OpenFile(*logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			reportError(stderr, err)
			return exitError
		}
		defer f.Close()
		opts.Log = f
	}
	lsp.Version = version
	return lsp.Serve(context.Background(), stdio{stdin, stdout}, opts)
}

// stdio is standard input and output as one stream.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }
