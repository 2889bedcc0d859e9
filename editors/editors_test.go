// Package editors holds the tests of the editor clients that
// docs/editors.md documents: the Neovim 0.7 snippet runs in a real
// Neovim, and the VS Code client (editors/vscode) offers every setting
// the server reads and the commands it contributes.
package editors

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cudalint/cudalint/internal/testtool"
)

func readFile(t *testing.T, parts ...string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(append([]string{".."}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// luaAfter returns the first ```lua block of docs/editors.md after the
// text marker.
func luaAfter(t *testing.T, marker string) string {
	t.Helper()
	doc := readFile(t, "docs", "editors.md")
	i := strings.Index(doc, marker)
	if i < 0 {
		t.Fatalf("docs/editors.md has no %q", marker)
	}
	rest := doc[i:]
	s := strings.Index(rest, "```lua\n")
	e := strings.Index(rest[s+7:], "```")
	if s < 0 || e < 0 {
		t.Fatalf("no lua block after %q", marker)
	}
	return rest[s+7 : s+7+e]
}

// check is run after the snippet: it opens two files of one repository
// and one of another, and says how the buffers are attached.
const check = `
local function fail(msg) io.stderr:write('FAIL: ' .. msg .. '\n'); os.exit(1) end
local bufs = {}
for _, f in ipairs({ os.getenv('FILE_A'), os.getenv('FILE_B'), os.getenv('FILE_C') }) do
  vim.cmd('edit ' .. vim.fn.fnameescape(f))
  table.insert(bufs, vim.api.nvim_get_current_buf())
end
local function ids(buf)
  local out = {}
  for id, _ in pairs(vim.lsp.buf_get_clients(buf)) do table.insert(out, id) end
  return out
end
-- A buffer's client is listed once it has initialized.
local ready = vim.wait(30000, function()
  for _, buf in ipairs(bufs) do
    if #ids(buf) == 0 then return false end
  end
  return true
end, 50)
if not ready then fail('not every buffer got a client: ' .. vim.inspect({ ids(bufs[1]), ids(bufs[2]), ids(bufs[3]) })) end
local a, b, c = ids(bufs[1]), ids(bufs[2]), ids(bufs[3])
local roots = {}
for _, cl in ipairs(vim.lsp.get_active_clients()) do roots[cl.id] = cl.config.root_dir end
io.stdout:write(('clients %d; a %s b %s c %s; roots %s\n'):format(#vim.lsp.get_active_clients(),
  vim.inspect(a), vim.inspect(b), vim.inspect(c), vim.inspect(roots)))
os.exit(0)
`

// The Neovim 0.7 snippet starts one server per root, not per buffer:
// two files of one repository share a client rooted at the repository,
// a file of another repository gets its own.
func TestNeovim07Snippet(t *testing.T) {
	nvim := testtool.Need(t, "nvim", "apt-get install neovim")
	dir := t.TempDir()
	bin, err := testtool.Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	kernel := "__global__ void k(float* a) { a[threadIdx.x] = 0; }\n"
	files := map[string]string{"r1/.git/HEAD": "", "r1/a.cu": kernel, "r1/sub/b.cu": kernel, "r2/.git/HEAD": "", "r2/c.cu": kernel}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script := filepath.Join(dir, "test.lua")
	if err := os.WriteFile(script, []byte(luaAfter(t, "Neovim 0.7")+check), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile "+script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"FILE_A="+filepath.Join(dir, "r1", "a.cu"), "FILE_B="+filepath.Join(dir, "r1", "sub", "b.cu"), "FILE_C="+filepath.Join(dir, "r2", "c.cu"),
		"XDG_STATE_HOME="+dir, "XDG_CACHE_HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`clients (\d+); a \{ (\d+) \} b \{ (\d+) \} c \{ (\d+) \}; roots (.*)`).FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("each buffer must have one client:\n%s", out)
	}
	if m[1] != "2" || m[2] != m[3] || m[2] == m[4] {
		t.Errorf("want two clients, a and b sharing one, c its own:\n%s", out)
	}
	for _, root := range []string{filepath.Join(dir, "r1"), filepath.Join(dir, "r2")} {
		if !strings.Contains(m[5], `"`+root+`"`) {
			t.Errorf("no client is rooted at %s: %s", root, m[5])
		}
	}
}

// The VS Code client offers every setting docs/editors.md lists for the
// server, passes each to it under its name, and registers every command
// it contributes, the restart among them.
func TestVSCodeClient(t *testing.T) {
	var pkg struct {
		ActivationEvents []string `json:"activationEvents"`
		Contributes      struct {
			Commands []struct {
				Command, Title string
			}
			Configuration struct {
				Properties map[string]json.RawMessage
			}
		}
	}
	if err := json.Unmarshal([]byte(readFile(t, "editors", "vscode", "package.json")), &pkg); err != nil {
		t.Fatal(err)
	}
	ext := readFile(t, "editors", "vscode", "src", "extension.ts")
	doc := readFile(t, "docs", "editors.md")
	table := doc[strings.Index(doc, "| key | meaning | flag |"):]
	table = table[:strings.Index(table, "\n\n")]
	keys := regexp.MustCompile("(?m)^\\s*\\| `(\\w+)` \\|").FindAllStringSubmatch(table, -1)
	if len(keys) < 7 {
		t.Fatalf("docs/editors.md's settings table lists %d keys", len(keys))
	}
	body := ext[strings.Index(ext, "function settings()"):]
	body = body[:strings.Index(body, "\n}\n")]
	for _, k := range keys {
		key := k[1]
		if _, ok := pkg.Contributes.Configuration.Properties["cudalint."+key]; !ok {
			t.Errorf("package.json has no setting cudalint.%s", key)
		}
		if !strings.Contains(body, `get<`) || !regexp.MustCompile(`\b`+key+`\b[^\n]*[:,]|"`+key+`"`).MatchString(body) {
			t.Errorf("extension.ts's settings() does not pass %s", key)
		}
	}
	if !slices.ContainsFunc(pkg.Contributes.Commands, func(c struct{ Command, Title string }) bool { return c.Command == "cudalint.restart" }) {
		t.Errorf("package.json contributes no cudalint.restart command: %+v", pkg.Contributes.Commands)
	}
	for _, c := range pkg.Contributes.Commands {
		if !strings.Contains(ext, `registerCommand("`+c.Command+`"`) {
			t.Errorf("extension.ts does not register %s", c.Command)
		}
	}
	if !strings.Contains(doc, "cudalint: Restart the language server") {
		t.Errorf("docs/editors.md does not name the restart command")
	}
}
