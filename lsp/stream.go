package lsp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"strconv"
	"strings"
	"sync"
)

// maxMessage bounds one message's body: a client sends whole files, and
// cudalint reads no file above 256 MiB.
const maxMessage = 300 << 20

// stream is the base protocol (Content-Length framed JSON) as a
// jsonrpc2.ObjectStream. Unlike jsonrpc2's own codec, a body that is not
// JSON, or not a JSON-RPC message, does not end the connection: it gets
// the error reply JSON-RPC prescribes (id null) and the next message is
// read. Only broken framing, after which no message boundary can be
// trusted, ends it.
type stream struct {
	r   *bufio.Reader
	w   io.Writer
	c   io.Closer
	log *log.Logger
	mu  sync.Mutex // one writer at a time
}

func newStream(rw io.ReadWriteCloser, l *log.Logger) *stream {
	return &stream{r: bufio.NewReaderSize(rw, 64<<10), w: rw, c: rw, log: l}
}

func (s *stream) WriteObject(obj any) error {
	data, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := fmt.Fprintf(s.w, "Content-Length: %d\r\n\r\n", len(data)); err != nil {
		return err
	}
	_, err = s.w.Write(data)
	return err
}

func (s *stream) Close() error { return s.c.Close() }

func (s *stream) ReadObject(v any) error {
	for {
		body, err := s.readBody()
		if err != nil {
			return err
		}
		err = json.Unmarshal(body, v)
		if err == nil {
			return nil
		}
		code, msg := -32700, "parse error: "+err.Error()
		if json.Valid(body) {
			code, msg = -32600, "invalid request: "+err.Error()
		}
		s.log.Printf("bad message (%s): %.200q", msg, body)
		reply := map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": msg}}
		if err := s.WriteObject(reply); err != nil {
			return err
		}
	}
}

// maxHeaderLine bounds one header line: a client that never sends the
// newline must not grow the server's memory with it.
const maxHeaderLine = 4 << 10

// maxHeaders bounds the header lines of one message.
const maxHeaders = 64

// readLine reads one header line of at most maxHeaderLine bytes.
func (s *stream) readLine() (string, error) {
	var b []byte
	for {
		chunk, err := s.r.ReadSlice('\n')
		b = append(b, chunk...)
		if len(b) > maxHeaderLine {
			return "", fmt.Errorf("lsp: header line longer than %d bytes", maxHeaderLine)
		}
		if err != bufio.ErrBufferFull {
			return string(b), err
		}
	}
}

func (s *stream) readBody() ([]byte, error) {
	length := -1
	for lines := 0; ; lines++ {
		if lines == maxHeaders {
			return nil, fmt.Errorf("lsp: more than %d header lines", maxHeaders)
		}
		line, err := s.readLine()
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if length < 0 {
				return nil, fmt.Errorf("lsp: message without Content-Length")
			}
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if ok && strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 || n > maxMessage {
				return nil, fmt.Errorf("lsp: bad Content-Length %q", value)
			}
			length = n
		}
	}
	body := make([]byte, length)
	_, err := io.ReadFull(s.r, body)
	return body, err
}
