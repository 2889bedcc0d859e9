package lsp

import (
	"encoding/json"
	"io"
	"log"
	"strings"
	"testing"
)

// The framing never panics and never grows without bound: whatever the
// bytes, each read ends with a message (a JSON-RPC object), an error
// reply written for a body that is not one, or an error; and what it
// writes back is framed JSON.
func FuzzStream(f *testing.F) {
	for _, s := range []string{
		"Content-Length: 2\r\n\r\n{}",
		"Content-Length: 52\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}   ",
		"Content-Length: 5\r\n\r\n[1,2]Content-Length: 2\r\n\r\n{}",
		"Content-Length: 7\r\n\r\n{\"id\":",
		"content-length:3\n\n{ }",
		"Content-Length: -1\r\n\r\n",
		"Content-Length: 99999999999999999999\r\n\r\n",
		"Content-Type: x\r\n\r\n{}",
		"Content-Length: 2" + strings.Repeat(" ", 70<<10),
		strings.Repeat("X: y\r\n", 100) + "Content-Length: 2\r\n\r\n{}",
		"Content-Length: 4\r\n\r\n\"\xed\xa0\x80\"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		var out strings.Builder
		s := newStream(fuzzConn{strings.NewReader(input), &out}, log.New(io.Discard, "", 0))
		for i := 0; i < 100; i++ {
			var m map[string]any
			if err := s.ReadObject(&m); err != nil {
				break
			}
		}
		// Every reply is a frame whose body is JSON.
		rest := out.String()
		for rest != "" {
			head, body, ok := strings.Cut(rest, "\r\n\r\n")
			var n int
			if !ok || !strings.HasPrefix(head, "Content-Length: ") || json.Unmarshal([]byte(strings.TrimPrefix(head, "Content-Length: ")), &n) != nil || n > len(body) {
				t.Fatalf("bad frame written: %q", rest)
			}
			if !json.Valid([]byte(body[:n])) {
				t.Fatalf("reply is not JSON: %q", body[:n])
			}
			rest = body[n:]
		}
	})
}

type fuzzConn struct {
	io.Reader
	w io.Writer
}

func (c fuzzConn) Write(p []byte) (int, error) { return c.w.Write(p) }
func (fuzzConn) Close() error                  { return nil }
