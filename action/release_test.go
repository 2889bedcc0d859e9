package action

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// fakeRelease is a release server as GitHub's releases/ URLs lay it out:
// download/TAG/ASSET and latest/download/ASSET. It counts the requests.
type fakeRelease struct {
	mu    sync.Mutex
	files map[string][]byte // path below the base URL
	fail  map[string]int    // path: HTTP status to answer
	hits  []string
	srv   *httptest.Server
}

func newFakeRelease(t *testing.T) *fakeRelease {
	f := &fakeRelease{files: map[string][]byte{}, fail: map[string]int{}}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		p := strings.TrimPrefix(r.URL.Path, "/releases/")
		f.hits = append(f.hits, p)
		if code := f.fail[p]; code != 0 {
			http.Error(w, "failing", code)
			return
		}
		data, ok := f.files[p]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(data)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeRelease) url() string { return f.srv.URL + "/releases" }

func (f *fakeRelease) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.hits...)
}

// publish adds a release under dir (download/v1.2.3 or latest/download):
// the archive of each platform holding exe as cudalint, and checksums.txt
// as GoReleaser writes it.
func (f *fakeRelease) publish(t *testing.T, dir string, exe []byte, platforms ...string) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	var sums strings.Builder
	for _, p := range platforms {
		name := "cudalint_" + p + ".tar.gz"
		data := tarGz(t, map[string][]byte{"cudalint": exe, "LICENSE": []byte("license\n")})
		f.files[dir+"/"+name] = data
		fmt.Fprintf(&sums, "%x  %s\n", sha256.Sum256(data), name)
	}
	f.files[dir+"/checksums.txt"] = []byte(sums.String())
}

func tarGz(t *testing.T, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, data := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(data))}); err != nil {
			t.Fatal(err)
		}
		tw.Write(data)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	gz.Close()
	return buf.Bytes()
}

// fakeExe is a stand-in binary: a script that says which release it is.
func fakeExe(tag string) []byte {
	return []byte("#!/bin/sh\necho cudalint " + tag + "\n")
}

// step runs one step of run.sh (resolve, fetch) with env and returns its
// exit status, what it printed and its outputs.
func step(t *testing.T, name string, env ...string) (int, string, map[string]string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "output")
	cmd := exec.Command("bash", filepath.Join(checkout(t), "action", "run.sh"), name)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GITHUB_OUTPUT="+out, "RUNNER_OS=Linux", "RUNNER_ARCH=X64",
		"INPUT_VERSION=", "ACTION_REF=", "GITHUB_ACTION_PATH="+checkout(t))
	cmd.Env = append(cmd.Env, env...)
	msg, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	outputs := map[string]string{}
	o, _ := os.ReadFile(out)
	for _, l := range strings.Split(string(o), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			outputs[k] = v
		}
	}
	return code, string(msg), outputs
}

// resolve names the release the version input, else the action's own
// tag, asks for, and the cache of its binary; nothing for a commit.
func TestResolveRelease(t *testing.T) {
	t.Parallel()
	tools := "RUNNER_TOOL_CACHE=/cache"
	tests := []struct {
		name string
		env  []string
		tag  string
	}{
		{"the action's tag", []string{"ACTION_REF=v1.2.3"}, "v1.2.3"},
		{"a prerelease tag", []string{"ACTION_REF=v1.3.0-rc.1"}, "v1.3.0-rc.1"},
		{"the input over the tag", []string{"ACTION_REF=v1.2.3", "INPUT_VERSION=v1.2.4"}, "v1.2.4"},
		{"latest", []string{"INPUT_VERSION=latest"}, "latest"},
		{"the tag from the action's folder", []string{"GITHUB_ACTION_PATH=/runner/_work/_actions/cudalint/cudalint/v1.2.3"}, "v1.2.3"},
		{"a commit", []string{"ACTION_REF=0123456789abcdef0123456789abcdef01234567"}, ""},
		{"a branch", []string{"ACTION_REF=main"}, ""},
		{"a major tag", []string{"ACTION_REF=v1"}, ""},
		{"a local action", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, msg, out := step(t, "resolve", append(tt.env, tools)...)
			if code != 0 || out["tag"] != tt.tag {
				t.Fatalf("exit %d, tag %q, want %q:\n%s", code, out["tag"], tt.tag, msg)
			}
			wantKey, wantDir := "", ""
			if tt.tag != "" && tt.tag != "latest" {
				wantKey, wantDir = "cudalint-"+tt.tag+"-linux_amd64", "/cache/cudalint/"+tt.tag+"/linux_amd64"
			}
			if out["cache-key"] != wantKey || out["cache-dir"] != wantDir {
				t.Errorf("cache-key %q, cache-dir %q; want %q, %q", out["cache-key"], out["cache-dir"], wantKey, wantDir)
			}
		})
	}
}

