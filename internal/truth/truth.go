// Package truth holds what Nsight Compute measured for the kernels of real
// programs, reduced to figures (Row: per launch, source line and memory
// operation, the summed counters), and compares cudalint's predictions
// with them (Compare). internal/ncu reads the exports; testdata/truth/llmc
// holds the figures measured for llm.c and the script that measures them.
package truth

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// valueCast is the source page's cast of a template value argument:
// "(int)32", "(unsigned int)1", "(long)-4", "(bool)1" (the details page
// writes 1 for true).
var valueCast = regexp.MustCompile(`\((?:unsigned |signed )?(?:int|long|long long|short|char|bool)\)(-?[0-9])`)

// A Row is the global loads or the global stores of one source line of one
// kernel launch: Nsight Compute's counters summed over the SASS
// instructions the compiler attributes to that line.
type Row struct {
	Program string // the program's source file, base name: layernorm_forward.cu
	Run     string // what the program was run with: llm.c's kernel_num
	// Invocation is which launch of the kernel in the run was profiled
	// (1: the first).
	Invocation int
	Kernel     string // Nsight's name less "void " and the parameters, template arguments kept
	Block      Dim3
	Grid       Dim3
	File       string // base name of the file the instructions are attributed to
	Line       int
	Op         string // "load" or "store"
	// Instructions is Instructions Executed (warp-level requests); Sectors
	// and Ideal are L2 Theoretical Sectors Global and its Ideal.
	Instructions, Sectors, Ideal int64
	SASS                         int // distinct SASS instructions summed
}

// SectorsPerRequest is the measured average.
func (r Row) SectorsPerRequest() float64 { return float64(r.Sectors) / float64(r.Instructions) }

// IdealPerRequest is Nsight's ideal average.
func (r Row) IdealPerRequest() float64 { return float64(r.Ideal) / float64(r.Instructions) }

// Dim3 is a block or grid shape.
type Dim3 [3]int64

func (d Dim3) String() string { return fmt.Sprintf("%dx%dx%d", d[0], d[1], d[2]) }

// ParseDim3 reads "32x1x1" (String's form) or Nsight's "(32, 1, 1)".
func ParseDim3(s string) (Dim3, error) {
	s = strings.TrimSpace(s)
	sep := "x"
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		s, sep = s[1:len(s)-1], ","
	}
	parts := strings.Split(s, sep)
	if len(parts) != 3 {
		return Dim3{}, fmt.Errorf("shape %q: want three sizes", s)
	}
	var d Dim3
	for i, p := range parts {
		var v int64
		if _, err := fmt.Sscan(strings.ReplaceAll(strings.TrimSpace(p), ",", ""), &v); err != nil || v <= 0 {
			return Dim3{}, fmt.Errorf("shape %q: bad size %q", s, p)
		}
		d[i] = v
	}
	return d, nil
}

// Near applies the tolerance of the measured-truth tests: 0.05 sectors,
// or 2% for averages.
func Near(got, want float64) bool {
	d := math.Abs(got - want)
	return d <= 0.05 || d <= 0.02*want
}

// KernelName turns Nsight's function name ("void k<float>(const T1 *,
// T1 *)", or the parameter list already cut off) into the kernel's name
// with its template arguments ("k<float>"). A value argument is written
// as the details page writes it: the source page's "k<(int)32>" is
// "k<32>".
func KernelName(fn string) string {
	fn = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(fn), "void "))
	fn = valueCast.ReplaceAllString(fn, "$1")
	depth := 0
	for i, c := range fn {
		switch c {
		case '<':
			depth++
		case '>':
			depth--
		case '(':
			if depth == 0 {
				return strings.TrimSpace(fn[:i])
			}
		}
	}
	return fn
}

// SplitTemplate splits "k<float, int>" into "k" and its arguments
// ["float", "int"].
func SplitTemplate(name string) (string, []string) {
	i := strings.IndexByte(name, '<')
	if i < 0 || !strings.HasSuffix(name, ">") {
		return name, nil
	}
	var args []string
	depth, start := 0, i+1
	inner := name[:len(name)-1]
	for j := i + 1; j < len(inner); j++ {
		switch inner[j] {
		case '<', '(':
			depth++
		case '>', ')':
			depth--
		case ',':
			if depth == 0 {
				args = append(args, strings.TrimSpace(inner[start:j]))
				start = j + 1
			}
		}
	}
	args = append(args, strings.TrimSpace(inner[start:]))
	return name[:i], args
}

// scalarBytes are the sizes of the element types a template kernel is
// commonly instantiated with.
var scalarBytes = map[string]int64{
	"float": 4, "double": 8, "int": 4, "unsigned int": 4, "char": 1, "signed char": 1, "unsigned char": 1,
	"short": 2, "unsigned short": 2, "long": 8, "unsigned long": 8, "long long": 8,
	"__half": 2, "half": 2, "__nv_bfloat16": 2, "nv_bfloat16": 2,
}

// InstanceBytes is the element size a template instance's accesses
// would have: the size of its type arguments when they are all the same
// known scalar, else 0 (unknown). Value arguments (reduce4<int, 256>'s
// 256) are not types, and are passed over.
func InstanceBytes(args []string) int64 {
	var size int64
	for _, a := range args {
		if _, err := strconv.ParseInt(a, 10, 64); err == nil {
			continue
		}
		s, ok := scalarBytes[a]
		if !ok || size != 0 && s != size {
			return 0
		}
		size = s
	}
	return size
}
