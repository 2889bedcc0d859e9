package analyzer

import (
	"sync"
	"sync/atomic"

	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/analyzer/warp"
	"github.com/cudalint/cudalint/internal/par"
	"github.com/cudalint/cudalint/parser"
)

// What a whole-program Result holds grows with the input: every kernel's
// accesses and every prediction (on kernel-dense code about twice the
// syntax trees). A caller that needs only what it derives from them (the
// command's findings) analyzes in parts instead: each part is handed over
// once its kernels are analyzed, and dropped when the caller is done with
// it, so what is held at once is a few parts, not the program.
const (
	// partJobs is about how many kernels (instances) make a part: enough
	// that a part's fixed costs (the rules' passes) stay small, few
	// enough that a part's predictions are a small share of a large run.
	partJobs = 64
	// partsAhead is how many parts the workers may analyze past the one
	// being handed over: the cores stay busy while it is, and no more is
	// held than that.
	partsAhead = 2
)

// AnalyzeEach analyzes files as Analyze does, handing the result over in
// parts, in order, to each: a part's Result has the program, the part's
// kernels, their predictions (sorted by position, as Analyze sorts them)
// and internal errors. A kernel's instances are never split between
// parts. The Result returned holds the program, every kernel and every
// internal error, and no predictions; its kernels keep no accesses once
// their part was handed over (what each derived from them is the
// caller's).
func AnalyzeEach(files []*parser.File, opts Options, each func(part *Result)) *Result {
	return analyzeEach(files, opts, partJobs, each)
}

// analyzeEach is AnalyzeEach with parts of about size jobs.
func analyzeEach(files []*parser.File, opts Options, size int, each func(part *Result)) *Result {
	memo := opts.Memo.begin(files)
	prog := launch.NewProgramIn(files, memo.hostIndex())
	jobs := kernelJobs(files, prog, memo)
	parts := splitParts(jobs, size)
	s := newStream(parts.count())
	done := make([]jobResult, len(jobs))
	lanes := &warp.Lanes{}
	cs := newCases()
	analyzed := make(chan struct{})
	go func() {
		defer close(analyzed)
		par.Each(len(jobs), func(i int) {
			p := parts.of(i)
			s.waitTurn(p)
			done[i] = jobs[i].analyze(prog, opts, memo, lanes, cs)
			from, to := parts.bounds(p)
			s.finished(p, to-from)
		})
	}()
	// Should each panic, the workers must not wait for a turn that never
	// comes: released, they finish the jobs left and nothing is handed over.
	defer s.release()
	whole := &Result{Program: prog}
	for p := range parts.count() {
		s.waitDone(p)
		from, to := parts.bounds(p)
		part := &Result{Program: prog}
		part.add(done[from:to])
		each(part)
		for i := from; i < to; i++ {
			d := done[i]
			d.kernel.Accesses = nil
			whole.Kernels = append(whole.Kernels, d.kernel)
			whole.InternalErrors = append(whole.InternalErrors, d.errs...)
			done[i] = jobResult{}
		}
		s.handedOver()
	}
	<-analyzed
	memo.end()
	return whole
}

// parts are the jobs cut into parts: starts holds the first job of each.
type parts struct {
	starts []int
	jobs   int
}

// splitParts cuts jobs into parts of about size jobs, never between two
// instances of one kernel: the rules read a kernel's predictions together.
func splitParts(jobs []job, size int) parts {
	ps := parts{jobs: len(jobs)}
	for i := range jobs {
		if len(ps.starts) == 0 || i-ps.starts[len(ps.starts)-1] >= size && jobs[i].fn != jobs[i-1].fn {
			ps.starts = append(ps.starts, i)
		}
	}
	return ps
}

func (ps parts) count() int { return len(ps.starts) }

// bounds are part p's jobs, from and to (excluded).
func (ps parts) bounds(p int) (from, to int) {
	to = ps.jobs
	if p+1 < len(ps.starts) {
		to = ps.starts[p+1]
	}
	return ps.starts[p], to
}

// of is the part of job i.
func (ps parts) of(i int) int {
	lo, hi := 0, len(ps.starts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if ps.starts[mid] <= i {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// stream paces the workers by the consumer: a worker starts a job of part
// p only once p is within partsAhead of the part being handed over.
// Workers take jobs in order, so every job of that part has been taken
// before any job that waits: the consumer always gets its part.
type stream struct {
	mu     sync.Mutex
	turn   *sync.Cond
	handed int // parts handed over
	left   []atomic.Int64
	done   []chan struct{}
}

func newStream(parts int) *stream {
	s := &stream{left: make([]atomic.Int64, parts), done: make([]chan struct{}, parts)}
	s.turn = sync.NewCond(&s.mu)
	for p := range s.done {
		s.done[p] = make(chan struct{})
	}
	return s
}

func (s *stream) waitTurn(p int) {
	s.mu.Lock()
	for p > s.handed+partsAhead {
		s.turn.Wait()
	}
	s.mu.Unlock()
}

// finished counts a job of part p done; size is the part's job count.
func (s *stream) finished(p, size int) {
	if s.left[p].Add(1) == int64(size) {
		close(s.done[p])
	}
}

func (s *stream) waitDone(p int) { <-s.done[p] }

func (s *stream) handedOver() {
	s.mu.Lock()
	s.handed++
	s.turn.Broadcast()
	s.mu.Unlock()
}

// release lets every worker run: no part is handed over any more.
func (s *stream) release() {
	s.mu.Lock()
	s.handed = len(s.done)
	s.turn.Broadcast()
	s.mu.Unlock()
}
