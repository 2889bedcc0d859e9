// Package impact prices a finding against the kernel it sits in: every
// kernel's predicted memory cost per launch, under each launch
// configuration, and the share of it that a finding's fix removes, under
// the time model of docs/severity.md.
package impact

import (
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/warp"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/policy"
	"github.com/cudalint/cudalint/rules/wording"
)

// A finding is priced exactly per request, but whether it matters depends
// on the kernel it sits in: a tile store that is 1% of its kernel's
// traffic is real and not worth fixing. So every kernel, under each launch
// configuration, gets its whole predicted memory cost per launch, and each
// finding the share of it that its fix removes.

// The time model (docs/severity.md): a kernel is memory-bound, and its
// memory time is the sum of two, as if one waited for the other: the
// global sectors DRAM moves, at the bandwidth a straight copy reaches,
// and the wavefronts the SMs' L1 serves (a global request takes one per
// 128-byte line it touches, a shared request its wavefronts), one per
// clock per SM. (The longer of the two, as if they overlapped, put the
// conflicted tile at 1.38x for 2.18x measured.) A lane that walks
// its own sector in a loop (x[row * C + k], k = 0, 1, ...) asks for it
// every iteration but DRAM moves it once: the L1 holds it. Both rates
// were measured on an H200 (testdata/truth/timing).
const (
	// GlobalBytesPerSecond: what a straight copy of 2 x 256 MiB reached
	// on the H200 (copy_fast in testdata/truth/timing/timings.csv: 512
	// MiB in 0.2035 ms), not HBM3e's 4.8 TB/s peak.
	GlobalBytesPerSecond = 2.64e12
	// SharedWavefrontsPerSecond: one L1 wavefront per clock per SM, 132
	// SMs at the 1.98 GHz boost clock. rowwalk_slow of the timings, 64 Mi
	// lines through the L1 in 0.274 ms, ran at 0.94 of it.
	SharedWavefrontsPerSecond = 132 * 1.98e9
	// overlapHidden is the part of the shorter of the two times that the
	// longer does not hide: 0 if DRAM and the L1 overlapped fully, 1 if
	// one waited for the other.
	overlapHidden = 0.5
	// lineBytes is the L1's line: a global request takes a wavefront per
	// line its lanes touch.
	lineBytes = 128
)

// MemorySeconds is the model's memory time of a launch over the whole
// GPU whose DRAM moves the given sectors and whose L1 serves the given
// wavefronts.
func MemorySeconds(dramSectors, l1Wavefronts float64) float64 {
	return KernelCost{DRAM: dramSectors, L1: l1Wavefronts}.MemorySeconds()
}

// Launches too small to fill the GPU (testdata/truth/timing/small.cu,
// small_launch.csv): a launch costs a start-up whatever it does, and a
// grid of fewer blocks than SMs has only their L1s and schedulers.
// Measured on the H200 between CUDA events: an empty kernel 5.2 to 6.0
// us (four medians of 15); a gather 32 floats apart and its copy over
// 65536 threads 1.09x to 1.24x, over 262144 1.22x to 1.33x, over a
// million 2.75x to 2.79x, where memory alone says 4.5x at every size;
// a 32-way conflicted tile walked by 16 blocks of one warp 2.05x its
// padded twin (the L1 of 132 SMs says 1.03x, of the 16 it runs on 1.9x).
const (
	// LaunchSeconds is what a launch costs that does nothing.
	LaunchSeconds = 5.6e-6
	// LoadSeconds is what one global load of a warp waits for its data
	// when nothing else hides it: boxrow_small_fast (testdata/truth/timing
	// small.csv), 2039 coalesced loads per warp, two warps an SM, ran
	// 0.169 ms, 80 ns a load after the start-up. A launch cannot end
	// before its warps' loads have come back one after another, each SM
	// holding at most residentWarps warps at once.
	LoadSeconds = 80e-9
	// BatchedLoadSeconds is what a load in a loop that only loads waits:
	// nvcc unrolls the loop and issues its loads together. rowsum_fast
	// of small.cu, 768 loads a warp over 32 blocks of 256 threads, ran
	// 12.1 ns a load after the start-up, and 11.6 over 16 blocks of 64
	// (rowsum_small_fast).
	BatchedLoadSeconds = 12e-9
	residentWarps      = 64
	// SMCount is the H200's SMs, schedulersPerSM each SM's warp schedulers.
	SMCount         = 132
	schedulersPerSM = 4
)

