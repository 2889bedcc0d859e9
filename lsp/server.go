// Package lsp is cudalint's Language Server: diagnostics from the
// unsaved buffer as you type (debounced) and on save, hovers with an
// access's predicted cost, and code actions for fixes and suppressions,
// over JSON-RPC on a stream (stdio for `cudalint lsp`).
//
// Each analysis is a driver.Run over the open file, whose ReadFile serves
// open buffers in place of the disk; the parser's item and header caches
// live as long as the server, so an edit re-parses only what changed.
package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/driver"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/cpp"
)

// Options configure a server.
type Options struct {
	// Log, when set, receives a line per message and per analysis.
	Log io.Writer
	// Debounce is how long the server waits after an edit before
	// analyzing. When zero it adapts to the file (see delay): an
	// analysis that costs little runs at once, one that costs much waits
	// for a pause in typing.
	Debounce time.Duration
}

// Server is one client's session.
type Server struct {
	conn     *jsonrpc2.Conn
	log      *log.Logger
	debounce time.Duration

	mu       sync.Mutex
	docs     map[string]*document // by URI
	settings Settings
	enc      string
	folders  []string // workspace folders, absolute
	items    *parser.ItemCache
	headers  *cpp.HeaderCache
	// cached is, for each open buffer, the text that the header cache's
	// recordings may hold of it (see syncHeaders).
	cached map[string][]byte
	// disk holds the files analyses read from disk (diskCache).
	disk *diskCache
	// memo keeps kernels' analyses between runs (analyzer.Memo).
	memo *analyzer.Memo
	// context keeps the project's files read for a file's context
	// (launches, includers) between runs: an edit re-reads only what
	// changed, never the whole tree.
	context *driver.ContextCache
	runs    int
	inited  bool
	// watchDynamic: the client lets the server register file watchers.
	watchDynamic bool
	shutdown     bool
	exit         chan int
}

// Serve runs a server over rw until the client sends exit or closes the
// stream. It returns the process's exit status: 0 after shutdown and
// exit, 1 when exit came without shutdown or the stream closed first.
func Serve(ctx context.Context, rw io.ReadWriteCloser, opts Options) int {
	s := &Server{docs: map[string]*document{}, enc: encUTF16, exit: make(chan int, 1), debounce: opts.Debounce}
	s.resetCaches()
	logw := opts.Log
	if logw == nil {
		logw = io.Discard
	}
	s.log = log.New(logw, "", log.Ltime|log.Lmicroseconds)
	// Every handler takes s.mu before it uses s.conn: holding it here
	// makes the assignment happen before the first message is handled.
	s.mu.Lock()
	s.conn = jsonrpc2.NewConn(ctx, newStream(rw, s.log), jsonrpc2.HandlerWithError(s.handle), jsonrpc2.SetLogger(s.log))
	s.mu.Unlock()
	select {
	case code := <-s.exit:
		s.conn.Close()
		return code
	case <-s.conn.DisconnectNotify():
		s.stopTimers()
		return 1
	}
}

func (s *Server) resetCaches() {
	s.items, s.memo = parser.NewItemCache(), analyzer.NewMemo()
	s.headersChanged()
	// The open file's own unchanged items are reused too, the very items
	// the memo keys kernels by.
	s.items.Own = true
	s.context = driver.NewContextCache()
	s.runs = 0
}

func (s *Server) stopTimers() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.docs {
		if d.timer != nil {
			d.timer.Stop()
		}
	}
}

// Errors the spec names.
var (
	errNotInitialized = &jsonrpc2.Error{Code: -32002, Message: "the server is not initialized"}
	errShutDown       = &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: "the server is shut down"}
)

func invalidParams(err error) error {
	return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: err.Error()}
}

// handle answers one message; a panic is an internal-error reply and a
// log line, never a dead server.
func (s *Server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (result any, err error) {
	start := time.Now()
	defer func() {
		if r := recover(); r != nil {
			s.log.Printf("panic in %s: %v\n%s", req.Method, r, debug.Stack())
			result, err = nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: fmt.Sprintf("cudalint: internal error in %s: %v", req.Method, r)}
		}
		s.log.Printf("%s: %v (%v)", req.Method, err, time.Since(start).Round(time.Microsecond))
	}()
	decode := func(v any) error {
		if req.Params == nil {
			return invalidParams(fmt.Errorf("%s: params missing", req.Method))
		}
		if err := json.Unmarshal(*req.Params, v); err != nil {
			return invalidParams(fmt.Errorf("%s: %v", req.Method, err))
		}
		return nil
	}
	switch req.Method {
	case "exit":
		s.mu.Lock()
		code := 1
		if s.shutdown {
			code = 0
		}
		s.mu.Unlock()
		s.stopTimers()
		select {
		case s.exit <- code:
		default:
		}
		return nil, nil
	case "initialize":
		var p InitializeParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		return s.initialize(ctx, &p)
	}
	s.mu.Lock()
	inited, down := s.inited, s.shutdown
	s.mu.Unlock()
	switch {
	case down:
		return nil, errShutDown
	case !inited:
		if req.Notif {
			return nil, nil // notifications before initialize are dropped
		}
		return nil, errNotInitialized
	}
	switch req.Method {
	case "initialized":
		s.registerWatchers(ctx)
		return nil, nil
	case "shutdown":
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		s.stopTimers()
		return nil, nil
	case "textDocument/didOpen":
		var p DidOpenTextDocumentParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		return nil, s.didOpen(ctx, &p)
	case "textDocument/didChange":
		var p DidChangeTextDocumentParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		return nil, s.didChange(ctx, &p)
	case "textDocument/didSave":
		var p DidSaveTextDocumentParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		return nil, s.didSave(ctx, &p)
	case "textDocument/didClose":
		var p DidCloseTextDocumentParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		return nil, s.didClose(ctx, &p)
	case "workspace/didChangeWatchedFiles":
		var p DidChangeWatchedFilesParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		s.didChangeWatchedFiles(ctx, &p)
		return nil, nil
	case "workspace/didChangeConfiguration":
		var p DidChangeConfigurationParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		return nil, s.didChangeConfiguration(ctx, &p)
	case "textDocument/hover":
		var p TextDocumentPositionParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		return s.hover(ctx, &p)
	case "textDocument/codeAction":
		var p CodeActionParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		return s.codeAction(ctx, &p)
	case "$/cancelRequest", "$/setTrace", "$/progress":
		return nil, nil
	}
	if req.Notif || strings.HasPrefix(req.Method, "$/") {
		return nil, nil // unknown notifications are ignored, as the spec says
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "method not supported: " + req.Method}
}

