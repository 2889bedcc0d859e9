package lint

import (
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/analyzer"
)

// Finding is what the driver keeps for the printers: a rule's diagnostic
// with its severity and the prediction and figures behind it. A rule's
// analyzer returns its findings (as its result) beside reporting their
// diagnostics, so that nothing has to find a diagnostic's prediction
// again.
type Finding struct {
	analysis.Diagnostic
	Rule     *Rule
	Severity Severity
	// Prediction is the access under one launch the finding is about; nil
	// for findings about comments and for internal errors.
	Prediction *analyzer.Prediction
	// Covers are the other accesses (under the same launch) the finding
	// is about, the other lanes of one vector: precedence counts the
	// finding as theirs too, so no other rule reports them apart.
	Covers []*analyzer.Prediction
	// Detail is the rule's own part of the message, after the access it
	// names ("load in[i * 2]: ..."): a finding folded with others renames
	// the access (a load and a store of one statement) and keeps this.
	Detail string
	// Figures are the numbers behind the message, for machine output.
	Figures Figures
	// Subject names the access ("load in[i * 2]"); Impact ("; fixing it:
	// up to 4.3x for this kernel ...") and Extras (clauses the driver adds:
	// the accesses folded in, why a warning became info), each starting
	// "; ", follow the rule's Detail. Compose writes Message from them,
	// what fixing it is worth before the long tail, so that a reader
	// meets the access, its cost and fix, and its worth in one pass.
	Subject string
	Impact  string
	Extras  []string
	// Cause, when the rule gives one, is the identity of what it finds
	// wrong (a comparable value): the findings of one kernel and array
	// with the same cause fold into one (FoldSameStride, where the lane
	// stride is not one constant).
	Cause any
}

// Compose writes the message of a finding about a prediction from its
// parts; other findings (suppressions, internal errors) keep theirs.
func (f *Finding) Compose() {
	if f.Subject == "" {
		return
	}
	f.Message = f.Subject + ": " + f.Detail + f.Impact + strings.Join(f.Extras, "")
}

// AddExtra appends a clause ("; 3 more accesses ...") to the message.
func (f *Finding) AddExtra(clause string) {
	f.Extras = append(f.Extras[:len(f.Extras):len(f.Extras)], clause)
	f.Compose()
}

// Figures are a finding's numbers in JSON and SARIF. Fields are in
// alphabetical order of their JSON names, the order the output has
// always had; a field that does not apply is left out.
type Figures struct {
	Assumptions            []string  `json:"assumptions,omitempty"`
	Block                  []int64   `json:"block,omitempty"`
	BlockFrom              string    `json:"blockFrom,omitempty"`
	BlockSource            string    `json:"blockSource,omitempty"`
	Efficiency             *float64  `json:"efficiency,omitempty"`
	ElementBytes           *int64    `json:"elementBytes,omitempty"`
	ExcessBytesPerLaunch   *int64    `json:"excessBytesPerLaunch,omitempty"`
	Grouped                int       `json:"grouped,omitempty"` // findings folded into this one, itself included
	IdealSectorsPerRequest *float64  `json:"idealSectorsPerRequest,omitempty"`
	Impact                 *Impact   `json:"impact,omitempty"`
	Kernel                 string    `json:"kernel,omitempty"`
	LaneStrideBytes        *int64    `json:"laneStrideBytes,omitempty"`
	Op                     string    `json:"op,omitempty"`
	SectorsPerRequest      *float64  `json:"sectorsPerRequest,omitempty"`
	SectorsRange           []int     `json:"sectorsRange,omitempty"`
	UnknownReason          string    `json:"unknownReason,omitempty"`
	Unrolled               string    `json:"unrolled,omitempty"`
	UnrolledCopySectors    []float64 `json:"unrolledCopySectors,omitempty"`
}

// IsZero reports whether no figure is set.
func (f *Figures) IsZero() bool {
	return f.Block == nil && f.Kernel == "" && f.Op == "" && f.Grouped == 0
}
