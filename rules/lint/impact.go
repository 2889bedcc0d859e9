package lint

import "github.com/cudalint/cudalint/parser/lex"

// Impact is what fixing a finding is worth to its kernel, under the
// memory-bound time model of rules/accesses (docs/severity.md): the
// kernel's predicted memory traffic per launch, what the finding's
// accesses move beyond their ideal, the share of the kernel's memory
// time that removing it saves, and the speedup that follows. Fields are
// in alphabetical order of their JSON names, as in Figures.
type Impact struct {
	// Assumed: some term rests on a size, trip count, grid or block the
	// code does not give, or on an access whose cost is not known: the
	// figures hold at the assumed sizes.
	Assumed bool `json:"assumed,omitempty"`
	// EstimatedSpeedup is the kernel's time as it is over the
	// same with the finding's accesses at their ideal: 1 or more.
	EstimatedSpeedup float64 `json:"estimatedSpeedup"`
	// ExcessBytesPerLaunch are the global bytes moved beyond the ideal
	// (sectors above it, 32 bytes each), a whole number; ExcessWavefrontsPerLaunch the
	// shared-memory wavefronts beyond it. A float: sizes assumed large in
	// nested loops put a kernel's bytes past the largest int64, where a
	// count would saturate (and a fold of saturated counts sum wrong).
	ExcessBytesPerLaunch      float64 `json:"excessBytesPerLaunch,omitempty"`
	ExcessWavefrontsPerLaunch int64   `json:"excessWavefrontsPerLaunch,omitempty"`
	// KernelSectorsPerLaunch and KernelWavefrontsPerLaunch are the
	// kernel's predicted global sectors and shared wavefronts in one
	// launch of this configuration, every access counted.
	KernelSectorsPerLaunch    int64 `json:"kernelSectorsPerLaunch"`
	KernelWavefrontsPerLaunch int64 `json:"kernelWavefrontsPerLaunch"`
	// KernelInstructionsPerLaunch are the warp instructions the kernel
	// issues in one launch of this configuration, as counted from its
	// source (an operation each, an access each, weighed by how often it
	// runs).
	KernelInstructionsPerLaunch int64 `json:"kernelInstructionsPerLaunch,omitempty"`
	// IssueBound: issuing the kernel's instructions takes longer than its
	// memory traffic, so its arithmetic, not its memory, bounds it.
	IssueBound bool `json:"issueBound,omitempty"`
	// Launcher is the finding priced against the launches its launch's
	// host function runs with it (rules/impact/launcher.go): nil when
	// the function launches nothing else beside it.
	Launcher *Launcher `json:"launcher,omitempty"`
	// Longer is the finding priced again with the kernel's loops of
	// unknown trip count that do not enclose it run Factor times longer
	// (rules/impact/longer.go): nil when the kernel has no such loop.
	Longer *Longer `json:"longerLoops,omitempty"`
	// Share is the part of the kernel's time the fix removes, 0..1.
	Share float64 `json:"share"`
	// SavedSeconds is the model's time per launch the fix saves:
	// what --sort impact and the summary rank by. Left out of the output:
	// its scale rests on the model's bandwidths, which only the ratios
	// above are checked against (testdata/truth/timing).
	SavedSeconds float64 `json:"-"`
	// The time model's own terms, for combining impacts of one cause:
	// the kernel's sectors from DRAM (after the L1 serves a lane's own
	// sector again) and its L1 wavefronts (global lines and shared
	// wavefronts), and the finding's excess in each.
	KernelDRAMSectors, KernelL1Wavefronts float64 `json:"-"`
	KernelInstructions                    float64 `json:"-"`
	ExcessDRAMSectors, ExcessL1Wavefronts float64 `json:"-"`
	// KernelSpreadL1 and KernelSpreadIssue are the part of the GPU's
	// L1s and schedulers the launch takes (impact.Spread).
	KernelSpreadL1, KernelSpreadIssue, KernelSpreadWaves float64 `json:"-"`
	// KernelLoadsPerWarp are the global load requests a warp makes;
	// KernelUnsized: the launch's grid is not known (impact.KernelCost).
	KernelLoadsPerWarp float64 `json:"-"`
	KernelUnsized      bool    `json:"-"`
	// StartupBound: the launch's start-up, which a fix does not
	// shorten, is most of its time (a set-up or merge step of a few
	// blocks): the message says so.
	StartupBound bool `json:"startupBound,omitempty"`
}

// Longer is what a fix is worth when the loops of its kernel whose trip
// count the code does not give, other than those around the finding,
// run Factor times the Trips the model assumed: a store after a loop over
// loaded bounds claims less of its kernel the longer the loop runs.
type Longer struct {
	EstimatedSpeedup float64 `json:"estimatedSpeedup"`
	Factor           int     `json:"factor"`
	// Loop is the first such loop, by its position; Scaled are all of
	// them, in the kernel's order.
	Loop   lex.Pos   `json:"-"`
	Scaled []lex.Pos `json:"-"`
	Share  float64   `json:"share"`
	Trips  int       `json:"assumedTrips"`
	// The time model's terms, for combining impacts of one cause.
	KernelDRAMSectors, KernelL1Wavefronts float64 `json:"-"`
	KernelInstructions                    float64 `json:"-"`
	ExcessDRAMSectors, ExcessL1Wavefronts float64 `json:"-"`
}

// Launcher is what a fix is worth to the host function that launches its
// kernel, with the launches that run together with it.
type Launcher struct {
	// Function is the host function; Heaviest the kernel of its longest
	// launch.
	Function string `json:"function"`
	Heaviest string `json:"heaviest"`
	// Part is the finding's launch's part of the function's launches'
	// time; Share the part of it the fix saves, 0..1.
	Part  float64 `json:"part"`
	Share float64 `json:"share"`
}
