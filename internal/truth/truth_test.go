package truth

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestKernelName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"residual_forward_kernel1(__nv_bfloat16 *, const __nv_bfloat16 *, int)", "residual_forward_kernel1"},
		{"void layernorm_backward_kernel6<__nv_bfloat16, float>(T1 *, T2 *)", "layernorm_backward_kernel6<__nv_bfloat16, float>"},
		// The source page casts value arguments; the details page does not.
		{"void k<(int)3>(float *)", "k<3>"},
		{"void reduce4<int, (unsigned int)256>(T1 *, T1 *, unsigned int)", "reduce4<int, 256>"},
		{"void k<(long)-4, (int)2>(float *)", "k<-4, 2>"},
		{"void reduce6<int, 256, (bool)1>(T1 *)", "reduce6<int, 256, 1>"},
		{"void k<(foo)3>(float *)", "k<(foo)3>"},
		{"void k<float>", "k<float>"},
		{"  k  ", "k"},
	}
	for _, tc := range tests {
		if got := KernelName(tc.in); got != tc.want {
			t.Errorf("KernelName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSplitTemplateAndInstanceBytes(t *testing.T) {
	tests := []struct {
		in    string
		base  string
		args  []string
		bytes int64
	}{
		{"k", "k", nil, 0},
		{"k<float>", "k", []string{"float"}, 4},
		{"k<__nv_bfloat16, __nv_bfloat16>", "k", []string{"__nv_bfloat16", "__nv_bfloat16"}, 2},
		{"k<__nv_bfloat16, float>", "k", []string{"__nv_bfloat16", "float"}, 0},
		{"k<Packed<float, 4>, int>", "k", []string{"Packed<float, 4>", "int"}, 0},
		{"k<256>", "k", []string{"256"}, 0},
		// value arguments say nothing of the element: the types decide
		{"reduce4<int, 256>", "reduce4", []string{"int", "256"}, 4},
		{"reduce6<double, 256, 1>", "reduce6", []string{"double", "256", "1"}, 8},
	}
	for _, tc := range tests {
		base, args := SplitTemplate(tc.in)
		if base != tc.base || !reflect.DeepEqual(args, tc.args) {
			t.Errorf("SplitTemplate(%q) = %q %q, want %q %q", tc.in, base, args, tc.base, tc.args)
		}
		if got := InstanceBytes(args); got != tc.bytes {
			t.Errorf("InstanceBytes(%q) = %d, want %d", args, got, tc.bytes)
		}
	}
}

func TestParseDim3(t *testing.T) {
	tests := []struct {
		in   string
		want Dim3
		bad  bool
	}{
		{"(32, 1, 1)", Dim3{32, 1, 1}, false},
		{"(196,608, 1, 1)", Dim3{}, true}, // four fields: Nsight's sizes are not grouped in shapes
		{"32x8x1", Dim3{32, 8, 1}, false},
		{"(0, 0, 0)", Dim3{}, true}, // a launch that failed
		{"32x8", Dim3{}, true},
		{"axbxc", Dim3{}, true},
	}
	for _, tc := range tests {
		got, err := ParseDim3(tc.in)
		if (err != nil) != tc.bad || got != tc.want {
			t.Errorf("ParseDim3(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.bad)
		}
	}
}

func TestNear(t *testing.T) {
	tests := []struct {
		got, want float64
		near      bool
	}{
		{4, 4.04, true},    // 0.05 sectors
		{1, 1.06, false},   // neither 0.05 nor 2%
		{16, 16.3, true},   // 2%
		{16, 16.4, false},  // 2.5%
		{1, 1.0499, true},  // the absolute tolerance
		{32, 31.35, false}, // 2.07%
	}
	for _, tc := range tests {
		if Near(tc.got, tc.want) != tc.near {
			t.Errorf("Near(%v, %v) = %v", tc.got, tc.want, !tc.near)
		}
	}
}

func TestFiguresRoundTrip(t *testing.T) {
	rows := []Row{
		{Program: "p.cu", Run: "3", Invocation: 1, Kernel: "k<__nv_bfloat16, float>", Block: Dim3{32, 1, 1}, Grid: Dim3{8192, 1, 1},
			File: "common.h", Line: 163, Op: "load", Instructions: 24576, Sectors: 393216, Ideal: 393216, SASS: 1},
		{Program: "p.cu", Run: "3", Invocation: 4, Kernel: "k2", Block: Dim3{32, 8, 1}, Grid: Dim3{1, 2, 3},
			File: "p.cu", Line: 7, Op: "store", Instructions: 3, Sectors: 5, Ideal: 4, SASS: 2},
	}
	var b bytes.Buffer
	if err := WriteFigures(&b, rows); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFigures(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, rows) {
		t.Errorf("read back\n%v\nwant\n%v", got, rows)
	}
}

func TestReadFiguresRejects(t *testing.T) {
	head := strings.Join(figuresHeader, ",") + "\n"
	tests := map[string]string{
		"another header":      "a,b,c,d,e,f,g,h,i,j,k,l,m\n",
		"a bad operation":     head + "p.cu,1,1,k,32x1x1,1x1x1,p.cu,3,atomic,1,1,1,1\n",
		"no instructions":     head + "p.cu,1,1,k,32x1x1,1x1x1,p.cu,3,load,0,1,1,1\n",
		"a bad block":         head + "p.cu,1,1,k,32x1,1x1x1,p.cu,3,load,1,1,1,1\n",
		"a bad count":         head + "p.cu,1,1,k,32x1x1,1x1x1,p.cu,3,load,1,x,1,1\n",
		"a missing column":    head + "p.cu,1,1,k,32x1x1,1x1x1,p.cu,3,load,1,1,1\n",
		"a bad invocation":    head + "p.cu,1,first,k,32x1x1,1x1x1,p.cu,3,load,1,1,1,1\n",
		"a line not a number": head + "p.cu,1,1,k,32x1x1,1x1x1,p.cu,three,load,1,1,1,1\n",
	}
	for name, text := range tests {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(text))
		zw.Close()
		if _, err := ReadFigures(&b); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := ReadFigures(strings.NewReader("not gzip")); err == nil {
		t.Error("a file that is not gzip was accepted")
	}
}

// sourceCSV is a source page export of kernel fn (Nsight's name) with one
// global load of inst instructions on line 10 of file.
func sourceCSV(file, fn string, inst, sectors int) string {
	return fmt.Sprintf(`"File Path","/tmp/w/%s"
"Function Name","%s"
"Line No","Source","Address","Source","Instructions Executed","Address Space","Access Operation","L1 Conflicts Shared N-Way","L2 Theoretical Sectors Global","L2 Theoretical Sectors Global Ideal"
"10","x = a[i];","-","-","0","-","-","0","0","0"
"","","0x10","  LDG.E R0, [R2]","%d","Global","Load","0","%d","%d"
`, file, fn, inst, sectors, inst)
}

const detailsHeader = `"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"` + "\n"

func detailsRow(id, fn, block, grid string) string {
	return fmt.Sprintf(`"%s","1","p","h","%s","1","7","%s","%s","0","9.0","Launch Statistics","Block Size","","32"`+"\n", id, fn, block, grid)
}

func TestReduceRun(t *testing.T) {
	fn := "void k<float>(const T1 *, T1 *)"
	source := sourceCSV("p.cu", fn, 4, 8) + sourceCSV("p.cu", "other(int)", 2, 2)
	details := detailsHeader + detailsRow("0", fn, "(32, 1, 1)", "(64, 1, 1)") + detailsRow("0", fn, "(32, 1, 1)", "(64, 1, 1)")
	rows, skipped, err := ReduceRun("p.cu", "2", 1, strings.NewReader(source), strings.NewReader(details))
	if err != nil {
		t.Fatal(err)
	}
	want := []Row{{Program: "p.cu", Run: "2", Invocation: 1, Kernel: "k<float>", Block: Dim3{32, 1, 1}, Grid: Dim3{64, 1, 1},
		File: "p.cu", Line: 10, Op: "load", Instructions: 4, Sectors: 8, Ideal: 4, SASS: 1}}
	// other has counts but no launch in the details page: named, not
	// silently dropped.
	if wantSkipped := []string{"other: no launch of this name in the details page"}; !reflect.DeepEqual(rows, want) || !reflect.DeepEqual(skipped, wantSkipped) {
		t.Errorf("got %v, skipped %q; want %v, skipped %q", rows, skipped, want, wantSkipped)
	}

	// Two launches of one kernel cannot be told apart in the source page.
	details += detailsRow("1", fn, "(64, 1, 1)", "(32, 1, 1)")
	rows, skipped, err = ReduceRun("p.cu", "2", 1, strings.NewReader(source), strings.NewReader(details))
	if err != nil || len(rows) != 0 || !reflect.DeepEqual(skipped, []string{"k<float>: profiled more than once", "other: no launch of this name in the details page"}) {
		t.Errorf("two launches: rows %v, skipped %v, %v; want k<float> skipped", rows, skipped, err)
	}
	if _, _, err := ReduceRun("p.cu", "2", 1, strings.NewReader(source), strings.NewReader("")); err == nil {
		t.Error("a details export with no header was accepted")
	}
}

func TestReduceArchive(t *testing.T) {
	fn := "k(float *)"
	files := map[string]string{
		// Run 3 and run 1 launch k with the same block: the line is kept
		// once, from run 1.
		"raw/p-3-i1.source.csv":  sourceCSV("p.cu", fn, 4, 12),
		"raw/p-3-i1.details.csv": detailsHeader + detailsRow("0", fn, "(32, 1, 1)", "(8, 1, 1)"),
		"raw/p-1-i1.source.csv":  sourceCSV("p.cu", fn, 4, 8),
		"raw/p-1-i1.details.csv": detailsHeader + detailsRow("0", fn, "(32, 1, 1)", "(8, 1, 1)"),
		// The fourth invocation, under another block: a row of its own.
		"raw/p-1-i4.source.csv":  sourceCSV("p.cu", fn, 2, 2),
		"raw/p-1-i4.details.csv": detailsHeader + detailsRow("0", fn, "(256, 1, 1)", "(1, 1, 1)"),
		// No details: noted, left out.
		"raw/p-2-i1.source.csv": sourceCSV("p.cu", fn, 1, 1),
		"raw/p-2-i1.log":        "the program's output",
	}
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	for name, text := range files {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(text)), Typeflag: tar.TypeReg})
		tw.Write([]byte(text))
	}
	tw.Close()
	zw.Close()
	rows, notes, err := ReduceArchive(&b, ".cu")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%s run %s i%d %s %s %d/%d", r.Program, r.Run, r.Invocation, r.Kernel, r.Block, r.Sectors, r.Instructions))
	}
	want := []string{"p.cu run 1 i1 k 32x1x1 8/4", "p.cu run 1 i4 k 256x1x1 2/2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "p-2-i1: no details") {
		t.Errorf("notes %q, want the run with no details", notes)
	}
}
