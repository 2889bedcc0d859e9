package accesses

import (
	"slices"
	"sort"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/warp"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/symbolic"
)

// Record is a record each thread reads or writes whole: loads (or
// stores) of one allocation at one lane stride, under the same guards and
// loops, at constant distances inside one lane's |stride| bytes, whose
// bytes together leave no gap of a sector between one lane's and the
// next's (faces[3*f + j] over int64 ids; the nine floats of a face's
// three vertices, 36 bytes a face; out[3*i + c] for c = 0, 1, 2). Each
// request touches sectors it does not use, but the thread's others use
// them: the L1 (for loads) or the L2 (for stores, merging the writes)
// serves the rest, and DRAM moves each sector once. Measured on an H200
// (record and triple of testdata/truth/timing): within 1% of the twin
// that reads and writes the same fields as planes.
type Record struct {
	// Lead is the access at the record's lowest address: its request
	// touches, with the others, every sector of the warp's span, and the
	// figures count DRAM's traffic on it.
	Lead *analyzer.Prediction
	// Bytes is the record's size, one lane's |stride|.
	Bytes int64
	// Accesses is how many of the thread's accesses make it up.
	Accesses int
	// Members are those accesses, the lead first.
	Members []*analyzer.Prediction
	// Instructions is how many memory instructions of the thread write or
	// read it: a float3 stored whole through a cast is one access of
	// three 4-byte pieces.
	Instructions int
	// Unmerged is the part of its stores' excess sectors that the L2
	// takes apart, 0 to 1: each request of a record's stores touches every
	// sector of the warp's span, and the SM merges the thread's later
	// stores into them only while the span is small. Measured on an H200
	// (raw12.csv: L2 write sectors over the planar twin's, and time):
	// stores of 8, 12 and 16 bytes a lane 1.01x-1.04x (f2store, triple,
	// st4), 20 bytes 1.47x (time 1.14x), 24 bytes 2.80x (2.39x), 28 bytes
	// 4.80x (4.25x), 32 bytes 6.36x (6.23x) of an ideal 8x. So none up to
	// 16 bytes a lane, all from 32, and in between the part the record's
	// bytes past 16 are of 16 (recordUnmerged). 0 for loads: the L1
	// serves a record's loads whole at any size (record, ld8, v8load).
	// 1 where the thread loads from the record between its stores
	// (Interleaved).
	Unmerged float64
	// Interleaved: the thread reads the record's array between its
	// stores (a pixel read, blended and written back piece by piece):
	// the SM merges none of the stores. Measured: texture_2d's pixel, two
	// fields read and four written in scalar pieces, 4.1x its float4
	// twin (the rmw pair of testdata/truth/timing), where four stores
	// alone run 1.00x (st4).
	Interleaved bool
}

// Merged: the L2 (stores) or the L1 (loads) serves the record at its
// ideal, its requests' excess costing no time.
func (r *Record) Merged() bool { return r.Unmerged == 0 }

// recordUnmerged is Record.Unmerged for stores of a record of the given
// bytes a lane.
func recordUnmerged(bytes int64) float64 {
	const merged, apart = 16, warp.SectorBytes
	return min(1, max(0, float64(bytes-merged)/float64(apart-merged)))
}

// Record is the record p belongs to, nil when none.
func (r *Result) Record(p *analyzer.Prediction) *Record { return r.records[p] }

// findRecords marks the records among one kernel's predictions.
func findRecords(kernel []*analyzer.Prediction, reused map[*analyzer.Prediction]*analyzer.Prediction, out map[*analyzer.Prediction]*Record) {
	type group struct {
		config *analyzer.LaunchConfig
		base   interp.Alloc
		stride int64
		op     interp.Op
	}
	byGroup := map[group][]*analyzer.Prediction{}
	var order []group
	for _, p := range kernel {
		a := p.Access
		if reused[p] != nil || !p.Known || p.NoLane || p.LaneStride == nil || a.Space != interp.Global || a.Type == nil || (a.Op != interp.Load && a.Op != interp.Store) {
			continue
		}
		g := group{p.Config, a.Base, *p.LaneStride, a.Op}
		if byGroup[g] == nil {
			order = append(order, g)
		}
		byGroup[g] = append(byGroup[g], p)
	}
	loads := map[loadKey][]parser.Pos{} // where each array is loaded
	for _, p := range kernel {
		if a := p.Access; a.Op == interp.Load && a.Space == interp.Global {
			k := loadKey{p.Config, a.Base}
			loads[k] = append(loads[k], a.Pos)
		}
	}
	for _, g := range order {
		before := len(out)
		recordsOf(byGroup[g], g.stride, out)
		if g.op == interp.Store && len(out) > before {
			markInterleaved(byGroup[g], out, loads[loadKey{g.config, g.base}])
		}
	}
}

