package ncu

import (
	"compress/gzip"
	"os"
	"testing"
)

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
