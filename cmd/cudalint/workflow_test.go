package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// project is a repository whose kernels are launched in other files: a
// header launched from the .cu that includes it, and a .cu file launched
// through a declaration in another.
var project = map[string]string{
	".git/HEAD": "ref: refs/heads/main\n",
	"kern.cuh": `__global__ void colwalk(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[x * w + y] = in[x * w + y];
}
`,
	"main.cu": `#include "kern.cuh"
void run(const float* a, float* b) {
    colwalk<<<dim3(32, 32), dim3(32, 8)>>>(a, b, 4096);
}
`,
	"src/k2.cu": `__global__ void strided(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * 4];
}
`,
	"host/host.cu": `__global__ void strided(const float* in, float* out);
void go(const float* a, float* b) { strided<<<65536, 32>>>(a, b); }
`,
	"other.cu": `__global__ void unrelated(float* a) { a[2 * threadIdx.x] = 0; }
`,
}

// A file named alone is analyzed within its project: the launches in the
// other files give its kernels their block shapes, and only its own
// findings are reported.
func TestProjectContext(t *testing.T) {
	dir := writeFiles(t, project)
	t.Chdir(dir)
	tests := []struct {
		name    string
		args    []string
		code    int
		want    []string
		notWant []string
	}{
		{"header alone gets its includer's launch", []string{"kern.cuh"}, exitFindings,
			[]string{"kern.cuh:4:5: warning", "block 32x8 from launch at main.cu:3"}, []string{"16x16", "other.cu"}},
		{"file alone gets a launch in another file", []string{"src/k2.cu"}, exitFindings,
			[]string{"src/k2.cu:3:14: warning", "block 32 from launch at host.cu:2", "1 finding (1 warning) in 1 file"}, []string{"256", "other.cu"}},
		{"the includer alone reports not the header", []string{"main.cu"}, exitOK,
			[]string{"no findings"}, []string{"kern.cuh"}},
		{"the launcher alone reports not the kernel's file", []string{"host/host.cu"}, exitOK,
			[]string{"no findings"}, []string{"k2.cu"}},
		{"both named", []string{"main.cu", "kern.cuh"}, exitFindings,
			[]string{"kern.cuh:4:5", "32x8"}, nil},
		{"folder as before", []string{"."}, exitFindings,
			[]string{"kern.cuh:4:5", "src/k2.cu:3:14", "other.cu:1"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runCLI(tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr %s", code, tt.code, errs)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(out, w) {
					t.Errorf("output holds %q:\n%s", w, out)
				}
			}
		})
	}
}

// A named file's kernel keeps the accesses its helpers make in a header
// (llm.c's load128 in common.h): they are its accesses, where Nsight puts
// them too. A kernel defined elsewhere stays out, even when its helper
// is in a header the named file includes.
func TestNamedFileKeepsItsHelpersAccesses(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"util.h": `__device__ float ld(const float* p) { return *p; }
__device__ void st(float* p, float v) { *p = v; }
`,
		"k.cu": `#include "util.h"
__global__ void k(const float* a, float* b) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    st(b + i, ld(a + 2 * i));
}
void run(const float* a, float* b) { k<<<64, 128>>>(a, b); }
`,
		"other.cu": `#include "util.h"
__global__ void other(const float* a, float* b) { b[threadIdx.x] = ld(a); }
void go(const float* a, float* b) { other<<<1, 32>>>(a, b); }
`,
	})
	t.Chdir(dir)
	tests := []struct {
		file string
		want []string // kernel file:line op sectors
	}{
		{"k.cu", []string{"k util.h:1 load 8", "k util.h:2 store 4"}},
		{"other.cu", []string{"other other.cu:2 store 4", "other util.h:1 load 1"}},
	}
	for _, tt := range tests {
		var got []string
		for _, r := range accessTable(t, "--accesses", "--format", "json", tt.file) {
			got = append(got, fmt.Sprintf("%s %s:%d %s %g", r.Kernel, r.File, r.Line, r.Op, *r.SectorsPerRequest))
		}
		if strings.Join(got, "; ") != strings.Join(tt.want, "; ") {
			t.Errorf("%s: accesses %q, want %q", tt.file, got, tt.want)
		}
		code, out, errs := runCLI("--stats", tt.file)
		want := regexp.MustCompile(fmt.Sprintf(`(?m)^global accesses +%d$`, len(tt.want)))
		if code != exitOK || !want.MatchString(out) {
			t.Errorf("%s --stats: exit %d, want %d global accesses:\n%s%s", tt.file, code, len(tt.want), out, errs)
		}
	}
}