// Spread is the part of the GPU a launch's blocks take: of its SMs'
// L1s (a block on each until every SM has one) and of its schedulers
// (one warp issues one instruction a clock at most: an SM with a warp
// uses one of its four). 0 stands for 1, the whole GPU.
type Spread struct {
	L1, Issue float64
	// Waves is how many times over the GPU's SMs must take in warps to
	// hold all the launch's (at residentWarps an SM); 0 stands for 1.
	Waves float64
}

// SpreadOf is the part of the GPU a launch of blocks blocks of the
// given threads takes.
func SpreadOf(blocks, threads int64) Spread {
	if blocks <= 0 || threads <= 0 {
		return Spread{}
	}
	sms := float64(min(blocks, SMCount))
	warpsPerBlock := math.Ceil(float64(threads) / 32)
	warpsPerSM := math.Ceil(float64(blocks)/SMCount) * warpsPerBlock
	return Spread{L1: sms / SMCount, Issue: sms / SMCount * math.Min(warpsPerSM, schedulersPerSM) / schedulersPerSM,
		Waves: math.Max(1, float64(blocks)*warpsPerBlock/(SMCount*residentWarps))}
}

func part(x float64) float64 {
	if x <= 0 || x > 1 {
		return 1
	}
	return x
}

// Small: the launch leaves some of the GPU's SMs or schedulers idle.
func (s Spread) Small() bool { return part(s.L1) < 1 || part(s.Issue) < 1 }

// KernelCost is a kernel's predicted memory traffic in one launch of one
// configuration: every access's requests per launch (warps, trip counts
// and unrolled copies, as the model counts them) times its sectors per
// request for global memory, its wavefronts per request for shared.
type KernelCost struct {
	Sectors    float64 // global sectors per launch, as the requests ask for them
	Wavefronts float64 // shared-memory wavefronts per launch
	// DRAM are the global sectors DRAM moves (a lane's own sector read
	// again in a loop counted once), L1 the wavefronts the L1 serves
	// (global lines and shared wavefronts): the time model's terms.
	DRAM, L1 float64
	// Instructions are the warp instructions the launch issues (issue.go).
	Instructions float64
	// Assumed: some term rests on a size, trip count, grid or block the
	// code does not give, or on an access whose cost is not known (counted
	// at its ideal): the figures hold at the assumed sizes.
	Assumed bool
	// Spread is the part of the GPU the launch's blocks take.
	Spread Spread
	// Unsized: the code does not give the launch's grid, so its size is
	// not known and its start-up is not weighed against its traffic
	// (at the assumed grid's 64 blocks it would outweigh most kernels).
	Unsized bool
	// LoadsPerWarp are the global load requests a warp of the launch
	// waits for, in loads that wait LoadSeconds (a batched load counts
	// BatchedLoadSeconds / LoadSeconds of one): what latencySeconds
	// waits for.
	LoadsPerWarp float64
}

// Seconds is the kernel's time per launch under the time model: its
// start-up, then its memory and its issuing, the shorter hidden in part
// by the longer.
func (k KernelCost) Seconds() float64 {
	busy := KernelSeconds(k.MemorySeconds(), k.Instructions/part(k.Spread.Issue))
	lat := k.latencySeconds()
	return k.startup() + math.Max(busy, lat) + overlapHidden*math.Min(busy, lat)
}

// BusySeconds is the kernel's time per launch as Nsight Compute's
// duration of a launch measures it, which launches beside it are
// compared by (launcher.go): without the start-up between events, and
// at least the least a launch lasts on the GPU (BusyFloorSeconds), which
// a launch's work fills before it adds to it.
func (k KernelCost) BusySeconds() float64 {
	if k.Unsized {
		return k.Seconds()
	}
	return math.Max(k.Seconds()-k.startup(), BusyFloorSeconds)
}

// BusyFloorSeconds is the shortest launch Nsight Compute measured among
// the launcher parts (testdata/truth/launchers/parts.csv:
// VoteAnyKernel3, one warp, 1504 ns; VoteAllKernel2 1920 ns).
const BusyFloorSeconds = 1.5e-6

// startup is LaunchSeconds, or nothing for a launch of unknown size.
func (k KernelCost) startup() float64 {
	if k.Unsized {
		return 0
	}
	return LaunchSeconds
}