// loadKey names one array's loads under one launch configuration.
type loadKey struct {
	config *analyzer.LaunchConfig
	base   interp.Alloc
}

// markInterleaved makes the store records among members whose array the
// thread loads between the records' first and last store (in the
// source's order, which straight-line code runs in) unmerged.
func markInterleaved(members []*analyzer.Prediction, out map[*analyzer.Prediction]*Record, loads []parser.Pos) {
	seen := map[*Record]bool{}
	for _, p := range members {
		rec := out[p]
		if rec == nil || seen[rec] {
			continue
		}
		seen[rec] = true
		first, last := rec.Members[0].Access.Pos, rec.Members[0].Access.Pos
		for _, q := range rec.Members[1:] {
			if at := q.Access.Pos; at.Before(first) {
				first = at
			} else if last.Before(at) {
				last = at
			}
		}
		for _, at := range loads {
			if at.File == first.File && first.Before(at) && at.Before(last) {
				rec.Interleaved, rec.Unmerged = true, 1
				break
			}
		}
	}
}

// recordsOf finds the records among members, accesses of one group.
// A lead's record takes the accesses under its own conditions and, where
// the thread's code branches on a value every thread of the launch holds
// alike (texture_cube's face % 2), those of both arms: each arm must
// complete the record with the lead's own, for either arm may be the one
// that runs. Leads are tried by how few guards they stand under, so that
// the access both arms follow leads them.
func recordsOf(members []*analyzer.Prediction, stride int64, out map[*analyzer.Prediction]*Record) {
	span := Abs(stride)
	leads := slices.Clone(members)
	slices.SortStableFunc(leads, func(a, b *analyzer.Prediction) int { return len(a.Access.Guards) - len(b.Access.Guards) })
	for _, lead := range leads {
		if out[lead] != nil {
			continue
		}
		pieces := instructionPieces(lead, 0)
		arms := map[string]*armPieces{}
		for _, q := range members {
			if q == lead || out[q] != nil {
				continue
			}
			d, ok := distance(lead, q)
			if !ok || d <= -span || d >= span {
				continue
			}
			g := uniformArm(lead.Access, q.Access)
			if lead.Access.SameConditions(q.Access) || g != nil && holds(g, lead.Config) {
				pieces = append(pieces, instructionPieces(q, d)...)
			} else if g != nil {
				k := symbolic.Key(g)
				if arms[k] == nil {
					arms[k] = &armPieces{cond: g}
				}
				arms[k].pieces = append(arms[k].pieces, instructionPieces(q, d)...)
			}
		}
		both := complementary(arms)
		instructions := len(pieces) + max(len(both[0]), len(both[1]))
		if instructions < 2 || !covers(pieces, both, span) {
			continue // one instruction, nothing to merge; or no whole record
		}
		all := sortedPieces(append(append(slices.Clone(pieces), both[0]...), both[1]...))
		rec := &Record{Lead: all[0].p, Bytes: span, Instructions: instructions}
		if lead.Access.Op == interp.Store {
			rec.Unmerged = recordUnmerged(span)
		}
		for _, pc := range all {
			if out[pc.p] == nil {
				out[pc.p] = rec
				rec.Members = append(rec.Members, pc.p)
			}
		}
		rec.Accesses = distinctAccesses(pieces) + max(distinctAccesses(both[0]), distinctAccesses(both[1]))
	}
}

// distinctAccesses is how many accesses pieces come from.
func distinctAccesses(pieces []recordPiece) int {
	seen := map[*analyzer.Prediction]bool{}
	for _, pc := range pieces {
		seen[pc.p] = true
	}
	return len(seen)
}

