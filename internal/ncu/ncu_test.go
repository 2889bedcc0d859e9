package ncu

import (
	"compress/gzip"
	"fmt"
	"os"
	"strings"
	"testing"
)

// header is the part of the source page's column header Read uses.
const header = `"Line No","Source","Address","Source","Instructions Executed","Address Space","Access Operation","L1 Conflicts Shared N-Way","L2 Theoretical Sectors Global","L2 Theoretical Sectors Global Ideal"` + "\n"

// sassRow is one SASS instruction's row: address, instructions, space,
// operation, sectors, ideal.
func sassRow(addr, inst, space, op, sectors, ideal string) string {
	return `"","","` + addr + `","  LDG.E R0, [R2]","` + inst + `","` + space + `","` + op + `","0","` + sectors + `","` + ideal + `"` + "\n"
}

func lineRow(n string) string {
	return `"` + n + `","x = a[i];","-","-","0","-","-","0","0","0"` + "\n"
}

func TestRead(t *testing.T) {
	kernelInCu := `"File Path","/tmp/x/prog.cu"` + "\n" + `"Function Name","k(const float *, float *)"` + "\n" + header +
		lineRow("10") + sassRow("0x10", "4", "Global", "Load", "8", "4") + sassRow("0x10", "4", "Global", "Load", "8", "4") +
		lineRow("11") + sassRow("0x20", "4", "Global", "Store", "4", "4")
	kernelInHeader := `"File Path","/usr/include/helper.h"` + "\n" + `"Function Name","k(const float *, float *)"` + "\n" + header +
		lineRow("10") + sassRow("0x30", "2", "Global", "Load", "2", "2")
	// A report of several kernels lists k again, unprofiled: no counts.
	unprofiled := `"File Path","/tmp/x/prog.cu"` + "\n" + `"Function Name","k(const float *, float *)"` + "\n" + header +
		lineRow("10") + sassRow("0x10", "0", "Global", "Load", "0", "0")
	tests := []struct {
		name string
		csv  string
		want []string // file:line op instructions sectors ideal SASS
	}{
		{"a line of the program and the same line number of a header stay apart",
			kernelInCu + kernelInHeader,
			[]string{"helper.h:10 load 2 2 2 1", "prog.cu:10 load 4 8 4 1", "prog.cu:11 store 4 4 4 1"}},
		{"an unprofiled listing after the profiled one takes nothing away",
			kernelInCu + unprofiled,
			[]string{"prog.cu:10 load 4 8 4 1", "prog.cu:11 store 4 4 4 1"}},
		{"an unprofiled listing before the profiled one takes nothing away",
			unprofiled + kernelInCu,
			[]string{"prog.cu:10 load 4 8 4 1", "prog.cu:11 store 4 4 4 1"}},
		{"a function never executed has no line", unprofiled, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lines, err := Read(strings.NewReader(tc.csv))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range lines {
				if l.Function != "k" {
					t.Errorf("function %q, want k", l.Function)
				}
				got = append(got, fmt.Sprintf("%s:%d %s %d %d %d %d", l.File, l.Line, l.Op, l.Instructions, l.Sectors, l.Ideal, l.SASS))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestFunctionNames: the parameter list is cut off a function's name,
// not a value template argument's cast.
func TestFunctionNames(t *testing.T) {
	for fn, want := range map[string]string{
		"k(const float *, float *)":                             "k",
		"void u_tmpl_rows<(int)4>(const float *, float *, int)": "void u_tmpl_rows<(int)4>",
		"void m<float, (int)2>(float *)":                        "void m<float, (int)2>",
		"k":                                                     "k",
	} {
		csv := `"File Path","a.cu"` + "\n" + `"Function Name","` + fn + `"` + "\n" + header + lineRow("10") + sassRow("0x10", "4", "Global", "Load", "4", "4")
		lines, err := Read(strings.NewReader(csv))
		if err != nil || len(lines) != 1 || lines[0].Function != want {
			t.Errorf("%q: got %+v (%v), want function %q", fn, lines, err, want)
		}
	}
}

func TestReadBadLineNumber(t *testing.T) {
	csv := `"File Path","a.cu"` + "\n" + `"Function Name","k()"` + "\n" + header + lineRow("ten")
	if _, err := Read(strings.NewReader(csv)); err == nil {
		t.Error("a line number that is not a number was accepted")
	}
}

// An inlined helper called twice puts two instructions on its line, each
// with its call's counters (probes2.cu's m_two_sites, measured on an H200:
// a coalesced load, 4 sectors per request, and a stride-4 one, 16).
func TestPerInstructionCounters(t *testing.T) {
	f, err := os.Open("../../testdata/truth/source2.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := Read(zr)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if l.Function != "m_two_sites" || l.Op != "load" {
			continue
		}
		if l.SASS != 2 || len(l.PerSASS) != 2 {
			t.Fatalf("line %d: %d SASS, %d per-instruction counters; want 2", l.Line, l.SASS, len(l.PerSASS))
		}
		var sum Instruction
		got := map[float64]bool{}
		for _, in := range l.PerSASS {
			got[in.SectorsPerRequest()] = true
			sum.Instructions += in.Instructions
			sum.Sectors += in.Sectors
			sum.Ideal += in.Ideal
		}
		if !got[4] || !got[16] {
			t.Errorf("per instruction %+v: want 4 and 16 sectors per request", l.PerSASS)
		}
		if sum.Instructions != l.Instructions || sum.Sectors != l.Sectors || sum.Ideal != l.Ideal {
			t.Errorf("per instruction sums %+v, the line's %d %d %d", sum, l.Instructions, l.Sectors, l.Ideal)
		}
		return
	}
	t.Fatal("no load of m_two_sites in the export")
}

// TestSharedWavefrontColumns reads the shared counters of probes7's
// export, which asked for L1 Wavefronts Shared and its Ideal: per SASS
// instruction, with its width.
func TestSharedWavefrontColumns(t *testing.T) {
	f, err := os.Open("../../testdata/truth/source7.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := Read(zr)
	if err != nil {
		t.Fatal(err)
	}
	// function, line, op, space -> the instructions' widths and
	// wavefronts and ideal per instruction executed
	type want struct {
		fn    string
		line  int
		space string
		per   []Instruction
	}
	cases := []want{
		{"s_f8", 21, "shared", []Instruction{{Instructions: 512, Wavefronts: 4096, WavefrontsIdeal: 2048, Bits: 128}, {Instructions: 512, Wavefronts: 4096, WavefrontsIdeal: 2048, Bits: 128}}},
		{"s_f2", 42, "shared", []Instruction{{Instructions: 512, Wavefronts: 1024, WavefrontsIdeal: 1024, Bits: 64}}},
		{"s_f4_odd", 67, "shared", []Instruction{{Instructions: 512, Wavefronts: 2048, WavefrontsIdeal: 2048, Bits: 128}, {Instructions: 512, Wavefronts: 2048, WavefrontsIdeal: 512, Bits: 32}}},
		{"g_f2_assume", 169, "global", []Instruction{{Instructions: 512, Sectors: 4096, Ideal: 4096, Bits: 64}}},
	}
	for _, c := range cases {
		found := false
		for _, l := range lines {
			if l.Function != c.fn || l.Line != c.line || l.Space != c.space || l.Op != "load" {
				continue
			}
			found = true
			if fmt.Sprint(l.PerSASS) != fmt.Sprint(c.per) {
				t.Errorf("%s line %d: per instruction %+v, want %+v", c.fn, c.line, l.PerSASS, c.per)
			}
			var w, i int64
			for _, in := range c.per {
				w, i = w+in.Wavefronts, i+in.WavefrontsIdeal
			}
			if l.SharedWavefronts != w || l.SharedIdeal != i {
				t.Errorf("%s line %d: line totals %d, %d; want %d, %d", c.fn, c.line, l.SharedWavefronts, l.SharedIdeal, w, i)
			}
		}
		if !found {
			t.Errorf("%s line %d: not in the export", c.fn, c.line)
		}
	}
}
