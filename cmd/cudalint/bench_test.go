package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/cudalint/cudalint/internal/gen"
)

// The peak-memory goal (under 10x the input) is about the process a user
// runs, so it is measured on one: the benchmark re-executes its own test
// binary as the cudalint command (TestMain below) and reads the child's
// peak resident set from the kernel. The figures are reported per input
// byte: peak-RSS/B is the ratio the goal bounds. The Go runtime's fixed
// few megabytes are included, which is why the inputs are large.

func TestMain(m *testing.M) {
	if os.Getenv("CUDALINT_BENCH_CHILD") == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, devNull(), os.Stderr))
	}
	os.Exit(m.Run())
}

func devNull() *os.File {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		panic(err)
	}
	return f
}

func benchPeakRSS(b *testing.B, name, src string) {
	benchPeakRSSFiles(b, map[string]string{name: src})
}

// benchPeakRSSFiles runs the command on the folder of files.
func benchPeakRSSFiles(b *testing.B, files map[string]string) {
	dir := b.TempDir()
	size := 0
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
		size += len(src)
	}
	b.SetBytes(int64(size))
	var peak int64
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(os.Args[0], "--exit-zero", "--root", dir, dir)
		cmd.Env = append(os.Environ(), "CUDALINT_BENCH_CHILD=1")
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			peak = max(peak, ru.Maxrss*1024) // Linux reports kilobytes
		}
	}
	b.ReportMetric(float64(peak)/float64(size), "peak-RSS/B")
	b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
}

// BenchmarkCommandDense8MB runs the command on an 8 MB kernel-dense file.
func BenchmarkCommandDense8MB(b *testing.B) {
	benchPeakRSS(b, "dense.cu", gen.KernelDense(8<<20))
}

// BenchmarkCommandMixed20MB runs the command on a 20 MB mixed file.
func BenchmarkCommandMixed20MB(b *testing.B) {
	benchPeakRSS(b, "mixed.cu", gen.Mixed(20<<20))
}

// BenchmarkCommandDense4Files runs the command on four files of 2.7 MB of
// kernels each (the kernel-dense case: under 300 MB is the goal).
func BenchmarkCommandDense4Files(b *testing.B) {
	files := map[string]string{}
	for i := range 4 {
		files[fmt.Sprintf("dense%d.cu", i)] = gen.KernelDense(27 << 20 / 10)
	}
	benchPeakRSSFiles(b, files)
}
