package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// goldenInput is a small kernel file with one finding of several kinds.
const goldenInput = `// Golden input for the output formats.
struct P { float x, y, z, w; };

__global__ void k(const float* in, const P* ps, const int* idx, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[x * w + y] = in[y * w + x];
    out[y * w + x] = ps[y * w + x].z + in[idx[x]];
    // cudalint:ignore strided-access nothing here: reported as unused
    float4 v = reinterpret_cast<const float4*>(in + 2)[x];
    out[x] = v.x;
}

void launch(float* a, P* p, int* i, float* b) {
    k<<<dim3(64, 64), dim3(16, 16)>>>(a, p, i, b, 1024);
}
`

func goldenRun(t *testing.T, format string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "golden.cu"), []byte(goldenInput), 0o644); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	code, out, errs := runCLI("--format", format, "golden.cu")
	if code != exitFindings {
		t.Fatalf("exit %d, want %d; stderr %s", code, exitFindings, errs)
	}
	return strings.ReplaceAll(out, dir, "$DIR")
}

func TestGolden(t *testing.T) {
	for _, format := range []string{"text", "json", "sarif", "github"} {
		t.Run(format, func(t *testing.T) {
			got := goldenRun(t, format)
			path := filepath.Join("testdata", "golden", format+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("%s output changed; go test ./cmd/cudalint -run Golden -update rewrites it after review.\ngot:\n%s", format, got)
			}
		})
	}
}

// The output does not depend on scheduling.
func TestDeterministic(t *testing.T) {
	a := goldenRun(t, "json")
	for i := 0; i < 3; i++ {
		if b := goldenRun(t, "json"); b != a {
			t.Fatal("two runs gave different output")
		}
	}
}

// sarifSchema is the official SARIF 2.1.0 schema, a copy committed under
// testdata so that the validation runs on every clone.
func sarifSchema(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs("../../testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("the SARIF schema is missing: %v", err)
	}
	return p
}

func TestSARIFSchema(t *testing.T) {
	schemaPath := sarifSchema(t)
	c := jsonschema.NewCompiler()
	sch, err := c.Compile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	out := goldenRun(t, "sarif")
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(doc); err != nil {
		t.Errorf("SARIF output does not validate: %v", err)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID               string          `json:"id"`
						ShortDescription json.RawMessage `json:"shortDescription"`
						HelpURI          string          `json:"helpUri"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string         `json:"ruleId"`
				RuleIndex int            `json:"ruleIndex"`
				Partial   map[string]any `json:"partialFingerprints"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	for _, r := range run.Tool.Driver.Rules {
		if string(r.ShortDescription) == "null" || r.HelpURI == "" {
			t.Errorf("rule %s lacks a description or helpUri", r.ID)
		}
	}
	if len(run.Results) < 4 {
		t.Fatalf("%d results", len(run.Results))
	}
	for _, r := range run.Results {
		if r.RuleIndex >= len(run.Tool.Driver.Rules) || run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %s has rule index %d", r.RuleID, r.RuleIndex)
		}
		if r.Partial["cudalint/v1"] == nil {
			t.Errorf("result %s has no fingerprint", r.RuleID)
		}
	}
}

// Fingerprints survive moving the code down a few lines.
func TestFingerprintsIgnoreLineMoves(t *testing.T) {
	fps := func(src string) []string {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "k.cu"), []byte(src), 0o644)
		wd, _ := os.Getwd()
		os.Chdir(dir)
		defer os.Chdir(wd)
		_, out, _ := runCLI("--format", "sarif", "k.cu")
		var log struct {
			Runs []struct {
				Results []struct {
					Partial map[string]string `json:"partialFingerprints"`
				} `json:"results"`
			} `json:"runs"`
		}
		json.Unmarshal([]byte(out), &log)
		var out2 []string
		for _, r := range log.Runs[0].Results {
			out2 = append(out2, r.Partial["cudalint/v1"])
		}
		return out2
	}
	a, b := fps(goldenInput), fps("\n\n\n"+goldenInput)
	if len(a) == 0 || strings.Join(a, ",") != strings.Join(b, ",") {
		t.Errorf("fingerprints moved with the code: %v vs %v", a, b)
	}
}

