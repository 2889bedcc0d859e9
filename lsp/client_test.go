package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// client drives a server over pipes as an editor does, byte for byte.
type client struct {
	t      testing.TB
	w      io.WriteCloser
	mu     sync.Mutex
	nextID int
	resps  map[string]chan message
	notes  chan message
	done   chan int
	enc    string
	opts   Options
	start  func()
	once   sync.Once
}

// debounce sets the server's debounce interval, before initialize.
func (c *client) debounce(d time.Duration) { c.opts.Debounce = d }

type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

type pipes struct {
	io.Reader
	io.WriteCloser
}

func newClient(t testing.TB) *client {
	t.Helper()
	sr, cw := io.Pipe() // client → server
	cr, sw := io.Pipe() // server → client
	c := &client{t: t, w: cw, resps: map[string]chan message{}, notes: make(chan message, 1000), done: make(chan int, 1), enc: encUTF16}
	var logw io.Writer = io.Discard
	if testing.Verbose() {
		logw = os.Stderr
	}
	c.opts = Options{Debounce: 20 * time.Millisecond, Log: logw}
	c.start = func() {
		code := Serve(context.Background(), pipes{sr, sw}, c.opts)
		sw.Close()
		c.done <- code
	}
	go c.read(bufio.NewReader(cr))
	t.Cleanup(func() { cw.Close() })
	return c
}

func (c *client) read(r *bufio.Reader) {
	for {
		length := 0
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				close(c.notes)
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				length, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(r, body); err != nil {
			close(c.notes)
			return
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			c.t.Errorf("server sent bad JSON: %s", body)
			continue
		}
		if m.Method != "" {
			c.notes <- m
			continue
		}
		c.mu.Lock()
		ch := c.resps[string(m.ID)]
		c.mu.Unlock()
		if ch == nil {
			ch = c.response("null")
		}
		ch <- m
	}
}

func (c *client) response(id string) chan message {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch, ok := c.resps[id]
	if !ok {
		ch = make(chan message, 1)
		c.resps[id] = ch
	}
	return ch
}

func (c *client) writeRaw(body string) {
	c.t.Helper()
	c.once.Do(func() { go c.start() })
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		c.t.Fatalf("writing to the server: %v", err)
	}
}

func (c *client) send(v any) {
	c.t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.writeRaw(string(data))
}

// call sends a request and waits for its response.
func (c *client) call(method string, params any) message {
	c.t.Helper()
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	c.mu.Unlock()
	ch := c.response(strconv.Itoa(id))
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return c.await(ch, method)
}

func (c *client) await(ch chan message, what string) message {
	c.t.Helper()
	select {
	case m := <-ch:
		return m
	case <-time.After(20 * time.Second):
		c.t.Fatalf("no response to %s", what)
	}
	return message{}
}

// result calls and decodes a successful result into v.
func (c *client) result(method string, params, v any) {
	c.t.Helper()
	m := c.call(method, params)
	if m.Error != nil {
		c.t.Fatalf("%s: error %d %s", method, m.Error.Code, m.Error.Message)
	}
	if v != nil {
		if err := json.Unmarshal(m.Result, v); err != nil {
			c.t.Fatalf("%s: decoding %s: %v", method, m.Result, err)
		}
	}
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// diagnostics waits for the next publication for uri.
func (c *client) diagnostics(uri string) PublishDiagnosticsParams {
	c.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case m, ok := <-c.notes:
			if !ok {
				c.t.Fatal("server closed the stream")
			}
			if m.Method != "textDocument/publishDiagnostics" {
				continue
			}
			var p PublishDiagnosticsParams
			if err := json.Unmarshal(m.Params, &p); err != nil {
				c.t.Fatal(err)
			}
			if p.URI == uri {
				return p
			}
		case <-deadline:
			c.t.Fatalf("no diagnostics for %s", uri)
		}
	}
}

func (c *client) initialize(opts any, encodings ...string) map[string]any {
	c.t.Helper()
	caps := map[string]any{}
	if len(encodings) > 0 {
		caps["general"] = map[string]any{"positionEncodings": encodings}
	}
	var res struct {
		Capabilities map[string]any `json:"capabilities"`
	}
	c.result("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": caps, "initializationOptions": opts}, &res)
	if e, ok := res.Capabilities["positionEncoding"].(string); ok {
		c.enc = e
	}
	c.notify("initialized", map[string]any{})
	return res.Capabilities
}

func (c *client) open(path, text string) string {
	c.t.Helper()
	uri := pathToURI(path)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "cuda", "version": 1, "text": text}})
	return uri
}

// shutdown ends the session as the spec says and checks the exit status.
func (c *client) shutdown() {
	c.t.Helper()
	c.result("shutdown", nil, nil)
	c.notify("exit", nil)
	select {
	case code := <-c.done:
		if code != 0 {
			c.t.Errorf("exit status %d after shutdown, want 0", code)
		}
	case <-time.After(10 * time.Second):
		c.t.Fatal("server did not exit")
	}
}

// apply applies a client-side edit to text, as an editor would.
func apply(t testing.TB, src string, edits []TextEdit, enc string) string {
	t.Helper()
	tx := newText([]byte(src))
	type span struct {
		a, b int
		s    string
	}
	var spans []span
	for _, e := range edits {
		spans = append(spans, span{tx.offset(e.Range.Start, enc), tx.offset(e.Range.End, enc), e.NewText})
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].a > spans[j].a })
	for _, s := range spans {
		src = src[:s.a] + s.s + src[s.b:]
	}
	return src
}

func writeFile(t testing.TB, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
