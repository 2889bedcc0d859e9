package driver

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cudalint/cudalint/analyzer"
)

// loadText writes text as a config file and loads it.
func loadText(t *testing.T, text string) (string, *Config, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), ConfigName)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := LoadConfig(path)
	return path, c, err
}

// goish are words of Go and of yaml.v3's decoder that a user's message
// must never show.
var goish = []string{"driver.", "Config", "!!", "unmarshal", "[]string", "map[", "int64", "yaml:"}

// Every mistake is an error naming the file, line and column, said in
// the file's terms; each line of want is one error, after the path.
func TestConfigMistakes(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"typo in a rule", "enable: [strided]\n",
			`:1:10: enable: unknown rule "strided" (did you mean strided-access?)`},
		{"rule nothing like one", "disable: [frobnicate]\n",
			`:1:11: disable: unknown rule "frobnicate"; cudalint rules lists them`},
		{"unknown key", "enable: [aos-field]\ndisabel: [strided-access]\n",
			`:2:1: unknown key "disabel" (did you mean disable?)`},
		{"unknown key, nothing near", "colour: red\n",
			`:1:1: unknown key; the keys are blocks, defines, disable, enable, exclude, grids, host-cpp, include-dirs, min-severity or params`},
		{"scalar for a list", "enable: strided-access\n",
			`:1:9: enable must be a list of rule names, got the text "strided-access" (write enable: [strided-access])`},
		{"host-cpp not a boolean", "host-cpp: 0\n",
			`:1:11: host-cpp must be true or false, got 0`},
		{"mapping for a list", "disable: {a: 1}\n",
			`:1:10: disable must be a list of rule names, got a mapping`},
		{"zero in a block", "blocks: {k: 0x16}\n",
			`:1:13: blocks.k: block shape "0x16": "0" is not a positive number`},
		{"too many threads", "blocks: {k: 64x64}\n",
			`:1:13: blocks.k: block shape "64x64" has 4096 threads; CUDA allows at most 1024`},
		{"four dimensions", "blocks:\n  k: 2x2x2x2\n",
			`:2:6: blocks.k: block shape "2x2x2x2" has more than three dimensions`},
		{"z too deep", "blocks: {k: 1x1x128}\n",
			`:1:13: blocks.k: block shape "1x1x128": z is 128; CUDA allows at most 64`},
		{"not a number", "blocks: {k: 32y8}\n",
			`:1:13: blocks.k: block shape "32y8": "32y8" is not a positive number`},
		{"overflowing shape", "blocks: {k: 4294967296x4294967296}\n",
			`:1:13: blocks.k: block shape "4294967296x4294967296": x is 4294967296; CUDA allows at most 1024`},
		{"list for blocks", "blocks: [k, 32]\n",
			`:1:9: blocks must be a mapping of kernel names to block shapes, as in blocks: {transpose: 32x8}, got a list`},
		{"list as a shape", "blocks: {k: [32, 8]}\n",
			`:1:13: blocks.k must be a block shape such as 32x8, got a list`},
		{"non-integer param", "params: {n: abc}\n",
			`:1:13: params.n must be an integer, got the text "abc"`},
		{"fractional param", "params: {n: 1.5}\n",
			`:1:13: params.n must be an integer, got 1.5`},
		{"param key", "params: {\"a.b.c\": 1}\n",
			`:1:10: params: "a.b.c" is not a parameter name: write NAME or KERNEL.NAME`},
		{"bad severity", "min-severity: warn\n",
			`:1:15: min-severity: unknown severity "warn" (did you mean warning?)`},
		{"severity list", "min-severity: [info]\n",
			`:1:15: min-severity must be one of info, warning or error, got a list`},
		{"malformed glob", "exclude: [\"src/[a-\"]\n",
			`:1:11: exclude: pattern "src/[a-" is malformed (unclosed [ or a trailing \)`},
		{"define as a list", "defines: {TILE: [1]}\n",
			`:1:17: defines.TILE must be a value such as "32", got a list`},
		{"key twice", "enable: [aos-field]\nenable: [strided-access]\n",
			`:2:1: "enable" is given twice in the configuration (first at line 1)`},
		{"not a mapping", "- enable\n",
			`:1:1: a configuration is a mapping of settings (blocks, defines, disable, enable, exclude, grids, host-cpp, include-dirs, min-severity, params), got a list`},
		{"two documents", "enable: [aos-field]\n---\ndisable: [aos-field]\n",
			`:2:1: a configuration is one YAML document; remove this second one`},
		{"broken YAML", "enable: [aos-field\n",
			`:1:1: not valid YAML: did not find expected ',' or ']'`},
		{"several mistakes, each its own error", "enable: [strided]\nparams: {n: x}\n",
			":1:10: enable: unknown rule \"strided\" (did you mean strided-access?)\n" +
				`:2:13: params.n must be an integer, got the text "x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, c, err := loadText(t, tt.text)
			if err == nil || c != nil {
				t.Fatalf("no error; config %+v", c)
			}
			var got []string
			for _, e := range splitErrors(err) {
				got = append(got, strings.TrimPrefix(e.Error(), path))
			}
			if strings.Join(got, "\n") != tt.want {
				t.Errorf("errors\n%s\nwant\n%s", strings.Join(got, "\n"), tt.want)
			}
			for _, w := range goish {
				if msg := strings.Join(got, "\n"); strings.Contains(msg, w) {
					t.Errorf("%q shows %q", msg, w)
				}
			}
		})
	}
}

func TestConfigAccepted(t *testing.T) {
	tests := []struct{ name, text string }{
		{"empty", ""},
		{"comments only", "# nothing yet\n"},
		{"null document", "~\n"},
		{"empty settings", "enable:\ndisable: []\nblocks: {}\nparams:\n"},
		{"the README's", "disable: [indirect-access]\nmin-severity: warning\nexclude: [\"third_party/**\"]\n" +
			"blocks: {transpose: 32x8}\nparams: {width: 1920, \"k.n\": 64}\ndefines: {TILE: \"32\"}\n"},
		{"numbers as they come", "blocks: {k: 256, j: 8x8x4}\nparams: {n: 0x40}\ndefines: {TILE: 32, DEBUG: }\n"},
		{"anchors", "enable: &r [strided-access]\ndisable: *r\n"},
		{"include-dirs", "include-dirs: [include, third_party/cub]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, c, err := loadText(t, tt.text); err != nil || c == nil {
				t.Errorf("error %v", err)
			}
		})
	}
	_, c, _ := loadText(t, "blocks: {k: 256}\nparams: {n: 0x40}\ndefines: {TILE: 32, DEBUG: }\nmin-severity: error\n")
	if c.Blocks["k"] != "256" || c.Params["n"] != 64 || c.Defines["TILE"] != "32" || c.Defines["DEBUG"] != "" || c.min != 2 {
		t.Errorf("decoded %+v", c)
	}
}

// A configuration mistake stops the run: the mistakes are its errors and
// no file's findings are reported, not even those of files the broken
// configuration does not govern.
func TestConfigMistakeStopsTheRun(t *testing.T) {
	tests := []struct {
		name     string
		files    map[string]string
		explicit string
		want     string
	}{
		{"typo in enable", map[string]string{"a/k.cu": strided, "b/k.cu": strided, "b/.cudalint.yaml": "enable: [strided]\n"}, "",
			`b/.cudalint.yaml:1:10: enable: unknown rule "strided" (did you mean strided-access?)`},
		{"explicit file", map[string]string{"k.cu": strided, "my.yaml": "disabel: [aos-field]\n"}, "my.yaml",
			`my.yaml:1:1: unknown key "disabel" (did you mean disable?)`},
		{"explicit file missing", map[string]string{"k.cu": strided}, "none.yaml", "none.yaml: no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, tt.files)
			opts := Options{Paths: []string{dir}}
			if tt.explicit != "" {
				opts.ConfigPath = filepath.Join(dir, tt.explicit)
			}
			rep := Run(opts)
			if len(rep.Findings) != 0 {
				t.Errorf("findings %s reported despite the mistake", rulesOf(rep.Findings))
			}
			if len(rep.Errors) != 1 || !strings.HasSuffix(rep.Errors[0].Error(), tt.want) {
				t.Errorf("errors %v, want one ending %q", rep.Errors, tt.want)
			}
		})
	}
}

func TestOptionMistakes(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"enable", Options{Enable: []string{"strided"}}, `--enable: unknown rule "strided" (did you mean strided-access?)`},
		{"disable", Options{Disable: []string{"aos_field"}}, `--disable: unknown rule "aos_field" (did you mean aos-field?)`},
		{"block", Options{Settings: analyzer.Settings{Blocks: map[string]analyzer.Dim3{"k": {64, 64, 1}}}}, `--block k=64x64: block shape 64x64 has 4096 threads; CUDA allows at most 1024`},
		{"block dimension", Options{Settings: analyzer.Settings{Blocks: map[string]analyzer.Dim3{"k": {32, 0, 1}}}}, `--block k=32x0: block shape 32x0: y is 0; CUDA allows 1 to 1024`},
		{"grid", Options{Settings: analyzer.Settings{Grids: map[string]analyzer.Dim3{"k": {8, 70000, 1}}}}, `--grid k=8x70000: grid shape 8x70000: y is 70000; CUDA allows 1 to 65535`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, map[string]string{"k.cu": strided})
			tt.opts.Paths = []string{dir}
			rep := Run(tt.opts)
			if len(rep.Findings) != 0 || len(rep.Errors) != 1 || rep.Errors[0].Error() != tt.want {
				t.Errorf("findings %s, errors %v; want only %q", rulesOf(rep.Findings), rep.Errors, tt.want)
			}
		})
	}
}

// Entries naming no kernel or parameter are warnings, at their place in
// the file or with their flag, and the run goes on.
func TestSettingsThatMatchNothing(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"k.cu": strided,
		ConfigName: "blocks:\n  k: 32\n  kk: 64\nparams:\n  in: 4\n  n: 8\n  k.out: 2\n  k.ot: 2\n  q.in: 1\n" +
			"  outt: 3\n",
	})
	rep := Run(Options{Paths: []string{dir}, Settings: analyzer.Settings{Blocks: map[string]analyzer.Dim3{"transpose": {32, 8, 1}}, Params: map[string]int64{"k.in": 1, "k.x": 2}}})
	if len(rep.Errors) != 0 || rulesOf(rep.Findings) != "strided-access" {
		t.Fatalf("errors %v, findings %s: warnings must not stop the run", rep.Errors, rulesOf(rep.Findings))
	}
	cfg := filepath.Join(dir, ConfigName)
	want := []string{
		cfg + `:3:3: warning: blocks: no kernel named "kk" in the files analyzed (did you mean k?)`,
		cfg + `:6:3: warning: params: no kernel in the files analyzed has a parameter "n"`,
		cfg + `:8:3: warning: params: kernel k has no parameter "ot" (did you mean out?)`,
		cfg + `:9:3: warning: params: no kernel named "q" in the files analyzed`,
		cfg + `:10:3: warning: params: no kernel in the files analyzed has a parameter "outt" (did you mean out?)`,
		`warning: --block transpose=32x8: no kernel named "transpose" in the files analyzed`,
		`warning: --param k.x=2: kernel k has no parameter "x" (it has in or out)`,
	}
	var got []string
	for _, w := range rep.Warnings {
		got = append(got, w.String())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A run of a few files (pre-commit, an editor) warns of an entry only
// when no file it left out declares what the entry names: kernels and
// parameters of other files are no typos, names no file declares are.
func TestSettingsOfFilesLeftOut(t *testing.T) {
	const cfg = "blocks:\n  ka: 32\n  kb: 64\n  typo: 64\n  kx: 16\ngrids:\n  kb: 8\nparams:\n  n: 4\n  kb.n: 2\n  m: 1\n  kz.n: 1\n"
	files := map[string]string{
		ConfigName:     cfg,
		"a.cu":         "__global__ void ka(float* a) { a[threadIdx.x] = 0; }\n",
		"sub/b.cu":     "__global__ void __launch_bounds__(64) kb(float* b, int n) { b[threadIdx.x] = n; }\n",
		"skip/x.cu":    "__global__ void kx(float* x) { x[threadIdx.x] = 0; }\n",
		"notes.txt":    "kz n m\n",
		"sub/host.cu":  "void h(float* p) { int m = 1; (void)m; }\n", // m as a word, in no kernel's file
		".hidden/z.cu": "__global__ void kz(float* z, int n) {}\n",
	}
	typo := `.cudalint.yaml:4:3: warning: blocks: no kernel named "typo" in the files analyzed`
	tests := []struct {
		name  string
		paths []string
		cfg   string
		want  []string
	}{
		{"the whole root", []string{"."}, "", []string{
			typo,
			`.cudalint.yaml:11:3: warning: params: no kernel in the files analyzed has a parameter "m"`,
			`.cudalint.yaml:12:3: warning: params: no kernel named "kz" in the files analyzed (did you mean ka, kb or kx?)`,
		}},
		{"one file", []string{"a.cu"}, "", []string{
			typo,
			`.cudalint.yaml:11:3: warning: params: no kernel in the files analyzed has a parameter "m"`,
			`.cudalint.yaml:12:3: warning: params: no kernel named "kz" in the files analyzed (did you mean ka?)`,
		}},
		{"one folder", []string{"skip"}, "", []string{
			typo,
			`.cudalint.yaml:11:3: warning: params: no kernel in the files analyzed has a parameter "m"`,
			`.cudalint.yaml:12:3: warning: params: no kernel named "kz" in the files analyzed (did you mean kx?)`,
		}},
		{"--config, one file", []string{"a.cu"}, ConfigName, []string{
			typo,
			`.cudalint.yaml:11:3: warning: params: no kernel in the files analyzed has a parameter "m"`,
			`.cudalint.yaml:12:3: warning: params: no kernel named "kz" in the files analyzed (did you mean ka?)`,
		}},
		{"a file excluded", []string{"a.cu"}, "", []string{ // skip/ excluded below
			typo,
			`.cudalint.yaml:5:3: warning: blocks: no kernel named "kx" in the files analyzed (did you mean ka?)`,
			`.cudalint.yaml:11:3: warning: params: no kernel in the files analyzed has a parameter "m"`,
			`.cudalint.yaml:12:3: warning: params: no kernel named "kz" in the files analyzed (did you mean ka?)`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, files)
			if tt.name == "a file excluded" {
				write(t, dir, map[string]string{ConfigName: cfg + "exclude: [skip/**]\n"})
			}
			wd, _ := os.Getwd()
			if err := os.Chdir(dir); err != nil {
				t.Fatal(err)
			}
			defer os.Chdir(wd)
			rep := Run(Options{Paths: tt.paths, Root: dir, ConfigPath: tt.cfg})
			if len(rep.Errors) != 0 {
				t.Fatalf("errors %v", rep.Errors)
			}
			var got []string
			for _, w := range rep.Warnings {
				got = append(got, strings.ReplaceAll(w.String(), dir+string(filepath.Separator), ""))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestSuggest(t *testing.T) {
	ids := []string{"strided-access", "aos-field", "misaligned-access", "indirect-access", "shared-bank-conflict"}
	tests := []struct{ word, want string }{
		{"strided", "strided-access"},
		{"strdied-access", "strided-access"},
		{"AOS_FIELD", "aos-field"},
		{"bank-conflict", "shared-bank-conflict"},
		{"access", "strided-access,misaligned-access,indirect-access"},
		{"xy", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := strings.Join(suggest(tt.word, ids), ","); got != tt.want {
			t.Errorf("suggest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

// No configuration text, however broken, panics the checker or yields an
// error that speaks Go.
func FuzzLoadConfig(f *testing.F) {
	for _, s := range []string{"", "enable: [strided]\n", "blocks: {k: 64x64}\n", "a: &x [*x]\n", "? [a]\n: b\n",
		"params: {n: !!binary aGk=}\n", "blocks: {k: 1x1x1x1}\n", "- [\n", "enable: [~, {a: 1}]\n", "\xff\xfe"} {
		f.Add(s)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text string) {
		path := filepath.Join(dir, ConfigName)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { _, err := LoadConfig(path); done <- err }()
		var err error
		select {
		case err = <-done:
		case <-time.After(3 * time.Second):
			t.Fatalf("LoadConfig hangs on %q", text)
		}
		for _, e := range splitErrors(err) {
			// Every mistake is placed: a line and a column.
			if ce, ok := e.(*ConfigError); !ok || ce.Line < 1 || ce.Col < 1 {
				t.Errorf("%v: no line and column", e)
			}
			msg := strings.TrimPrefix(e.Error(), path)
			for _, w := range []string{"driver.", "unmarshal", "[]string", "map[string]"} {
				if strings.Contains(msg, w) {
					t.Errorf("%q shows %q", msg, w)
				}
			}
		}
	})
}

// A configuration is decoded in time linear in its size: yaml.v3's own
// decoder compares each mapping key with every earlier one, which took
// minutes on a 200,000-entry mapping. Decoding must give what yaml.v3
// would for every setting.
func TestConfigDecodingIsFaithful(t *testing.T) {
	src := `enable: [strided-access, aos-field]
disable: [indirect-access]
min-severity: warning
exclude: ["third_party/**"]
blocks: {k: 32x8, "t": 16x16}
grids: {k: 264}
params: {n: 1024, "k.m": 0x10}
defines: {TILE: 32, NAME: "x y"}
include-dirs: [include]
`
	root, chk := parseConfig("c.yaml", []byte(src))
	if len(chk.errs) > 0 {
		t.Fatal(chk.errs)
	}
	var ours, theirs Config
	if err := decodeConfig(root, &ours); err != nil {
		t.Fatal(err)
	}
	if err := root.Decode(&theirs); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ours, theirs) {
		t.Errorf("decoded\n%+v\nyaml.v3 decodes\n%+v", ours, theirs)
	}
}

// BenchmarkLoadLargeConfig: a 200,000-entry params mapping, which took
// 4 minutes through yaml.v3's decoder, in time linear in its size.
func BenchmarkLoadLargeConfig(b *testing.B) {
	var src strings.Builder
	src.WriteString("params:\n")
	for i := 0; i < 200000; i++ {
		fmt.Fprintf(&src, "  p%d: %d\n", i, i)
	}
	path := filepath.Join(b.TempDir(), ConfigName)
	if err := os.WriteFile(path, []byte(src.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := LoadConfig(path); err != nil {
			b.Fatal(err)
		}
	}
}