// latencySeconds is the time the launch's warps wait for their loads,
// one after another, a wave of resident warps at a time: what bounds a
// launch of few warps walking long rows, whatever its bandwidth.
func (k KernelCost) latencySeconds() float64 {
	waves := k.Spread.Waves
	if waves < 1 {
		waves = 1
	}
	return k.LoadsPerWarp * LoadSeconds * waves
}

// LatencyBound: waiting for loads one after another outlasts the
// launch's memory traffic and its issuing.
func (k KernelCost) LatencyBound() bool {
	return k.latencySeconds() > KernelSeconds(k.MemorySeconds(), k.Instructions/part(k.Spread.Issue))
}

// MemorySeconds is the kernel's memory time per launch: its DRAM
// sectors at the bandwidth a copy reaches, its L1 wavefronts at the
// rate of the L1s its blocks occupy.
func (k KernelCost) MemorySeconds() float64 {
	d, l := k.DRAM*warp.SectorBytes/GlobalBytesPerSecond, k.L1/(SharedWavefrontsPerSecond*part(k.Spread.L1))
	return math.Max(d, l) + overlapHidden*math.Min(d, l)
}

// IssueBound: the kernel's warps take longer to issue their instructions
// than its memory takes to serve them.
func (k KernelCost) IssueBound() bool {
	return k.Instructions/(IssueRate*part(k.Spread.Issue)) > k.MemorySeconds()
}

// StartupBound: the launch's start-up is most of its time.
func (k KernelCost) StartupBound() bool { return k.startup() > k.Seconds()/2 }

// costKey names one kernel under one launch configuration.
type costKey struct {
	kernel any
	config *analyzer.LaunchConfig
}

func keyOf(p *analyzer.Prediction) costKey { return costKey{p.Access.Kernel, p.Config} }

// Costs are the kernels' costs of one pass, each kernel under each launch
// configuration.
type Costs struct {
	res     *accesses.Result
	kernels map[costKey]*KernelCost
	// repeats are the loads whose sectors an earlier load of the same
	// thread brought into the L1 (see l1Repeats): they move no bytes of
	// their own.
	repeats map[*analyzer.Prediction]*analyzer.Prediction
	// group lists, for a load that others repeat, those repeats.
	group map[*analyzer.Prediction][]*analyzer.Prediction
	// places are how often each kernel's code runs under each
	// configuration: what an access whose address depends on data, which
	// has no requests of its own, requests.
	places map[costKey]*places
	// preds are each kernel's predictions under each configuration, code
	// its operations per place, unknown its loops of unknown trip count
	// (longer.go, filled as asked).
	preds   map[costKey][]*analyzer.Prediction
	code    map[*parser.Func]*kernelCode
	unknown map[costKey]loopSet
}

// Analyzer prices the pass's kernels once for every rule that requires
// it: its result is the *Costs of the model's predictions.
var Analyzer = &analysis.Analyzer{
	Name:       "impact",
	Doc:        "the predicted memory cost per launch of every kernel and launch configuration, which each finding is priced against",
	Requires:   []*analysis.Analyzer{accesses.Analyzer},
	ResultType: reflect.TypeOf((*Costs)(nil)),
	Run: func(pass *analysis.Pass) (any, error) {
		return Of(pass.ResultOf[accesses.Analyzer].(*accesses.Result)), nil
	},
}

// Of sums every kernel's cost per launch configuration, once for the
// pass's predictions.
func Of(res *accesses.Result) *Costs {
	c := &Costs{res: res, kernels: map[costKey]*KernelCost{}, repeats: l1Repeats(res, res.Analysis.Predictions),
		group: map[*analyzer.Prediction][]*analyzer.Prediction{}, unknown: map[costKey]loopSet{}}
	for q, p := range c.repeats {
		c.group[p] = append(c.group[p], q)
	}
	preds := map[costKey][]*analyzer.Prediction{}
	for _, p := range res.Analysis.Predictions {
		preds[keyOf(p)] = append(preds[keyOf(p)], p)
	}
	funcs := funcsNamed(res.Analysis.Program.FuncsNamed) // the program's index: no index of our own per pass
	code := map[*parser.Func]*kernelCode{}
	c.places = make(map[costKey]*places, len(preds))
	for key, ps := range preds {
		kernel := ps[0].Access.Kernel
		if code[kernel] == nil {
			code[kernel] = codeOf(kernel, funcs, res.Analysis.Program.Types())
		}
		c.places[key] = placesOf(ps, code[kernel])
	}
	for _, p := range res.Analysis.Predictions {
		k := c.kernels[keyOf(p)]
		if k == nil {
			k = &KernelCost{Spread: spreadOf(p.Config), Unsized: p.Config != nil && p.Config.GridKnown != [3]bool{true, true, true}}
			c.kernels[keyOf(p)] = k
		}
		c.addTerm(k, p)
	}
	for key, ps := range preds {
		c.kernels[key].Instructions = c.places[key].instructions(code[ps[0].Access.Kernel], ps, c.requests)
		c.kernels[key].LoadsPerWarp = c.loadsPerWarp(ps)
	}
	c.preds, c.code = preds, code
	return c
}

