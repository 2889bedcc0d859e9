package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A mistake in .cudalint.yaml exits 2 with the mistake at its file:line:col
// and prints no findings, as if all were well, whatever the format.
func TestConfigMistakesExit2(t *testing.T) {
	tests := []struct{ name, config, want string }{
		{"typo in enable", "enable: [strided]\n", `:1:10: enable: unknown rule "strided" (did you mean strided-access?)`},
		{"unknown key", "disabel: [aos-field]\n", `:1:1: unknown key "disabel" (did you mean disable?)`},
		{"zero in a block", "blocks: {copy: 0x16}\n", `:1:16: blocks.copy: block shape "0x16": "0" is not a positive number`},
		{"too many threads", "blocks: {copy: 64x64}\n", `:1:16: blocks.copy: block shape "64x64" has 4096 threads; CUDA allows at most 1024`},
		{"non-integer param", "params: {n: abc}\n", `:1:13: params.n must be an integer, got the text "abc"`},
		{"bad severity", "min-severity: warn\n", `:1:15: min-severity: unknown severity "warn" (did you mean warning?)`},
		{"a name for a list", "enable: strided-access\n", `:1:9: enable must be a list of rule names, got the text "strided-access" (write enable: [strided-access])`},
		{"a list for blocks", "blocks: [copy]\n", `:1:9: blocks must be a mapping of kernel names to block shapes`},
	}
	for _, tt := range tests {
		for _, format := range []string{"text", "json", "sarif", "github", "html"} {
			t.Run(tt.name+"/"+format, func(t *testing.T) {
				dir := writeFiles(t, map[string]string{"k.cu": copyKernel, ".cudalint.yaml": tt.config})
				code, out, errs := runCLI("--format", format, "--exit-zero", dir)
				if code != exitError {
					t.Errorf("exit %d, want %d", code, exitError)
				}
				if want := "cudalint: " + filepath.Join(dir, ".cudalint.yaml") + tt.want; !strings.Contains(errs, want) {
					t.Errorf("stderr %q lacks %q", errs, want)
				}
				if strings.Contains(out, "a[2 * i]") {
					t.Errorf("findings printed despite the mistake:\n%s", out)
				}
				if strings.Contains(errs, "driver.") || strings.Contains(errs, "unmarshal") {
					t.Errorf("stderr shows Go's terms: %q", errs)
				}
			})
		}
	}
}