// fetch downloads the release's archive for the runner, checks it
// against checksums.txt and caches the binary; a version with no release
// falls back to a build, a release that does not verify is an error.
func TestFetchRelease(t *testing.T) {
	t.Parallel()
	rel := newFakeRelease(t)
	all := []string{"linux_amd64", "linux_arm64", "darwin_amd64", "darwin_arm64"}
	rel.publish(t, "download/v1.2.3", fakeExe("v1.2.3"), all...)
	rel.publish(t, "download/v1.2.4", fakeExe("v1.2.4"), all...)
	rel.publish(t, "latest/download", fakeExe("v2.0.0"), all...)
	rel.publish(t, "download/v3.0.0", fakeExe("v3.0.0"), all...)
	rel.files["download/v3.0.0/cudalint_linux_amd64.tar.gz"] = tarGz(t, map[string][]byte{"cudalint": []byte("#!/bin/sh\necho evil\n")})
	rel.publish(t, "download/v4.0.0", fakeExe("v4.0.0"), "darwin_arm64")
	rel.publish(t, "download/v5.0.0", fakeExe("v5.0.0"), all...)
	rel.fail["download/v5.0.0/checksums.txt"] = http.StatusBadGateway

	tests := []struct {
		name  string
		env   []string
		code  int
		says  string // the binary's --version, "" for no binary
		build string
		msg   string
	}{
		{"the action's tag", []string{"ACTION_REF=v1.2.3"}, 0, "cudalint v1.2.3", "false", "SHA-256"},
		{"the version input", []string{"ACTION_REF=v1.2.3", "INPUT_VERSION=v1.2.4"}, 0, "cudalint v1.2.4", "false", ""},
		{"latest", []string{"INPUT_VERSION=latest"}, 0, "cudalint v2.0.0", "false", ""},
		{"arm64", []string{"ACTION_REF=v1.2.3", "RUNNER_ARCH=ARM64", "RUNNER_OS=macOS"}, 0, "cudalint v1.2.3", "false", "darwin_arm64"},
		{"a commit", []string{"ACTION_REF=0123456789abcdef0123456789abcdef01234567"}, 0, "", "true", "names no release"},
		{"a tag with no release", []string{"ACTION_REF=v0.0.9"}, 0, "", "true", "has no release"},
		{"an unknown platform", []string{"ACTION_REF=v1.2.3", "RUNNER_ARCH=ARM"}, 0, "", "true", "no release binary"},
		{"a tampered archive", []string{"ACTION_REF=v3.0.0"}, 2, "", "", "does not match checksums.txt"},
		{"no archive for the runner", []string{"ACTION_REF=v4.0.0"}, 2, "", "", "has no cudalint_linux_amd64.tar.gz"},
		{"a server error", []string{"ACTION_REF=v5.0.0"}, 2, "", "", "HTTP 502"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cache := t.TempDir()
			env := append([]string{"CUDALINT_RELEASES=" + rel.url(), "RUNNER_TOOL_CACHE=" + cache, "RUNNER_TEMP=" + t.TempDir()}, tt.env...)
			code, msg, out := step(t, "fetch", env...)
			if code != tt.code || !strings.Contains(msg, tt.msg) {
				t.Fatalf("exit %d, want %d, and %q in:\n%s", code, tt.code, tt.msg, msg)
			}
			if out["build"] != tt.build {
				t.Errorf("build %q, want %q", out["build"], tt.build)
			}
			if tt.says == "" {
				if out["bin"] != "" {
					t.Errorf("bin %q, want none", out["bin"])
				}
				if code != 0 {
					if files, _ := filepath.Glob(filepath.Join(cache, "cudalint", "*", "*", "cudalint")); len(files) != 0 {
						t.Errorf("a binary that did not verify was cached: %v", files)
					}
				}
				return
			}
			v, err := exec.Command(out["bin"], "--version").Output()
			if err != nil || strings.TrimSpace(string(v)) != tt.says {
				t.Errorf("%s says %q (%v), want %q", out["bin"], v, err, tt.says)
			}
		})
	}
}

