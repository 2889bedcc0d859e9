package accesses

import (
	"fmt"
	"testing"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/parser"
)

// Records each thread reads or writes whole: which accesses make one up,
// its lead (the lowest address) and its size.
func TestRecords(t *testing.T) {
	const launch = "\nvoid h(float* in, float* out) { k<<<64, 256>>>(in, out); }\n"
	tests := []struct {
		name, body string
		lead       string // the lead's expression, "" for no record
		bytes      int64
		accesses   int     // those a thread runs
		unmerged   float64 // the part of a store's excess the L2 takes apart
		members    int     // accesses of both arms of a branch; 0: accesses
	}{
		{"a float3 stored through a cast: three instructions", "int i = blockIdx.x * 256 + threadIdx.x; reinterpret_cast<float3*>(out)[i] = make_float3(0, 1, 2);", "reinterpret_cast<float3*>(out)[i]", 12, 1, 0, 0},
		{"a float3 loaded through a cast", "int i = blockIdx.x * 256 + threadIdx.x; float3 v = reinterpret_cast<const float3*>(in)[i]; out[i] = v.x;", "reinterpret_cast<const float3*>(in)[i]", 12, 1, 0, 0},
		{"a float4: one instruction, no record", "int i = blockIdx.x * 256 + threadIdx.x; reinterpret_cast<float4*>(out)[i] = make_float4(0, 1, 2, 3);", "", 0, 0, 0, 0},
		{"eight stores of a 32-byte record write apart", "int i = blockIdx.x * 256 + threadIdx.x; out[8*i] = 0; out[8*i+1] = 1; out[8*i+2] = 2; out[8*i+3] = 3; out[8*i+4] = 4; out[8*i+5] = 5; out[8*i+6] = 6; out[8*i+7] = 7;", "out[8*i]", 32, 8, 1, 0},
		{"six stores of a 24-byte record: half apart", "int i = blockIdx.x * 256 + threadIdx.x; out[6*i] = 0; out[6*i+1] = 1; out[6*i+2] = 2; out[6*i+3] = 3; out[6*i+4] = 4; out[6*i+5] = 5;", "out[6*i]", 24, 6, 0.5, 0},
		{"eight loads of a 32-byte record", "int i = blockIdx.x * 256 + threadIdx.x; out[i] = in[8*i] + in[8*i+1] + in[8*i+2] + in[8*i+3] + in[8*i+4] + in[8*i+5] + in[8*i+6] + in[8*i+7];", "in[8*i]", 32, 8, 0, 0},
		{"three stores of a 12-byte record", "int i = blockIdx.x * 256 + threadIdx.x; out[3*i+1] = 1; out[3*i] = 0; out[3*i+2] = 2;", "out[3*i]", 12, 3, 0, 0},
		{"two of three floats: no sector-wide gap", "int i = blockIdx.x * 256 + threadIdx.x; out[3*i] = 0; out[3*i+1] = 1;", "out[3*i]", 12, 2, 0, 0},
		{"nine loads of a 36-byte record", "int i = blockIdx.x * 256 + threadIdx.x; float s = 0; for (int j = 0; j < 9; j++) s += in[9*i+j]; out[i] = s;", "", 0, 0, 0, 0},
		{"three loads of a 36-byte record", "int i = blockIdx.x * 256 + threadIdx.x; out[i] = in[9*i] + in[9*i+4] + in[9*i+8];", "in[9*i]", 36, 3, 0, 0},
		{"fields a sector apart: no record", "int i = blockIdx.x * 256 + threadIdx.x; out[i] = in[16*i] + in[16*i+15];", "", 0, 0, 0, 0},
		{"one field of a wide record: no record", "int i = blockIdx.x * 256 + threadIdx.x; out[i] = in[64*i] + in[64*i+1];", "", 0, 0, 0, 0},
		{"a store under another guard is no member", "int i = blockIdx.x * 256 + threadIdx.x; out[3*i] = 0; if (i & 1) out[3*i+1] = 1; out[3*i+2] = 2;", "out[3*i]", 12, 2, 0, 0},
		{"past the lane's record: no record", "int i = blockIdx.x * 256 + threadIdx.x; out[2*i] = 0; out[2*i+2] = 1;", "", 0, 0, 0, 0},
		// texture_cube's pixel: alpha, then the colours under a branch
		// each warp takes whole; either arm completes the record.
		{"both arms of a branch on the block complete the record", "int i = blockIdx.x * 256 + threadIdx.x; out[3*i+2] = 2; if (blockIdx.x & 1) { out[3*i] = 0; out[3*i+1] = 1; } else { out[3*i+1] = 0; out[3*i] = 1; }", "out[3*i]", 12, 3, 0, 5},
		{"an access in each arm", "int i = blockIdx.x * 256 + threadIdx.x; out[3*i+2] = 2; if (blockIdx.x & 1) out[3*i] = 0; else out[3*i] = 1;", "out[3*i]", 12, 2, 0, 3},
		{"one arm: the other blocks leave the record partial", "int i = blockIdx.x * 256 + threadIdx.x; out[3*i+2] = 2; if (blockIdx.x & 1) out[3*i] = 0;", "", 0, 0, 0, 0},
		// texture_2d's pixel blended in place: a load of the record
		// between its stores keeps them all apart; read first, it does not.
		{"a load between the stores: merged not at all", "int i = blockIdx.x * 256 + threadIdx.x; out[4*i] = 0.5f * out[4*i]; out[4*i+1] = 1; out[4*i+2] = 2; out[4*i+3] = 3;", "out[4*i]", 16, 4, 1, 0},
		{"the load before the stores: merged", "int i = blockIdx.x * 256 + threadIdx.x; float v = out[4*i]; out[4*i] = 0.5f * v; out[4*i+1] = 1; out[4*i+2] = 2; out[4*i+3] = 3;", "out[4*i]", 16, 4, 0, 0},
		{"a branch lanes take apart is no arm", "int i = blockIdx.x * 256 + threadIdx.x; out[3*i+2] = 2; if (i & 1) out[3*i] = 0; else out[3*i] = 1;", "", 0, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "__global__ void k(const float* in, float* out) { " + tt.body + " }" + launch
			f := parser.Parse("k.cu", []byte(src), parser.Config{})
			r := &Result{Analysis: analyzer.Analyze([]*parser.File{f}, analyzer.Options{})}
			r.computeFacts()
			var rec *Record
			for _, p := range r.Analysis.Predictions {
				if got := r.Record(p); got != nil {
					if rec != nil && got != rec {
						t.Fatalf("two records")
					}
					rec = got
				}
			}
			if tt.lead == "" {
				if rec != nil {
					t.Fatalf("record led by %s, want none", rec.Lead.Access.Expr)
				}
				return
			}
			if rec == nil {
				t.Fatalf("no record, want one led by %s", tt.lead)
			}
			members := tt.members
			if members == 0 {
				members = tt.accesses
			}
			if got := rec.Lead.Access.Expr; got != tt.lead || rec.Bytes != tt.bytes || rec.Accesses != tt.accesses || len(rec.Members) != members || rec.Unmerged != tt.unmerged {
				t.Errorf("record led by %s, %d bytes, %d accesses (%d members), unmerged %g; want %s, %d, %d (%d), %g", got, rec.Bytes, rec.Accesses, len(rec.Members), rec.Unmerged, tt.lead, tt.bytes, tt.accesses, members, tt.unmerged)
			}
		})
	}
}

// An arm the launch decides: texture_cube paints one face a launch, and
// face % 2 is given by each; under a launch where the arm runs it
// completes the record, under one where it does not, nothing does.
func TestRecordArmDecidedByTheLaunch(t *testing.T) {
	for _, tt := range []struct {
		face     int
		accesses int // 0: no record
	}{{3, 3}, {2, 0}} {
		src := fmt.Sprintf(`__global__ void k(float* out, int face) {
    int i = blockIdx.x * 256 + threadIdx.x;
    out[3*i+2] = 2;
    if (face %% 2) { out[3*i] = 0; out[3*i+1] = 1; }
}
void h(float* out) { k<<<64, 256>>>(out, %d); }
`, tt.face)
		f := parser.Parse("k.cu", []byte(src), parser.Config{})
		r := &Result{Analysis: analyzer.Analyze([]*parser.File{f}, analyzer.Options{})}
		r.computeFacts()
		got := 0
		for _, p := range r.Analysis.Predictions {
			if rec := r.Record(p); rec != nil {
				got = rec.Accesses
			}
		}
		if got != tt.accesses {
			t.Errorf("face %d: a record of %d accesses, want %d", tt.face, got, tt.accesses)
		}
	}
}