// spreadOf is the part of the GPU a launch of cfg takes: the whole GPU
// where the code does not give the grid (the assumed grid's blocks are a
// sample of the launch, not its size).
func spreadOf(cfg *analyzer.LaunchConfig) Spread {
	if cfg == nil || cfg.GridKnown != [3]bool{true, true, true} {
		return Spread{}
	}
	return SpreadOf(cfg.Grid[0]*cfg.Grid[1]*cfg.Grid[2], cfg.Block[0]*cfg.Block[1]*cfg.Block[2])
}

// loadsPerWarp are the global load requests from DRAM a warp of ps's
// launch makes (ps: one kernel's predictions under one configuration).
func (c *Costs) loadsPerWarp(ps []*analyzer.Prediction) float64 {
	cfg := ps[0].Config
	if cfg == nil {
		return 0
	}
	warps := float64(cfg.Grid[0]*cfg.Grid[1]*cfg.Grid[2]) * math.Ceil(float64(cfg.Block[0]*cfg.Block[1]*cfg.Block[2])/32)
	if warps <= 0 {
		return 0
	}
	return c.loadRequests(ps) / warps
}

// loadRequests are the global load requests of ps per launch that wait
// for DRAM, each weighed by its wait (loadWeight): not those the caches
// serve (an address every lane reads alike, a sector an earlier load of
// the lane brought in), whose wait is short and which nvcc issues ahead
// (the rasterizer pairs: 144 and 2304 such loads a warp, measured bound
// by their arithmetic), nor those outside loops (one wait a warp).
func (c *Costs) loadRequests(ps []*analyzer.Prediction) float64 {
	return c.scaledLoadRequests(ps, func(*analyzer.Prediction) float64 { return 1 })
}

// scaledLoadRequests is loadRequests with each prediction's requests
// scaled by f (longer.go: the loops of unknown trip count run longer).
func (c *Costs) scaledLoadRequests(ps []*analyzer.Prediction, f func(*analyzer.Prediction) float64) float64 {
	storing := map[parser.Pos]bool{} // loops whose body stores
	for _, p := range ps {
		if p.Access.Space == interp.Global && p.Access.Op != interp.Load && !p.NoLane {
			for _, l := range p.Access.Loops {
				storing[l.Pos] = true
			}
		}
	}
	n := 0.0
	for _, p := range ps {
		if isLoad(p) && c.res.Reused(p) == nil && c.dram(p) > 0 && len(p.Access.Loops) > 0 {
			n += loadWeight(p, storing) * f(p) * c.requests(p)
		}
	}
	return n
}

// loadWeight is what a load in a loop waits, in LoadSeconds: all of it
// where the loop also stores to global memory through pointers nvcc
// must take to alias the load's, so that no load of the next iteration
// goes before this one's store (boxrow: 80 ns a load); a batch's share
// where the loop only loads (rowsum: 12 ns).
func loadWeight(p *analyzer.Prediction, storing map[parser.Pos]bool) float64 {
	if waitsOnStores(p, storing) {
		return 1
	}
	return BatchedLoadSeconds / LoadSeconds
}

// waitsOnStores: p's innermost loop stores, and p's pointer may alias
// the stores' (it is not a __restrict__ parameter).
func waitsOnStores(p *analyzer.Prediction, storing map[parser.Pos]bool) bool {
	loops := p.Access.Loops
	return len(loops) > 0 && storing[loops[len(loops)-1].Pos] && !accesses.RestrictParam(p.Access)
}

// isLoad: p is a global load some lane makes.
func isLoad(p *analyzer.Prediction) bool {
	return p.Access.Space == interp.Global && p.Access.Op == interp.Load && !p.NoLane
}

// addTerm adds p's traffic per launch to its kernel's cost.
func (c *Costs) addTerm(k *KernelCost, p *analyzer.Prediction) { c.addScaledTerm(k, p, 1) }

