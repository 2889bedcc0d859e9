package warp

import (
	"fmt"
	"strconv"
	"strings"
)

// The words for Unrolled, made at the output edge.

// Differ reports whether the copies cost differently (so that the
// average hides something).
func (u *Unrolled) Differ() bool {
	for _, c := range u.Copies[1:] {
		if u.cost(c) != u.cost(u.Copies[0]) {
			return true
		}
	}
	return false
}

// cost is a copy's figure as written.
func (u *Unrolled) cost(c UnrolledCopy) string {
	switch {
	case c.NoLane:
		return "none"
	case !c.Known:
		return "unknown"
	}
	return figure(c.Sectors)
}

// figure writes a number with at most two decimals and no trailing zeros.
func figure(x float64) string {
	s := strconv.FormatFloat(x, 'f', 2, 64)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

// Describe says what each copy costs, unit being "sectors" or
// "wavefronts": "iterations cost 4, 5, 5, 5 sectors (r = 0: 4; r =
// 1..3: 5)", or, past 8 copies, grouped by cost: "iterations cost 4
// sectors (r = 0, 8, 16, 24) and 5 (the other 28)". Empty when every copy
// costs the same.
func (u *Unrolled) Describe(unit string) string {
	if len(u.Copies) < 2 || !u.Differ() {
		return ""
	}
	subject := "iterations"
	if u.partial() {
		subject = fmt.Sprintf("the %d unrolled copies", len(u.Copies))
	}
	if len(u.Copies) <= 8 {
		costs := make([]string, len(u.Copies))
		for i, c := range u.Copies {
			costs[i] = u.cost(c)
		}
		var runs []string
		for i := 0; i < len(u.Copies); {
			j := i
			for j+1 < len(u.Copies) && costs[j+1] == costs[i] {
				j++
			}
			runs = append(runs, u.label(i, j)+": "+costs[i])
			i = j + 1
		}
		return fmt.Sprintf("%s cost %s %s (%s)", subject, strings.Join(costs, ", "), unit, strings.Join(runs, "; "))
	}
	return subject + " cost " + u.grouped(unit)
}

// partial reports whether some loop runs several iterations per copy.
func (u *Unrolled) partial() bool {
	for _, l := range u.Loops {
		if l.Copies < l.Trip {
			return true
		}
	}
	return false
}

// grouped writes the costs of many copies by cost, in the order the costs
// first appear; the largest group last, as "the other N".
func (u *Unrolled) grouped(unit string) string {
	var order []string
	members := map[string][]int{}
	for i, c := range u.Copies {
		k := u.cost(c)
		if _, ok := members[k]; !ok {
			order = append(order, k)
		}
		members[k] = append(members[k], i)
	}
	largest := order[0]
	for _, k := range order {
		if len(members[k]) > len(members[largest]) {
			largest = k
		}
	}
	var parts []string
	for _, k := range order {
		if k == largest {
			continue
		}
		parts = append(parts, k+" ("+u.labels(members[k])+")")
	}
	parts = append(parts, fmt.Sprintf("%s (the other %d)", largest, len(members[largest])))
	parts[0] = strings.Replace(parts[0], " (", " "+unit+" (", 1)
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// label names copies i..j, a run in iteration order.
func (u *Unrolled) label(i, j int) string {
	if i == j {
		return u.labels([]int{i})
	}
	if names, ok := u.tupleNames(); ok {
		return names + " = " + u.tuple(i) + ".." + u.tuple(j)
	}
	idx := make([]int, 0, j-i+1)
	for k := i; k <= j; k++ {
		idx = append(idx, k)
	}
	return u.labels(idx)
}

// labels names a set of copies: by the loop variable's values (r = 0,
// 8, 16; r = 1..3) for one fully unrolled loop, else copy by copy.
func (u *Unrolled) labels(idx []int) string {
	if len(u.Loops) == 1 && !u.partial() && u.Loops[0].Var != "" {
		l := u.Loops[0]
		vals := make([]int64, len(idx))
		for k, i := range idx {
			vals[k] = l.Start + l.Step*u.Copies[i].First[0]
		}
		return l.Var + " = " + valueRuns(vals, l.Step)
	}
	const most = 6
	names, tuples := u.tupleNames()
	var out []string
	for k, i := range idx {
		if k == most {
			out = append(out, fmt.Sprintf("%d more", len(idx)-most))
			break
		}
		if tuples {
			out = append(out, u.tuple(i))
		} else {
			out = append(out, u.copyLabel(i))
		}
	}
	if tuples {
		return names + " = " + strings.Join(out, ", ")
	}
	return strings.Join(out, "; ")
}

// tupleNames is "(r, c)" for fully unrolled nested loops whose variables
// are all followed: their copies are named by tuples of values.
func (u *Unrolled) tupleNames() (string, bool) {
	if len(u.Loops) < 2 || u.partial() {
		return "", false
	}
	var names []string
	for _, l := range u.Loops {
		if l.Var == "" {
			return "", false
		}
		names = append(names, l.Var)
	}
	return "(" + strings.Join(names, ", ") + ")", true
}

// tuple is copy i's loop variables: "(0, 3)".
func (u *Unrolled) tuple(i int) string {
	var vals []string
	for k, l := range u.Loops {
		vals = append(vals, strconv.FormatInt(l.Start+l.Step*u.Copies[i].First[k], 10))
	}
	return "(" + strings.Join(vals, ", ") + ")"
}

// copyLabel names one copy by the iterations it runs of each loop: "r =
// 0, c = 2", or for a partly unrolled loop "r = 0, 2, 4, 6".
func (u *Unrolled) copyLabel(i int) string {
	var parts []string
	for k, l := range u.Loops {
		first := u.Copies[i].First[k]
		name, val := l.Var, func(t int64) int64 { return l.Start + l.Step*t }
		if name == "" {
			name, val = fmt.Sprintf("iteration of the loop at line %d", l.Line), func(t int64) int64 { return t }
		}
		var vals []string
		n := (l.Trip - first + l.Copies - 1) / l.Copies // iterations this copy runs
		for t := int64(0); t < n; t++ {
			if n > 4 && t == 2 {
				vals = append(vals, "...")
				t = n - 1
			}
			vals = append(vals, strconv.FormatInt(val(first+t*l.Copies), 10))
		}
		parts = append(parts, name+" = "+strings.Join(vals, ", "))
	}
	return strings.Join(parts, ", ")
}

// valueRuns writes values that step by step as runs: 1..3, 5, 9..15.
func valueRuns(vals []int64, step int64) string {
	var out []string
	for i := 0; i < len(vals); {
		j := i
		for j+1 < len(vals) && vals[j+1] == vals[j]+step && (step == 1 || step == -1) {
			j++
		}
		if j > i {
			out = append(out, fmt.Sprintf("%d..%d", vals[i], vals[j]))
		} else {
			out = append(out, strconv.FormatInt(vals[i], 10))
		}
		i = j + 1
	}
	return strings.Join(out, ", ")
}
