package launch

import (
	"fmt"
	"github.com/cudalint/cudalint/analyzer/interp"
	"slices"
)

// supersede drops the launches a host function makes when interpreted
// on its own, with unknown parameters, where another host function calls
// it and so reaches the same launch with the values it gives (main sets
// C = 768 and calls layernorm(..., C), which launches); and launches
// identical to one already kept (a launch in a host loop that runs it
// with the same values each time).
func supersede(all []*Site) []*Site {
	called := map[string]map[string]bool{} // launch position -> host functions inlined to reach it
	for _, l := range all {
		key := l.Pos.String()
		for _, name := range l.Via[min(1, len(l.Via)):] {
			if called[key] == nil {
				called[key] = map[string]bool{}
			}
			called[key][name] = true
		}
	}
	var out []*Site
	seen := map[string]bool{}
	for _, l := range all {
		if len(l.Via) > 0 && called[l.Pos.String()][l.Via[0]] {
			continue
		}
		key := fmt.Sprint(l.Pos, l.Kernel, l.Grid, l.Block, args(l.Args), l.Instance(), targs(l))
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, l)
	}
	return slices.Clip(out)
}

func args(as []interp.Arg) string {
	s := ""
	for _, a := range as {
		s += fmt.Sprint(a.Int, "/", a.Offset, ";")
	}
	return s
}

func targs(l *Site) string {
	s := ""
	for _, a := range l.Targs {
		if a != nil {
			s += fmt.Sprint(a.Int, ";")
		} else {
			s += "_;"
		}
	}
	return s
}