// addScaledTerm adds p's traffic per launch, f times over, to k.
func (c *Costs) addScaledTerm(k *KernelCost, p *analyzer.Prediction, f float64) {
	if p.NoLane || c.res.Reused(p) != nil {
		return // no lane runs it, or nvcc reuses an earlier load's value: no instruction
	}
	units := f * c.traffic(p)
	if p.Access.Space == interp.Shared {
		k.Wavefronts += units
		k.L1 += units
	} else {
		k.Sectors += units
		k.DRAM += f * c.dram(p)
		k.L1 += f * c.l1(p)
	}
	k.Assumed = k.Assumed || termAssumed(p)
}

// traffic is what p moves per launch: its sectors (global) or
// wavefronts (shared) per request times its requests; nothing for a load
// the L1 serves.
func (c *Costs) traffic(p *analyzer.Prediction) float64 {
	if c.repeats[p] != nil {
		return 0
	}
	per := p.Sectors
	if !p.Known {
		per = leastUnknown // 1 to 32 sectors, depending on the data: the least
	}
	return per * c.requests(p)
}

// dram is what DRAM moves for global access p per launch: its traffic,
// less the sectors of a lane's own that the L1 serves again.
func (c *Costs) dram(p *analyzer.Prediction) float64 {
	if c.repeats[p] != nil || c.mergedStore(p) {
		return 0
	}
	if !p.Known {
		return 0 // the least: every lane at one address, which the caches serve
	}
	if rec := c.res.Record(p); rec != nil && p.Access.Op == interp.Store {
		return recordStoreSectors(rec, p) * c.requests(p)
	}
	return dramPerRequest(p) * c.requests(p)
}

// recordStoreSectors is what a store of a record each thread writes
// whole costs per request. Merged, the lead's request writes the sectors
// of the record's union once (its pieces' union, for a float3 through a
// cast: three STG.32, f3store of testdata/truth/timing, 1.00x its
// planes) and the others' bytes merge into them. The part the L2 takes
// apart (Record.Unmerged) costs each store its own sectors.
func recordStoreSectors(rec *accesses.Record, p *analyzer.Prediction) float64 {
	merged := 0.0
	if rec.Lead == p {
		merged = math.Max(p.Ideal, p.Sectors*pieceReuse(p))
	}
	return merged + rec.Unmerged*(p.Sectors-merged)
}

// mergedStore: p is a store of a record each thread writes whole, not
// its lead, all of whose writes the L2 merges into the sectors the
// lead's request wrote: DRAM moves each once.
func (c *Costs) mergedStore(p *analyzer.Prediction) bool {
	rec := c.res.Record(p)
	return rec != nil && rec.Merged() && rec.Lead != p && p.Access.Op == interp.Store
}

// l1 is the L1 wavefronts global access p takes per launch: one per line
// a request touches (a repeat is a request too: only DRAM skips it).
func (c *Costs) l1(p *analyzer.Prediction) float64 {
	if !p.Known {
		return leastUnknown * c.requests(p)
	}
	if rec := c.res.Record(p); rec != nil {
		// A record read or written whole costs what its planar twin
		// does (the record and triple pairs: 1.00x and 0.99x), though
		// each of its requests spans the lines of 32 records: the L1
		// serves them as if they were the planes' own, but for the part
		// of a store's writes that go apart.
		ideal := idealLines(p.Ideal)
		return (ideal + rec.Unmerged*(linesPerRequest(p)-ideal)) * c.requests(p)
	}
	return linesPerRequest(p) * c.requests(p)
}

// requests is p's requests per launch, as instructions of its own: a
// vector component the compiler loads with its siblings shares their one
// instruction, so it counts for its part of the vector.
func (c *Costs) requests(p *analyzer.Prediction) float64 {
	n := p.RequestsPerLaunch()
	if !p.Known && !p.NoLane {
		n = c.places[keyOf(p)].at(keyOfLoops(p)) // no requests of its own: as often as its place runs
	}
	if p.Hoisted || p.Promoted {
		// nvcc loads it once before its innermost loop (and stores it once
		// after): as often as the loop is entered, not once per iteration.
		n = math.Min(n, c.places[keyOf(p)].at(keyOfLoops(p).outer()))
	}
	if a := p.Access; c.res.MergedWithSibling(p) && a.Struct.Size > 0 {
		n *= float64(a.Type.Size) / float64(a.Struct.Size)
	}
	return n
}