func (s *Server) initialize(ctx context.Context, p *InitializeParams) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.inited {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: "initialize sent twice"}
	}
	if len(p.InitializationOptions) > 0 && string(p.InitializationOptions) != "null" {
		set, err := parseSettings(p.InitializationOptions)
		if err != nil {
			return nil, invalidParams(fmt.Errorf("initializationOptions: %v", err))
		}
		s.settings = set
	}
	for _, f := range p.WorkspaceFolders {
		if path, err := uriToPath(f.URI); err == nil {
			s.folders = append(s.folders, path)
		}
	}
	if len(s.folders) == 0 {
		if path, err := uriToPath(p.RootURI); err == nil && p.RootURI != "" {
			s.folders = append(s.folders, path)
		} else if p.RootPath != "" {
			s.folders = append(s.folders, filepath.Clean(p.RootPath))
		}
	}
	s.enc = chooseEncoding(p.Capabilities.General.PositionEncodings)
	s.watchDynamic = p.Capabilities.Workspace.DidChangeWatchedFiles.DynamicRegistration
	s.inited = true
	save := map[string]any{"includeText": false}
	return map[string]any{
		"capabilities": map[string]any{
			"positionEncoding": s.enc,
			"textDocumentSync": map[string]any{"openClose": true, "change": 2, "save": save},
			"hoverProvider":    true,
			"codeActionProvider": map[string]any{
				"codeActionKinds": []string{KindQuickFix, "source.fixAll", KindFixAll},
			},
		},
		"serverInfo": map[string]any{"name": "cudalint", "version": Version},
	}, nil
}

// Version is reported in serverInfo; the command sets it.
var Version = "dev"

// registerWatchers asks the client to report changes to headers and
// configuration files, when it can watch them.
func (s *Server) registerWatchers(ctx context.Context) {
	s.mu.Lock()
	dynamic := s.watchDynamic
	s.mu.Unlock()
	if !dynamic {
		return
	}
	params := map[string]any{"registrations": []any{map[string]any{
		"id": "cudalint-watch", "method": "workspace/didChangeWatchedFiles",
		"registerOptions": map[string]any{"watchers": []any{
			map[string]any{"globPattern": "**/*.{cu,cuh,h,hh,hpp,hxx,inl,cuinc}"},
			map[string]any{"globPattern": "**/.cudalint.yaml"},
		}},
	}}}
	go func() {
		var res any
		if err := s.conn.Call(ctx, "client/registerCapability", params, &res); err != nil {
			s.log.Printf("registering file watchers: %v", err)
		}
	}()
}

// uriToPath converts a file: URI to a clean absolute path.
func uriToPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", err
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("%q is not a file URI", uri)
	}
	p := u.Path
	if p == "" {
		return "", fmt.Errorf("%q has no path", uri)
	}
	return filepath.Clean(filepath.FromSlash(p)), nil
}

func pathToURI(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// rootFor is the folder includes may read for path: the workspace folder
// holding it, else the repository holding it, else its folder (see
// inWorkspace: such a file is analyzed alone).
func (s *Server) rootFor(path string) string {
	root, _ := s.workspaceOf(path)
	return root
}

// inWorkspace reports whether path lies in a workspace folder or a
// repository: the server reads only what those hold. A document outside
// every one (file:///x.cu) is analyzed alone: no walk of its folder for
// context, and no file read from disk, its includes included.
func (s *Server) inWorkspace(path string) bool {
	_, ok := s.workspaceOf(path)
	return ok
}

func (s *Server) workspaceOf(path string) (string, bool) {
	best := ""
	for _, f := range s.folders {
		if (path == f || strings.HasPrefix(path, f+string(filepath.Separator))) && len(f) > len(best) {
			best = f
		}
	}
	if best != "" {
		return best, true
	}
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir, true
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return filepath.Dir(path), false
}
