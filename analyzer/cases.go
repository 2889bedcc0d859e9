package analyzer

import (
	"crypto/sha256"
	"reflect"
	"strings"
	"sync"

	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/internal/deepkey"
)

// Instances of a kernel template often interpret alike: apex's group_norm
// has 2,340 (instance, launch configuration) pairs and 260 distinct ones,
// template arguments that change no address, guard or loop. The warp
// model is a function of a kernel's accesses, its parameters and the
// launch configuration alone, so such instances share their predictions
// (issue 21: predict once per distinct case): a kernel whose accesses
// are, field by field, those of one already predicted under an equal
// configuration takes that one's predictions, each pointing at its own
// accesses.

// cases keeps the predictions of the kernels analyzed last, by their
// accesses' content and the configuration. It is bounded: instances of a
// kernel are analyzed one after another (kernelJobs), and a run that
// streams its parts must not keep every part's accesses.
type cases struct {
	mu      sync.Mutex
	entries map[string]*caseEntry
	order   []string // oldest first
}

// maxCases is how many (kernel content, configuration) entries cases
// keeps.
const maxCases = 256

type caseEntry struct {
	accesses []*interp.Access
	preds    []*Prediction
}

func newCases() *cases { return &cases{entries: map[string]*caseEntry{}} }

// contentKey is the key of what kernel k's predictions read of it: every
// field of its accesses (expressions, guards, loops, types, positions)
// and the parameters no launch gives, parsed items by identity; kept as
// its SHA-256, the whole running to tens of kilobytes a kernel.
func contentKey(k *Kernel) string {
	var b strings.Builder
	deepkey.Write(&b, reflect.ValueOf(k.Accesses), isParsedItem)
	b.WriteByte('|')
	deepkey.Write(&b, reflect.ValueOf(k.params), isParsedItem)
	sum := sha256.Sum256([]byte(b.String()))
	return string(sum[:])
}

// predictions are k's under cfg: those of a kernel alike, from the
// cases, else computed and kept. content is contentKey(k), "" to bypass.
func (c *cases) predictions(k *Kernel, content string, cfg *LaunchConfig, compute func() []*Prediction) []*Prediction {
	if c == nil || content == "" {
		return compute()
	}
	key := content + "#" + configKey(cfg)
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok && len(e.accesses) == len(k.Accesses) {
		if ps, ok := remapPredictions(e, k.Accesses, cfg); ok {
			return ps
		}
	}
	ps := compute()
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[key]; !ok {
		c.entries[key] = &caseEntry{accesses: k.Accesses, preds: ps}
		c.order = append(c.order, key)
		if len(c.order) > maxCases {
			delete(c.entries, c.order[0])
			c.order = c.order[1:]
		}
	}
	return ps
}

// remapPredictions copies e's predictions for a kernel whose accesses are
// accesses, alike one for one with e's: each names its own access (and
// the accesses an instruction merges) and cfg; ok is false should one
// name an access that is not e's.
func remapPredictions(e *caseEntry, accesses []*interp.Access, cfg *LaunchConfig) ([]*Prediction, bool) {
	own := make(map[*interp.Access]*interp.Access, len(accesses))
	for i, a := range e.accesses {
		own[a] = accesses[i]
	}
	out := make([]*Prediction, len(e.preds))
	for i, p := range e.preds {
		q := *p
		q.Access, q.Config = own[p.Access], cfg
		if q.Access == nil {
			return nil, false
		}
		if m := p.Merged; m != nil {
			r := *m
			r.With = make([]*interp.Access, len(m.With))
			for j, w := range m.With {
				if r.With[j] = own[w]; r.With[j] == nil {
					return nil, false
				}
			}
			if m.Into != nil {
				if r.Into = own[m.Into]; r.Into == nil {
					return nil, false
				}
			}
			q.Merged = &r
		}
		out[i] = &q
	}
	return out, true
}