// leastUnknown is what a request whose address depends on data costs at
// the least: every lane at one address, a sector and a wavefront.
const leastUnknown = 1

// termAssumed: p's part of the kernel's cost rests on what the code does
// not give (a parameter, a trip count, the grid, the block's shape, the
// layout of a type no file defines) or on data (an unknown address, a
// guard on loaded values).
func termAssumed(p *analyzer.Prediction) bool {
	c := p.Config
	return !p.Known || p.Access.Guessed || len(p.Assumptions) > 0 || len(accesses.AssumedStride(p)) > 0 ||
		c.GridKnown != [3]bool{true, true, true} || policy.GuessedBlock(c)
}

// Kernel is the cost per launch of p's kernel under p's launch
// configuration.
func (c *Costs) Kernel(p *analyzer.Prediction) (KernelCost, bool) {
	k := c.kernels[keyOf(p)]
	if k == nil {
		return KernelCost{}, false
	}
	return *k, true
}

// Impact is what fixing p is worth to its kernel, with the accesses
// covered by the same fix (the other lanes of one vector, under the same
// launch) fixed too: false when p's cost is not known (no ideal to fix it
// to) or its kernel moves nothing.
func (c *Costs) Impact(p *analyzer.Prediction, covered ...*analyzer.Prediction) (lint.Impact, bool) {
	k, ok := c.Kernel(p)
	if !ok || !p.Known || p.NoLane || c.res.Reused(p) != nil || k.Seconds() == 0 {
		return lint.Impact{}, false
	}
	// The fix brings the accesses it covers together to their ideal: what
	// they move as they are (an L1 repeat moves nothing) less that. The
	// loads that repeat p's sectors come with it: p's bytes cannot drop
	// below what they all use.
	// A record each thread reads or writes whole is fixed as one: its
	// lead carries the record's excess, its other accesses none of their
	// own (so that folded findings of one record count it once).
	if rec := c.res.Record(p); rec != nil {
		if rec.Lead != p {
			return New(k, Excess{}, k.Assumed), true
		}
		covered = append(covered, rec.Members...)
	}
	var ex Excess
	var fixed []*analyzer.Prediction
	seen := map[*analyzer.Prediction]bool{}
	for _, q := range append(append([]*analyzer.Prediction{p}, covered...), c.group[p]...) {
		if seen[q] || keyOf(q) != keyOf(p) || !q.Known || q.NoLane || c.res.Reused(q) != nil {
			continue
		}
		seen[q] = true
		fixed = append(fixed, q)
		ex = ex.plus(c.excess(q))
	}
	imp := New(k, ex.clamped(), k.Assumed)
	imp.Longer = c.longer(p, fixed)
	return imp, true
}

// excess is what fixing q alone removes per launch: what it moves as it
// is less what it would at its ideal.
func (c *Costs) excess(q *analyzer.Prediction) Excess {
	n := c.requests(q)
	excess := c.traffic(q) - q.Ideal*n
	if q.Access.Space == interp.Shared {
		return Excess{Wavefronts: excess, L1: excess}
	}
	return Excess{Sectors: excess, DRAM: c.dram(q) - q.Ideal*n, L1: c.l1(q) - idealLines(q.Ideal)*n}
}

// Excess is what a fix removes from its kernel: the global sectors its
// requests ask for and the shared wavefronts beyond their ideal, and in
// the time model's terms, DRAM sectors and L1 wavefronts.
type Excess struct {
	Sectors, Wavefronts float64
	DRAM, L1            float64
}

// New prices removing excess from kernel k: the share of its time
// saved and the speedup, the kernel's time as it is over its time
// without it (its instructions stay: the fix moves memory, not
// arithmetic).
func New(k KernelCost, excess Excess, assumed bool) lint.Impact {
	asIs := k.Seconds()
	without := k
	without.DRAM, without.L1 = math.Max(k.DRAM-excess.DRAM, 0), math.Max(k.L1-excess.L1, 0)
	fixed := without.Seconds()
	imp := lint.Impact{
		Assumed:                     assumed,
		ExcessBytesPerLaunch:        math.Round(excess.Sectors * warp.SectorBytes),
		ExcessWavefrontsPerLaunch:   clamp(excess.Wavefronts),
		KernelSectorsPerLaunch:      clamp(k.Sectors),
		KernelWavefrontsPerLaunch:   clamp(k.Wavefronts),
		EstimatedSpeedup:            1,
		SavedSeconds:                asIs - fixed,
		KernelDRAMSectors:           k.DRAM,
		KernelL1Wavefronts:          k.L1,
		KernelInstructions:          k.Instructions,
		KernelInstructionsPerLaunch: clamp(k.Instructions),
		IssueBound:                  k.IssueBound(),
		StartupBound:                k.StartupBound(),
		KernelSpreadL1:              k.Spread.L1,
		KernelSpreadIssue:           k.Spread.Issue,
		KernelSpreadWaves:           k.Spread.Waves,
		KernelUnsized:               k.Unsized,
		KernelLoadsPerWarp:          k.LoadsPerWarp,
		ExcessDRAMSectors:           excess.DRAM,
		ExcessL1Wavefronts:          excess.L1,
	}
	if asIs > 0 {
		imp.Share = round(1 - fixed/asIs)
	}
	if fixed > 0 {
		imp.EstimatedSpeedup = math.Max(round(asIs/fixed), 1)
	}
	return imp
}

