// Package release holds the tests of the release build: .goreleaser.yaml
// at the repository root, checked and run by the pinned GoReleaser, and
// the workflow that runs it on tags (.github/workflows/release.yml).
package release

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"gopkg.in/yaml.v3"
)

// goreleaser is the GoReleaser the release workflow runs, pinned: the
// tests check the configuration with the same one.
const goreleaser = "github.com/goreleaser/goreleaser/v2@v2.15.1"

func checkout(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

var installed struct {
	once      sync.Once
	bin, fail string
	skip      bool
	dir       string
}

func TestMain(m *testing.M) {
	code := m.Run()
	if installed.dir != "" {
		os.RemoveAll(installed.dir)
	}
	os.Exit(code)
}

// unreachable says whether go install failed for want of the module
// proxy (no network, or GOPROXY=off) rather than for a real error.
func unreachable(out string) bool {
	for _, s := range []string{"dial tcp", "no such host", "connection refused", "i/o timeout", "network is unreachable",
		"TLS handshake timeout", "GOPROXY=off", "GOFLAGS=-mod=vendor"} {
		if strings.Contains(out, s) {
			return true
		}
	}
	return false
}

// tool installs the pinned GoReleaser from the Go module proxy into a
// temporary folder, once (the build cache keeps it for later runs). It
// skips only off CI when the proxy cannot be reached; with CI=true it
// must run.
func tool(t *testing.T) string {
	t.Helper()
	installed.once.Do(func() {
		dir, err := os.MkdirTemp("", "cudalint-goreleaser")
		if err != nil {
			installed.fail = err.Error()
			return
		}
		installed.dir = dir
		cmd := exec.Command("go", "install", goreleaser)
		cmd.Env = append(os.Environ(), "GOBIN="+dir, "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			installed.fail = "go install " + goreleaser + ": " + err.Error() + "\n" + string(out)
			installed.skip = unreachable(string(out)) && os.Getenv("CI") != "true"
			return
		}
		installed.bin = filepath.Join(dir, "goreleaser")
	})
	if installed.skip {
		t.Skip(installed.fail)
	}
	if installed.fail != "" {
		t.Fatal(installed.fail)
	}
	return installed.bin
}

// goreleaser check accepts the configuration, and rejects one with a
// mistake: proof that it read it.
func TestGoReleaserCheck(t *testing.T) {
	bin := tool(t)
	cmd := exec.Command(bin, "check")
	cmd.Dir = checkout(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("goreleaser check: %v\n%s", err, out)
	}
	good, err := os.ReadFile(filepath.Join(checkout(t), ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte(strings.Replace(string(good), "goarch:", "goarchs:", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(bin, "check", "--config", bad)
	cmd.Dir = checkout(t)
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "goarchs") {
		t.Errorf("goreleaser check accepted a misspelt field (%v):\n%s", err, out)
	}
}

// A snapshot build for this machine builds cudalint with the version
// stamped: the binary's --version says the version GoReleaser gave it.
func TestSnapshotBuild(t *testing.T) {
	bin := tool(t)
	good, err := os.ReadFile(filepath.Join(checkout(t), ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// The configuration as it is, but building into a temporary folder
	// rather than the checkout's dist/.
	tmp := t.TempDir()
	dist := filepath.Join(tmp, "dist")
	cfg := filepath.Join(tmp, "goreleaser.yaml")
	if err := os.WriteFile(cfg, append(good, []byte("\ndist: "+dist+"\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "build", "--snapshot", "--clean", "--single-target", "--config", cfg)
	cmd.Dir = checkout(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("goreleaser build: %v\n%s", err, out)
	}
	var meta struct{ Version string }
	readJSON(t, filepath.Join(dist, "metadata.json"), &meta)
	var artifacts []struct {
		Name, Path, Goos, Goarch, Type string
	}
	readJSON(t, filepath.Join(dist, "artifacts.json"), &artifacts)
	var built []string
	for _, a := range artifacts {
		if a.Type == "Binary" {
			built = append(built, a.Goos+"/"+a.Goarch+":"+a.Name)
		}
	}
	want := runtime.GOOS + "/" + runtime.GOARCH + ":cudalint"
	if runtime.GOOS == "windows" {
		want += ".exe"
	}
	if len(built) != 1 || built[0] != want {
		t.Fatalf("binaries %v, want %s", built, want)
	}
	exe := artifacts[slices.IndexFunc(artifacts, func(a struct{ Name, Path, Goos, Goarch, Type string }) bool { return a.Type == "Binary" })].Path
	if !filepath.IsAbs(exe) {
		exe = filepath.Join(checkout(t), exe)
	}
	out, err := exec.Command(exe, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); !strings.Contains(meta.Version, "SNAPSHOT") || got != "cudalint "+meta.Version {
		t.Errorf("--version says %q; the snapshot is %q", got, meta.Version)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// The configuration releases what the Action downloads: six platforms,
// archives named as run.sh names them, checksums.txt, the version
// stamped into main.version; the workflow runs the same GoReleaser.
func TestReleaseShape(t *testing.T) {
	var cfg struct {
		Builds []struct {
			Main    string
			Goos    []string
			Goarch  []string
			Ldflags []string
		}
		Archives []struct {
			Formats         []string
			NameTemplate    string `yaml:"name_template"`
			FormatOverrides []struct {
				Goos    string
				Formats []string
			} `yaml:"format_overrides"`
		}
		Checksum struct {
			NameTemplate string `yaml:"name_template"`
		}
	}
	data, err := os.ReadFile(filepath.Join(checkout(t), ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Builds) != 1 || len(cfg.Archives) != 1 {
		t.Fatalf("%d builds, %d archives; want one of each", len(cfg.Builds), len(cfg.Archives))
	}
	b, a := cfg.Builds[0], cfg.Archives[0]
	goos, goarch := slices.Sorted(slices.Values(b.Goos)), slices.Sorted(slices.Values(b.Goarch))
	if b.Main != "./cmd/cudalint" || !slices.Equal(goos, []string{"darwin", "linux", "windows"}) || !slices.Equal(goarch, []string{"amd64", "arm64"}) {
		t.Errorf("builds %s for %v × %v", b.Main, goos, goarch)
	}
	if !slices.ContainsFunc(b.Ldflags, func(f string) bool { return strings.Contains(f, "-X main.version={{ .Version }}") }) {
		t.Errorf("ldflags %v do not stamp main.version", b.Ldflags)
	}
	if cfg.Checksum.NameTemplate != "checksums.txt" {
		t.Errorf("checksums are %q", cfg.Checksum.NameTemplate)
	}
	// run.sh downloads cudalint_<os>_<arch>.tar.gz, .zip on Windows.
	script, err := os.ReadFile(filepath.Join(checkout(t), "action", "run.sh"))
	if err != nil {
		t.Fatal(err)
	}
	zip := len(a.FormatOverrides) == 1 && a.FormatOverrides[0].Goos == "windows" && slices.Equal(a.FormatOverrides[0].Formats, []string{"zip"})
	if a.NameTemplate != "{{ .ProjectName }}_{{ .Os }}_{{ .Arch }}" || !slices.Equal(a.Formats, []string{"tar.gz"}) || !zip ||
		!strings.Contains(string(script), "asset=cudalint_$plat.tar.gz") || !strings.Contains(string(script), "asset=cudalint_$plat.zip") {
		t.Errorf("archives %+v are not what action/run.sh downloads", a)
	}
	wf, err := os.ReadFile(filepath.Join(checkout(t), ".github", "workflows", "release.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(wf), "go run "+goreleaser+" release --clean") {
		t.Errorf("release.yml does not run %s", goreleaser)
	}
	ci, err := os.ReadFile(filepath.Join(checkout(t), ".ci", "run"))
	if err != nil || !strings.Contains(string(ci), "go install "+goreleaser+"\n") {
		t.Errorf(".ci/run does not build %s before the tests (%v)", goreleaser, err)
	}
	var w struct {
		On struct {
			Push struct{ Tags []string }
		}
	}
	if err := yaml.Unmarshal(wf, &w); err != nil || !slices.Equal(w.On.Push.Tags, []string{"v*"}) {
		t.Errorf("release.yml runs on tags %v (%v), want v*", w.On.Push.Tags, err)
	}
}

// actionlint (pinned, as the Action's tests run it) accepts the
// release workflow.
func TestActionlint(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads actionlint")
	}
	cmd := exec.Command("go", "run", "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12", "-no-color", ".github/workflows/release.yml")
	cmd.Dir = checkout(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("actionlint: %v\n%s", err, out)
	}
}