// --fix on the swapped-axes example yields coalesced code, and is idempotent.
func TestFixSwappedAxes(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "matmul.cu"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "matmul.cu")
	os.WriteFile(path, src, 0o644)
	t.Chdir(dir) // --fix writes only inside the working directory's tree
	before := accessTable(t, "--accesses", "--format", "json", path)
	runCLI("--fix", path)
	fixed, _ := os.ReadFile(path)
	after := accessTable(t, "--accesses", "--format", "json", path)
	sectors := func(rows []accessJSON, kernel, expr string) float64 {
		for _, r := range rows {
			if r.Kernel == kernel && r.Expr == expr && r.SectorsPerRequest != nil {
				return *r.SectorsPerRequest
			}
		}
		t.Fatalf("no %s %s", kernel, expr)
		return 0
	}
	if b, a := sectors(before, "matmul_rows_on_x", "C[row * N + col]"), sectors(after, "matmul_rows_on_x", "C[row * N + col]"); b != 16 || a != 4 {
		t.Errorf("C store: %.0f sectors before the fix, %.0f after; want 16 then 4", b, a)
	}
	if a := sectors(after, "matmul_rows_on_x", "A[row * N + k]"); a != 2 {
		t.Errorf("A load after the fix: %.0f sectors, want 2 (a broadcast of two rows)", a)
	}
	if !bytes.Contains(fixed, []byte("int row = blockIdx.y * blockDim.y + threadIdx.y;")) {
		t.Errorf("fixed kernel:\n%s", fixed)
	}
	code, _, _ := runCLI("--fix", path)
	again, _ := os.ReadFile(path)
	if !bytes.Equal(again, fixed) || code != exitOK {
		t.Errorf("a second --fix changed the file or still finds something (exit %d)", code)
	}
}

func TestExitStatusAndSubcommands(t *testing.T) {
	dir := t.TempDir()
	clean := filepath.Join(dir, "clean.cu")
	os.WriteFile(clean, []byte("__global__ void k(float* a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0; }\n"), 0o644)
	bad := filepath.Join(dir, "bad.cu")
	os.WriteFile(bad, []byte(strings.Replace(goldenInput, "// cudalint:ignore strided-access nothing here: reported as unused\n", "", 1)), 0o644)
	tests := []struct {
		args []string
		want int
	}{
		{[]string{clean}, exitOK},
		{[]string{bad}, exitFindings},
		{[]string{"--exit-zero", bad}, exitOK},
		{[]string{"--severity", "error", "--disable", "unaligned-vector-cast", bad}, exitOK},
		{[]string{"--enable", "aos-field", bad}, exitFindings},
		{[]string{"--exit-zero", bad, filepath.Join(dir, "missing.cu")}, exitError},
		{[]string{"--enable", "no-such-rule", bad}, exitError},
		{[]string{"explain", "swapped-axes"}, exitOK},
		{[]string{"explain", "nope"}, exitError},
		{[]string{"rules"}, exitOK},
	}
	for _, tt := range tests {
		if code, _, errs := runCLI(tt.args...); code != tt.want {
			t.Errorf("cudalint %v: exit %d, want %d (%s)", tt.args, code, tt.want, errs)
		}
	}
	_, out, _ := runCLI("explain", "shared-bank-conflict")
	if !strings.Contains(out, "tile[32][33]") || !strings.Contains(out, "## Suppress") {
		t.Errorf("explain printed %q", out)
	}
	_, out, _ = runCLI("rules")
	for _, id := range []string{"swapped-axes", "strided-access", "aos-field", "misaligned-access", "indirect-access", "uncoalesced-transpose", "unaligned-vector-cast", "shared-bank-conflict", "unused-ignore"} {
		if !strings.Contains(out, id) {
			t.Errorf("rules lacks %s", id)
		}
	}
	// --output truncates what was there.
	outFile := filepath.Join(dir, "report.json")
	os.WriteFile(outFile, bytes.Repeat([]byte("x"), 100000), 0o644)
	runCLI("--format", "json", "--output", outFile, clean)
	if b, _ := os.ReadFile(outFile); !json.Valid(b) {
		t.Errorf("--output left old bytes: %d bytes, not JSON", len(b))
	}
}

func TestGitHubEscaping(t *testing.T) {
	if got := ghData("a%b\nc"); got != "a%25b%0Ac" {
		t.Errorf("ghData = %q", got)
	}
	if got := ghProperty("x:y,z"); got != "x%3Ay%2Cz" {
		t.Errorf("ghProperty = %q", got)
	}
}