// clamp rounds a count for the output, at most the largest int64: sizes
// assumed large in nested loops reach 10^19 bytes.
func clamp(x float64) int64 {
	if x >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(math.Round(x))
}

// Combined is the impact of fixing several findings of one cause
// at once (the fields of a struct, one stride, one line): their excess
// counts together against their kernel. Impacts of another kernel or
// launch than the first's are left out; nil when the first has none.
func Combined(imps []*lint.Impact) *lint.Impact {
	if len(imps) == 0 || imps[0] == nil {
		return nil
	}
	first := imps[0]
	k := KernelCost{Sectors: float64(first.KernelSectorsPerLaunch), Wavefronts: float64(first.KernelWavefrontsPerLaunch),
		DRAM: first.KernelDRAMSectors, L1: first.KernelL1Wavefronts, Instructions: first.KernelInstructions,
		Spread: Spread{first.KernelSpreadL1, first.KernelSpreadIssue, first.KernelSpreadWaves}, LoadsPerWarp: first.KernelLoadsPerWarp,
		Unsized: first.KernelUnsized}
	var excess Excess
	assumed := false
	for _, imp := range imps {
		if imp == nil || imp.KernelDRAMSectors != first.KernelDRAMSectors || imp.KernelL1Wavefronts != first.KernelL1Wavefronts ||
			imp.KernelSectorsPerLaunch != first.KernelSectorsPerLaunch || imp.KernelWavefrontsPerLaunch != first.KernelWavefrontsPerLaunch {
			continue
		}
		excess.Sectors += imp.ExcessBytesPerLaunch / warp.SectorBytes
		excess.Wavefronts += float64(imp.ExcessWavefrontsPerLaunch)
		excess.DRAM += imp.ExcessDRAMSectors
		excess.L1 += imp.ExcessL1Wavefronts
		assumed = assumed || imp.Assumed
	}
	imp := New(k, excess, assumed)
	imp.Longer = combinedLonger(imps)
	if l := first.Launcher; l != nil {
		imp.Launcher = &lint.Launcher{Function: l.Function, Part: l.Part, Share: round(imp.Share * l.Part), Heaviest: l.Heaviest}
	}
	return &imp
}

// combinedLonger is Combined for the second pricing (longer.go): the
// first's kernel with the excess of every impact of that kernel summed,
// when each was priced with the same loops run longer. A cause with an
// access inside one of those loops grows with it: it has no such
// pricing (nil), nor has a cause whose accesses were priced with
// different loops run longer.
func combinedLonger(imps []*lint.Impact) *lint.Longer {
	first := imps[0].Longer
	if first == nil {
		return nil
	}
	k := KernelCost{DRAM: first.KernelDRAMSectors, L1: first.KernelL1Wavefronts, Instructions: first.KernelInstructions}
	var excess Excess
	for _, imp := range imps {
		if imp == nil || imp.KernelDRAMSectors != imps[0].KernelDRAMSectors || imp.KernelL1Wavefronts != imps[0].KernelL1Wavefronts {
			continue // another kernel or launch: left out, as in Combined
		}
		if imp.Longer == nil || !slices.Equal(imp.Longer.Scaled, first.Scaled) {
			return nil
		}
		excess.DRAM += imp.Longer.ExcessDRAMSectors
		excess.L1 += imp.Longer.ExcessL1Wavefronts
	}
	l := *first
	priced := New(k, excess, true)
	l.Share, l.EstimatedSpeedup, l.ExcessDRAMSectors, l.ExcessL1Wavefronts = priced.Share, priced.EstimatedSpeedup, excess.DRAM, excess.L1
	return &l
}