// Every output path is relative to the root, whatever the working folder.
func TestPathsRelativeToRoot(t *testing.T) {
	dir := writeFiles(t, project)
	t.Chdir(filepath.Join(dir, "src"))
	for _, tt := range []struct{ format, want string }{
		{"text", "src/k2.cu:3:14: warning"},
		{"github", "::warning file=src/k2.cu,line=3,col=14"},
		{"json", `"file": "src/k2.cu"`},
		{"sarif", `"uri":"src/k2.cu","uriBaseId":"%SRCROOT%"`},
	} {
		t.Run(tt.format, func(t *testing.T) {
			code, out, errs := runCLI("--format", tt.format, "k2.cu")
			if code != exitFindings || !strings.Contains(out, tt.want) {
				t.Errorf("exit %d, output lacks %q:\n%s\nstderr %s", code, tt.want, out, errs)
			}
			if tt.format == "sarif" && !strings.Contains(out, `"uri":"file://`+filepath.ToSlash(dir)+`/"`) {
				t.Errorf("%%SRCROOT%% is not the root %s:\n%s", dir, out)
			}
		})
	}
	// --root moves the base.
	code, out, _ := runCLI("--root", ".", "k2.cu")
	if code != exitFindings || !strings.HasPrefix(out, "k2.cu:3:14") {
		t.Errorf("with --root .: exit %d\n%s", code, out)
	}
}