// Settings that take no effect are warnings on stderr, naming their
// place; the run and its exit status are as usual.
func TestSettingsThatMatchNothingWarn(t *testing.T) {
	tests := []struct {
		name, config string
		args         []string
		code         int
		want         string
	}{
		{"empty config", "", nil, exitFindings, ""},
		{"config block", "blocks: {cpy: 32}\n", nil, exitFindings,
			`.cudalint.yaml:1:10: warning: blocks: no kernel named "cpy" in the files analyzed (did you mean copy?)`},
		{"config param", "params:\n  copy.n: 3\n", nil, exitFindings,
			`.cudalint.yaml:2:3: warning: params: kernel copy has no parameter "n" (it has a or b)`},
		{"flag block", "", []string{"--block", "cpy=32x8"}, exitFindings,
			`cudalint: warning: --block cpy=32x8: no kernel named "cpy" in the files analyzed (did you mean copy?)`},
		{"flag param, access table", "", []string{"--accesses", "--param", "width=3"}, exitOK,
			`cudalint: warning: --param width=3: no kernel in the files analyzed has a parameter "width"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"k.cu": copyKernel, ".cudalint.yaml": tt.config})
			code, out, errs := runCLI(append(tt.args, dir)...)
			if code != tt.code || !strings.Contains(out, "a[2 * i]") {
				t.Errorf("exit %d, want %d; output:\n%s", code, tt.code, out)
			}
			if tt.want == "" && errs != "" || !strings.Contains(errs, tt.want) {
				t.Errorf("stderr %q, want %q", errs, tt.want)
			}
		})
	}
}

func TestFlagMistakes(t *testing.T) {
	dir := writeFiles(t, map[string]string{"k.cu": copyKernel})
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--enable", "strided"}, `cudalint: --enable: unknown rule "strided" (did you mean strided-access?)`},
		{[]string{"--disable", "aos-feild"}, `cudalint: --disable: unknown rule "aos-feild" (did you mean aos-field?)`},
		{[]string{"--block", "copy=32y8"}, `block shape "32y8": "32y8" is not a positive number`},
		{[]string{"--severity", "warn"}, `cudalint: --severity: unknown severity "warn"`},
	}
	for _, tt := range tests {
		code, out, errs := runCLI(append(tt.args, dir)...)
		if code != exitError || out != "" || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tt.args, code, out, errs, tt.want)
		}
	}
}

// --accesses and --stats load through the driver: a folder's
// configuration (its blocks, its exclusions, its mistakes) applies to
// them as it does to findings.
func TestAccessesReadTheFolderConfig(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a/k.cu":           copyKernel,
		"a/.cudalint.yaml": "blocks: {copy: 64}\n",
		"b/k.cu":           copyKernel,
		"c/k.cu":           copyKernel,
		"c/.cudalint.yaml": "exclude: [k.cu]\n",
	})
	t.Chdir(dir)
	code, out, errs := runCLI("--accesses", "--format", "json", ".")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Accesses []struct {
			File  string  `json:"file"`
			Block []int64 `json:"block"`
		} `json:"accesses"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	blocks := map[string]int64{}
	for _, a := range doc.Accesses {
		blocks[filepath.ToSlash(a.File)] = a.Block[0]
	}
	want := map[string]int64{"a/k.cu": 64, "b/k.cu": 256}
	if len(blocks) != len(want) || blocks["a/k.cu"] != 64 || blocks["b/k.cu"] != 256 {
		t.Errorf("blocks by file %v, want %v (c/k.cu excluded)", blocks, want)
	}
	os.WriteFile(filepath.Join(dir, "b", ".cudalint.yaml"), []byte("enable: [strided]\n"), 0o644)
	for _, mode := range []string{"--accesses", "--stats"} {
		if code, _, errs := runCLI(mode, "."); code != exitError || !strings.Contains(errs, "did you mean strided-access") {
			t.Errorf("%s with a mistaken config: exit %d, stderr %q", mode, code, errs)
		}
	}
}

// A grid only run time knows can be given, by flag or per folder: the
// launch is then counted whole (excessBytesPerLaunch), and a mistaken
// shape is an error.
func TestGridSetting(t *testing.T) {
	src := "__global__ void k(float* a) { a[4 * threadIdx.x] = 0; }\nvoid h(float* a, int g) { k<<<g, 256>>>(a); }\n"
	dir := writeFiles(t, map[string]string{"a/k.cu": src, "b/k.cu": src, "b/.cudalint.yaml": "grids: {k: 64}\n"})
	t.Chdir(dir)
	excess := func(args ...string) map[string]float64 {
		_, out, errs := runCLI(append([]string{"--format", "json"}, args...)...)
		var doc struct {
			Findings []struct {
				File    string         `json:"file"`
				Numbers map[string]any `json:"numbers"`
			} `json:"findings"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v: %s", err, errs)
		}
		got := map[string]float64{}
		for _, f := range doc.Findings {
			if v, ok := f.Numbers["excessBytesPerLaunch"].(float64); ok {
				got[filepath.ToSlash(f.File)] = v
			}
		}
		return got
	}
	// 64 blocks x 8 warps x (16 - 4) sectors x 32 bytes.
	if got := excess("."); len(got) != 1 || got["b/k.cu"] != 64*8*12*32 {
		t.Errorf("grids in b's config: excess by file %v, want only b/k.cu = %d", got, 64*8*12*32)
	}
	if got := excess("--grid", "k=128", "."); got["a/k.cu"] != 128*8*12*32 || got["b/k.cu"] != 128*8*12*32 {
		t.Errorf("--grid k=128: %v", got)
	}
	if code, _, errs := runCLI("--grid", "k=0x4", "."); code != exitError || !strings.Contains(errs, "grid shape") {
		t.Errorf("--grid k=0x4: exit %d, %s", code, errs)
	}
}