// The binary is downloaded once: a second fetch with the same cache
// asks the server for nothing; a cached binary that changed is fetched
// again.
func TestFetchCaches(t *testing.T) {
	t.Parallel()
	rel := newFakeRelease(t)
	rel.publish(t, "download/v1.2.3", fakeExe("v1.2.3"), "linux_amd64")
	cache := t.TempDir()
	env := []string{"CUDALINT_RELEASES=" + rel.url(), "RUNNER_TOOL_CACHE=" + cache, "ACTION_REF=v1.2.3"}
	_, msg, first := step(t, "fetch", env...)
	if n := len(rel.requests()); n != 2 || first["downloaded"] != "true" {
		t.Fatalf("first fetch: %d requests, downloaded %q:\n%s", n, first["downloaded"], msg)
	}
	_, msg, second := step(t, "fetch", env...)
	if n := len(rel.requests()); n != 2 || second["bin"] != first["bin"] || second["downloaded"] != "false" || !strings.Contains(msg, "from the cache") {
		t.Fatalf("second fetch: %d requests in all, bin %q, downloaded %q:\n%s", n, second["bin"], second["downloaded"], msg)
	}
	if err := os.WriteFile(first["bin"], []byte("#!/bin/sh\necho changed\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, msg, third := step(t, "fetch", env...)
	v, _ := exec.Command(third["bin"], "--version").Output()
	if n := len(rel.requests()); n != 4 || strings.TrimSpace(string(v)) != "cudalint v1.2.3" {
		t.Fatalf("after the cached binary changed: %d requests, it says %q:\n%s", n, v, msg)
	}
}

// The whole default path: the action's tag names a release, fetch
// downloads the real binary, and run runs it without building anything.
func TestRunsTheReleasedBinary(t *testing.T) {
	t.Parallel()
	osName := map[string]string{"linux": "Linux", "darwin": "macOS"}[runtime.GOOS]
	arch := map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH]
	if osName == "" || arch == "" {
		t.Skipf("no release is built for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	exe, err := os.ReadFile(cudalint(t))
	if err != nil {
		t.Fatal(err)
	}
	rel := newFakeRelease(t)
	rel.publish(t, "download/v1.2.3", exe, runtime.GOOS+"_"+runtime.GOARCH)
	cache := t.TempDir()
	code, msg, out := step(t, "fetch", "CUDALINT_RELEASES="+rel.url(), "RUNNER_TOOL_CACHE="+cache,
		"ACTION_REF=v1.2.3", "RUNNER_OS="+osName, "RUNNER_ARCH="+arch)
	if code != 0 || out["bin"] == "" {
		t.Fatalf("fetch: exit %d, outputs %v:\n%s", code, out, msg)
	}
	ws := repo(t, map[string]string{"s.cu": strided})
	r := runAction(t, ws, ".", nil, "CUDALINT_BIN="+out["bin"])
	if r.code != 1 || r.outputs["findings"] != "2" {
		t.Errorf("exit %d, findings %q:\n%s", r.code, r.outputs["findings"], r.stdout)
	}
	if _, err := os.Stat(filepath.Join(r.runnerTemp, "cudalint-action-bin")); err == nil {
		t.Errorf("run built cudalint although fetch gave it one")
	}
}