// SARIF declares UTF-16 columns and writes them: a line with multi-byte
// characters before the access moves the byte column, not the SARIF one.
func TestSARIFColumnsAreUTF16(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		".git/HEAD": "",
		"u.cu":      "__global__ void k(float* a) { /* é€😀 */ a[2 * threadIdx.x] = 0; }\n",
	})
	t.Chdir(dir)
	_, out, _ := runCLI("--format", "sarif", "u.cu")
	var log struct {
		Runs []struct {
			ColumnKind string `json:"columnKind"`
			Results    []struct {
				Locations []struct {
					PhysicalLocation struct {
						Region struct{ StartColumn, EndColumn int } `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	line := "__global__ void k(float* a) { /* é€😀 */ "
	// é and € are one UTF-16 unit each, 😀 two.
	want := len([]rune(line)) + 1 + 1
	r := log.Runs[0]
	if r.ColumnKind != "utf16CodeUnits" || len(r.Results) != 1 {
		t.Fatalf("columnKind %q, %d results:\n%s", r.ColumnKind, len(r.Results), out)
	}
	reg := r.Results[0].Locations[0].PhysicalLocation.Region
	if reg.StartColumn != want || reg.EndColumn != want+len("a[2 * threadIdx.x]") {
		t.Errorf("columns %d-%d, want %d-%d (bytes would say %d)", reg.StartColumn, reg.EndColumn, want, want+18, len(line)+1)
	}
}

// --fail-level says which severities exit 1; errors still exit 2.
func TestFailLevel(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		// an info (indirect), a warning (strided) and an error (vector cast).
		"info.cu":  "__global__ void k(const int* idx, float* a) { a[idx[threadIdx.x]] = 0; }\nvoid h(const int* i, float* a) { k<<<1, 32>>>(i, a); }\n",
		"warn.cu":  stridedKernel,
		"error.cu": "__global__ void v(const float* in, float4* out) { out[threadIdx.x] = reinterpret_cast<const float4*>(in + 2)[threadIdx.x]; }\nvoid g(const float* i, float4* o) { v<<<1, 32>>>(i, o); }\n",
	})
	tests := []struct {
		level, file string
		code        int
	}{
		{"", "info.cu", exitFindings},
		{"info", "info.cu", exitFindings},
		{"warning", "info.cu", exitOK},
		{"warning", "warn.cu", exitFindings},
		{"error", "warn.cu", exitOK},
		{"error", "error.cu", exitFindings},
		{"none", "error.cu", exitOK},
		{"none", "missing.cu", exitError},
	}
	for _, tt := range tests {
		t.Run(tt.level+"/"+tt.file, func(t *testing.T) {
			args := []string{filepath.Join(dir, tt.file)}
			if tt.level != "" {
				args = append([]string{"--fail-level", tt.level}, args...)
			}
			code, out, errs := runCLI(args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\n%s%s", code, tt.code, out, errs)
			}
		})
	}
	if code, _, errs := runCLI("--fail-level", "loud", filepath.Join(dir, "warn.cu")); code != exitError || !strings.Contains(errs, "--fail-level") {
		t.Errorf("a bad level: exit %d, %s", code, errs)
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// gitRepo makes a repository whose first commit holds files.
func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := writeFiles(t, files)
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "first")
	return dir
}

const twoStrided = `__global__ void k(float* a, float* b) {
    a[8 * threadIdx.x] = 0;
    b[4 * threadIdx.x] = 0;
}
`

// --new-from-rev and --new-from-patch keep the findings on changed lines:
// committed since REV, staged, unstaged, and new files.
func TestNewFromRev(t *testing.T) {
	dir := gitRepo(t, map[string]string{"old.cu": twoStrided, "keep.cu": twoStrided})
	t.Chdir(dir)
	// Change line 3 of old.cu in a commit, add a line to keep.cu unstaged,
	// and add an untracked file.
	base := git(t, dir, "rev-parse", "HEAD")
	if err := os.WriteFile("old.cu", []byte(strings.Replace(twoStrided, "b[4 *", "b[8 *", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "commit", "-q", "-am", "change")
	if err := os.WriteFile("keep.cu", []byte(strings.Replace(twoStrided, "}\n", "    a[3 * threadIdx.x] = 1;\n}\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("new.cu", []byte(stridedKernel), 0o644); err != nil {
		t.Fatal(err)
	}
	patch := git(t, dir, "diff", base, "--", "old.cu") + "\n"
	if err := os.WriteFile(filepath.Join(t.TempDir(), "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	patchFile := filepath.Join(t.TempDir(), "p.diff")
	if err := os.WriteFile(patchFile, []byte(patch), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		args    []string
		code    int
		want    []string
		notWant []string
	}{
		{"all", []string{"."}, exitFindings, []string{"old.cu:2:", "old.cu:3:", "keep.cu:2:", "keep.cu:4:", "new.cu:1:"}, nil},
		{"since base", []string{"--new-from-rev", base, "."}, exitFindings,
			[]string{"old.cu:3:", "keep.cu:4:", "new.cu:1:", "3 findings"}, []string{"old.cu:2:", "keep.cu:2:"}},
		{"since HEAD", []string{"--new-from-rev", "HEAD", "."}, exitFindings,
			[]string{"keep.cu:4:", "new.cu:1:"}, []string{"old.cu"}},
		{"patch", []string{"--new-from-patch", patchFile, "."}, exitFindings,
			[]string{"old.cu:3:", "1 finding"}, []string{"old.cu:2:", "keep.cu", "new.cu"}},
		{"bad rev", []string{"--new-from-rev", "nosuch", "."}, exitError, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runCLI(tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr %s\n%s", code, tt.code, errs, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(out, w) {
					t.Errorf("output holds %q:\n%s", w, out)
				}
			}
		})
	}
}

// --new-from-rev with helpers: a finding is marked at the kernel's call,
// and is new when that call changed or when the helper's access did
// (an edit to a header changes the cost of every call).
func TestNewFromRevHelper(t *testing.T) {
	const helpers = "__device__ float get(const float* a, int i) { return a[i]; }\n"
	const kernel = `#include "helpers.cuh"
__global__ void k(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = get(in, 4 * i);
    out[i] = x + get(in, 8 * i);
}
`
	tests := []struct {
		name           string
		helper, kernel string // the new texts
		want, notWant  []string
	}{
		{"nothing changed", helpers, kernel, []string{"no findings"}, []string{"k.cu:"}},
		{"the helper's access changed", strings.Replace(helpers, "a[i]", "a[i + 0]", 1), kernel,
			[]string{"k.cu:4:15:", "k.cu:5:18:", "2 findings"}, nil},
		{"one call changed", helpers, strings.Replace(kernel, "8 * i", "16 * i", 1),
			[]string{"k.cu:5:18:", "1 finding"}, []string{"k.cu:4:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := gitRepo(t, map[string]string{"helpers.cuh": helpers, "k.cu": kernel})
			t.Chdir(dir)
			if err := os.WriteFile("helpers.cuh", []byte(tt.helper), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile("k.cu", []byte(tt.kernel), 0o644); err != nil {
				t.Fatal(err)
			}
			_, out, errs := runCLI("--new-from-rev", "HEAD", ".")
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s%s", w, out, errs)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(out, w) {
					t.Errorf("output holds %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestParseUnifiedDiff(t *testing.T) {
	diff := `diff --git a/x.cu b/x.cu
--- a/x.cu
+++ b/x.cu
@@ -1,3 +1,4 @@
 one
-two
+TWO
+more
 three
@@ -10 +11,0 @@
--- removed line that looks like a header
@@ -20,0 +21 @@
+added
diff --git a/gone.cu b/gone.cu
--- a/gone.cu
+++ /dev/null
@@ -1 +0,0 @@
-x
`
	c, err := parseUnifiedDiff(strings.NewReader(diff), "/base")
	if err != nil {
		t.Fatal(err)
	}
	got := c[canonical("/base/x.cu")]
	for line, want := range map[int]bool{1: false, 2: true, 3: true, 4: false, 11: false, 21: true} {
		if got[line] != want {
			t.Errorf("line %d changed = %v, want %v (%v)", line, got[line], want, got)
		}
	}
	if len(c) != 1 {
		t.Errorf("files %v, want x.cu only", c)
	}
}

// --write-baseline records the findings; --baseline drops them, keeps
// new ones, survives moved lines, and counts entries that match nothing.
func TestBaseline(t *testing.T) {
	dir := writeFiles(t, map[string]string{".git/HEAD": "", "a.cu": twoStrided})
	t.Chdir(dir)
	bl := filepath.Join(t.TempDir(), "baseline.json")
	code, out, errs := runCLI("--write-baseline", bl, ".")
	if code != exitOK || !strings.Contains(errs, "wrote 2 findings") {
		t.Fatalf("--write-baseline: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI("--baseline", bl, ".")
	if code != exitOK || !strings.Contains(out, "no findings") || strings.Contains(errs, "no longer match") {
		t.Errorf("same code: exit %d\n%s%s", code, out, errs)
	}
	// Lines moved down, one access fixed, one added.
	moved := "// a comment\n\n" + strings.Replace(twoStrided, "b[4 * threadIdx.x]", "b[threadIdx.x]", 1) +
		"__global__ void k2(float* c) { c[3 * threadIdx.x] = 0; }\n"
	if err := os.WriteFile("a.cu", []byte(moved), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runCLI("--baseline", bl, "--format", "sarif", ".")
	if code != exitFindings || strings.Count(out, `"ruleId"`) != 1 || !strings.Contains(out, `"startLine":7`) {
		t.Errorf("moved: exit %d, want only the new finding\n%s", code, out)
	}
	if !strings.Contains(errs, "1 baseline entry no longer matches") {
		t.Errorf("stale entry not counted: %s", errs)
	}
	if code, _, errs := runCLI("--baseline", filepath.Join(dir, "missing.json"), "."); code != exitError {
		t.Errorf("missing baseline: exit %d %s", code, errs)
	}
}

// --accesses and --stats see a named file in its project too: the
// block from the launch in another file, and only the named file's rows.
func TestProjectContextAccesses(t *testing.T) {
	dir := writeFiles(t, project)
	t.Chdir(dir)
	code, out, errs := runCLI("--accesses", "src/k2.cu")
	if code != exitOK || !strings.Contains(out, "block 32 from launch at host.cu:2") || strings.Contains(out, "other.cu") || strings.Contains(out, "host.cu:2:") {
		t.Errorf("exit %d:\n%s%s", code, out, errs)
	}
	_, stats, _ := runCLI("--stats", "src/k2.cu")
	if !strings.Contains(stats, "kernels found") || !regexp.MustCompile(`kernels found\s+1\n`).MatchString(stats) {
		t.Errorf("--stats counts other files' kernels:\n%s", stats)
	}
}

// --sarif-output writes the same findings as SARIF beside the report, from
// one run: what --format sarif prints, whatever the main format; a file
// that cannot be written is exit 2; it goes with no other kind of report.
func TestSARIFOutputBesideTheReport(t *testing.T) {
	dir := writeFiles(t, map[string]string{".git/HEAD": "", "k.cu": stridedKernel})
	t.Chdir(dir)
	_, alone, _ := runCLI("--format", "sarif", "k.cu")
	for _, format := range []string{"text", "github", "json"} {
		path := filepath.Join(dir, format+".sarif")
		code, out, errs := runCLI("--format", format, "--sarif-output", path, "k.cu")
		if code != exitFindings || !strings.Contains(out, "strided-access") {
			t.Fatalf("%s: exit %d, stdout %q, stderr %q", format, code, out, errs)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != alone {
			t.Errorf("%s: --sarif-output wrote %d bytes (%v), not what --format sarif prints (%d bytes)", format, len(got), err, len(alone))
		}
	}
	if code, _, errs := runCLI("--sarif-output", filepath.Join(dir, "no", "such", "dir", "x.sarif"), "k.cu"); code != exitError || !strings.Contains(errs, "--sarif-output") {
		t.Errorf("unwritable SARIF file: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := runCLI("--stats", "--sarif-output", "x.sarif", "k.cu"); code != exitError || !strings.Contains(errs, "--sarif-output writes findings") {
		t.Errorf("--stats with --sarif-output: exit %d, stderr %q", code, errs)
	}
}