// MinShare is the least share of its kernel's time a finding's
// fix must save to be a warning (docs/severity.md): below it the waste is
// real but not worth a change, such as a store run once per thread
// beside a loop of loads.
const MinShare = 0.05

// ShareSeverity applies the share rule to a severity its rule gave by
// cost: a warning whose fix would save less than MinShare of its
// kernel's time is info. A finding without an impact, and any
// other severity (an error is a fault, whatever it costs), stay.
func ShareSeverity(s lint.Severity, imp *lint.Impact) lint.Severity {
	if s == lint.Warning && SmallShare(imp) {
		return lint.Info
	}
	return s
}

// SmallShare: the fix would save less than MinShare of the kernel's
// time, as priced or with the kernel's other loops of unknown trip
// count run longer (longer.go).
func SmallShare(imp *lint.Impact) bool {
	return imp != nil && (imp.Share < MinShare || smallWhenLonger(imp) || smallBeside(imp))
}

// smallBeside: the share reaches MinShare of the kernel's time but not
// of the launches its host function runs with it (launcher.go).
func smallBeside(imp *lint.Impact) bool {
	return imp.Launcher != nil && imp.Share >= MinShare && imp.Launcher.Share < MinShare
}

// smallWhenLonger: the share reaches MinShare only while the kernel's
// loops of unknown trip count around other code stay short.
func smallWhenLonger(imp *lint.Impact) bool {
	return imp.Longer != nil && imp.Share >= MinShare && imp.Longer.Share < MinShare
}

// Text is the message's part about the kernel: "fixing it: up to
// 4.3x for this kernel (77% of its time)", with "which its instructions
// bound" when issuing them outlasts its memory traffic, "at the assumed
// sizes" when the figures rest on them, and for a finding the share rule
// made info, that the share is under what a warning needs. A folded
// finding is one cause: "it" is the cause, its accesses fixed together.
func Text(imp *lint.Impact, demoted bool) string {
	s := fmt.Sprintf("fixing it: up to %sx for this kernel (%s of its time", SpeedupText(imp.EstimatedSpeedup), percentText(imp.Share))
	if imp.EstimatedSpeedup < 1.005 {
		// "up to 1x" reads as no gain at all; the waste is never nothing.
		s = fmt.Sprintf("fixing it: under 1.01x for this kernel (%s of its time", percentText(imp.Share))
	}
	if imp.IssueBound {
		s += ", which its instructions bound, not its memory"
	}
	switch {
	case demoted && smallWhenLonger(imp):
		l := imp.Longer
		s += fmt.Sprintf(" at %d iterations of the loop at %s:%d, whose trip count the code does not give; %s at %d, under the %.0f%% a warning needs",
			l.Trips, filepath.Base(l.Loop.File), l.Loop.Line, percentText(l.Share), l.Trips*l.Factor, 100*MinShare)
	case demoted && smallBeside(imp):
		l := imp.Launcher
		s += fmt.Sprintf("; %s of the time of the kernels %s launches with it, most of it %s's, under the %.0f%% a warning needs",
			percentText(l.Share), l.Function, l.Heaviest, 100*MinShare)
	case demoted && imp.StartupBound:
		s += fmt.Sprintf(", under the %.0f%% a warning needs: a launch this small spends most of its time starting, %.1f us, which no fix shortens", 100*MinShare, LaunchSeconds*1e6)
	case demoted:
		s += fmt.Sprintf(", under the %.0f%% a warning needs", 100*MinShare)
	}
	if imp.Assumed {
		s += ", at the assumed sizes"
	}
	return s + ")"
}

// SpeedupText writes a speedup with the digits that tell it from 1: 1.02,
// 1.5, 4.3.
func SpeedupText(x float64) string {
	if x < 1.1 {
		return wording.Trim(x)
	}
	return wording.Trim(math.Round(x*10) / 10)
}

// percentText writes a share as a percentage, below 1% as "under 1%"
// (a finding's waste is never nothing, even where it rounds to it).
func percentText(share float64) string {
	if share < 0.005 {
		return "under 1%"
	}
	if share < MinShare && share >= MinShare-0.005 {
		return fmt.Sprintf("%.1f%%", 100*share) // not "5% ..., under the 5% a warning needs"
	}
	return fmt.Sprintf("%.0f%%", 100*share)
}

func round(x float64) float64 { return math.Round(x*1000) / 1000 }