// covers: the lead's pieces make a whole record, or with arms, each arm's
// do with them.
func covers(pieces []recordPiece, arms [2][]recordPiece, span int64) bool {
	if len(arms[0]) == 0 {
		return whole(pieces, span)
	}
	return whole(append(slices.Clone(pieces), arms[0]...), span) && whole(append(slices.Clone(pieces), arms[1]...), span)
}

// whole: pieces stay inside one lane's span and leave no gap of a sector
// between one lane's bytes and the next's.
func whole(pieces []recordPiece, span int64) bool {
	if len(pieces) == 0 {
		return false
	}
	pieces = sortedPieces(pieces)
	if pieces[len(pieces)-1].end-pieces[0].off > span {
		return false // the accesses reach past one lane's record
	}
	covered, gap := pieces[0].off, int64(0)
	for _, pc := range pieces {
		gap = max(gap, pc.off-covered)
		covered = max(covered, pc.end)
	}
	gap = max(gap, pieces[0].off+span-covered) // to the next lane's first byte
	return gap < warp.SectorBytes
}

func sortedPieces(pieces []recordPiece) []recordPiece {
	sort.SliceStable(pieces, func(i, j int) bool { return pieces[i].off < pieces[j].off })
	return pieces
}

// armPieces are the pieces of a record one arm of a branch writes or
// reads, and the arm's condition.
type armPieces struct {
	cond   symbolic.Expr
	pieces []recordPiece
}

// complementary are the pieces of the two arms of one branch, when arms
// holds exactly those (an if's condition and its negation); else none:
// a thread runs exactly one of the two.
func complementary(arms map[string]*armPieces) [2][]recordPiece {
	if len(arms) != 2 {
		return [2][]recordPiece{}
	}
	var two []*armPieces
	for _, a := range arms {
		two = append(two, a)
	}
	if symbolic.Key(symbolic.Not(two[0].cond)) != symbolic.Key(two[1].cond) && symbolic.Key(symbolic.Not(two[1].cond)) != symbolic.Key(two[0].cond) {
		return [2][]recordPiece{}
	}
	return [2][]recordPiece{two[0].pieces, two[1].pieces}
}

// distance is how many bytes q's address lies past lead's, when the
// launch configuration fixes it (pixel[face / 2] beside pixel[0], the
// launch giving face).
func distance(lead, q *analyzer.Prediction) (int64, bool) {
	diff := symbolic.Sub(q.Access.Addr, lead.Access.Addr)
	if d, ok := symbolic.IsConst(diff); ok {
		return d, true
	}
	return symbolic.Eval(diff, lead.Config.Values())
}

// holds: guard g is true under every warp of the launch configuration
// (texture_cube launched once per face, face % 2 given by each launch).
func holds(g symbolic.Expr, c *analyzer.LaunchConfig) bool {
	v, ok := symbolic.Eval(g, c.Values())
	return ok && v != 0
}

// uniformArm is the guard access b stands under past a's when b's
// conditions are a's and that one guard more, on a value every lane of
// a warp holds alike, in the same loops; else nil. (Each warp runs one
// arm of such a branch whole, so the record's requests are one arm's.)
func uniformArm(a, b *interp.Access) symbolic.Expr {
	if len(b.Guards) != len(a.Guards)+1 {
		return nil
	}
	shorter := *b
	shorter.Guards = b.Guards[:len(a.Guards)]
	if !a.SameConditions(&shorter) {
		return nil
	}
	if g := b.Guards[len(a.Guards)]; symbolic.ClassOf(g) == symbolic.Uniform {
		return g
	}
	return nil
}

// recordPiece is one instruction's bytes of a record, at offsets from
// the lead's address.
type recordPiece struct {
	p        *analyzer.Prediction
	off, end int64
}

// instructionPieces are the instructions access p is made of (a 12-byte
// float3 copy is three 4-byte ones: ctype.Pieces), at distance d from the
// lead's address.
func instructionPieces(p *analyzer.Prediction, d int64) []recordPiece {
	var out []recordPiece
	for _, pc := range ctype.Pieces(p.Access.Type) {
		out = append(out, recordPiece{p, d + pc[0], d + pc[0] + pc[1]})
	}
	return out
}
