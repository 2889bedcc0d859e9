package analyzer

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/sources"
)

// A project holds many programs, each file with what it includes one
// translation unit: testdata/units has two files that include one header
// under different macros (floatX is __nv_bfloat16 in bf16.cu and float
// in fp32.cu), each with its own load helper, kernel and host helper of
// the same names, and an -rdc pair whose helper only the other file
// defines. Loaded as the tool loads them (a header's definitions kept in
// its first includer only).
func TestTranslationUnits(t *testing.T) {
	files, errs := sources.Find([]string{"testdata/units"})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	set, errs := sources.Load(files, parser.Config{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	r := Analyze(set.Analyzed(), Options{})
	for _, e := range r.InternalErrors {
		t.Error(e)
	}
	// Each load: the element size, the sectors per request and the
	// block shapes it is predicted under.
	got := map[string]string{}
	for _, p := range r.Predictions {
		a := p.Access
		if a.Op != interp.Load || !p.Known {
			continue
		}
		key := fmt.Sprintf("%s %s %s", filepath.Base(a.Kernel.P.File), a.Kernel.Name, a.Expr)
		got[key] = joinSorted(got[key], fmt.Sprintf("%dB %.0f sectors block %s", a.Type.Size, p.Sectors, p.Config.Block))
	}
	tests := []struct{ name, key, want string }{
		{"a typedef of the includer's macros, a helper and a launch of its own file",
			"bf16.cu layernorm_forward_kernel1 p[i]", "2B 2 sectors block 128"},
		{"the same names in another file are that file's",
			"fp32.cu layernorm_forward_kernel1 p[i * 32]", "4B 32 sectors block 64"},
		{"a header kernel takes its first includer's types and every includer's launches",
			"common.cuh scale_kernel out[blockIdx.x * blockDim.x + threadIdx.x]", "2B 2 sectors block 256; 2B 2 sectors block 512"},
		{"a helper defined only in another file is followed there",
			"rdc_near.cu near_kernel p[i * 2]", "4B 8 sectors block 32"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got[tt.key] != tt.want {
				t.Errorf("%s: %q, want %q\nall loads: %q", tt.key, got[tt.key], tt.want, got)
			}
		})
	}
}

func joinSorted(list, item string) string {
	if list == "" {
		return item
	}
	items := append(strings.Split(list, "; "), item)
	sort.Strings(items)
	return strings.Join(items, "; ")
}

// An array dimension is evaluated while its type's layout is computed:
// the types it names (sizeof) and the functions it calls resolve within
// that computation, never waiting on it (a deadlock before).
func TestDimensionsNamingTypes(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"sizeof in a typedef", "typedef float row[sizeof(double)];\n__global__ void k(row* s) { s[threadIdx.x][0] = 1; }\n", "32"},
		{"a typedef of its own size", "typedef float self[sizeof(self)];\n__global__ void k(self* s) { s[threadIdx.x][0] = 1; }\n", "16"},
		{"a call with a pointer parameter in a dimension", "__device__ int f(float* p) { return 1; }\nint f(int n) { return n; }\n" +
			"typedef float row[f(3) + sizeof(float)];\n__global__ void k(row* s) { s[threadIdx.x][0] = 1; }\n", "28"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan string, 1)
			go func() {
				// Two files: the kernel's unit resolves through the
				// program's types too.
				files := []*parser.File{
					parser.Parse("a.cu", []byte(tt.src), parser.Config{}),
					parser.Parse("b.cu", []byte("typedef int other;\n"), parser.Config{}),
				}
				r := Analyze(files, Options{})
				stride := "none"
				for _, p := range r.Predictions {
					if p.LaneStride != nil {
						stride = fmt.Sprint(*p.LaneStride)
					}
				}
				done <- stride
			}()
			select {
			case got := <-done:
				if got != tt.want {
					t.Errorf("lane stride %s, want %s", got, tt.want)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("the analysis did not finish")
			}
		})
	}
}
