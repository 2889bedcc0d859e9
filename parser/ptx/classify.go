package ptx

import (
	"strings"
)

// typeSizes are the bytes of PTX's fundamental types.
var typeSizes = map[string]int64{
	"b8": 1, "u8": 1, "s8": 1,
	"b16": 2, "u16": 2, "s16": 2, "f16": 2, "bf16": 2,
	"b32": 4, "u32": 4, "s32": 4, "f32": 4, "f16x2": 4, "bf16x2": 4, "tf32": 4,
	"b64": 8, "u64": 8, "s64": 8, "f64": 8,
	"b128": 16,
}

// compute are the opcodes (their first part) that touch registers only,
// or synchronise without moving data the model counts.
var compute = map[string]bool{
	"mma": true, "add": true, "sub": true, "mul": true, "mad": true, "fma": true, "div": true,
	"rem": true, "abs": true, "neg": true, "min": true, "max": true, "and": true, "or": true,
	"xor": true, "not": true, "cnot": true, "shl": true, "shr": true, "shf": true, "cvt": true,
	"mov": true, "selp": true, "set": true, "slct": true, "prmt": true, "lop3": true, "bfe": true,
	"bfi": true, "brev": true, "popc": true, "clz": true, "bfind": true, "fns": true, "bmsk": true,
	"szext": true, "ex2": true, "lg2": true, "rcp": true, "rsqrt": true, "sqrt": true, "sin": true,
	"cos": true, "tanh": true, "copysign": true, "testp": true, "dp4a": true, "dp2a": true,
	"mul24": true, "mad24": true, "sad": true, "shfl": true, "vote": true, "match": true,
	"redux": true, "activemask": true, "bar": true, "barrier": true, "membar": true, "fence": true,
	"griddepcontrol": true, "nanosleep": true, "elect": true, "setmaxnreg": true, "movmatrix": true,
	"prefetch": true, "prefetchu": true, "createpolicy": true, "madc": true, "addc": true, "subc": true,
	"mad.lo": true, "mul.hi": true, "isspacep": true, "trap": true, "pmevent": true,
}

// asyncSync are cp.async's forms that only group or wait for copies.
var asyncSync = map[string]bool{"commit_group": true, "wait_group": true, "wait_all": true}

func classify(in *Instr) {
	parts := strings.Split(in.Opcode, ".")
	head := parts[0]
	unmodelled := func(why string) {
		in.Class, in.Why = Unmodelled, why
	}
	switch head {
	case "ld", "ldu", "st":
		in.memory(parts, head)
	case "atom", "red":
		in.atomic(parts)
	case "cp":
		switch {
		case len(parts) >= 3 && parts[1] == "async" && asyncSync[parts[2]]:
			in.Class = Compute
		case len(parts) >= 5 && parts[1] == "async" && (parts[2] == "ca" || parts[2] == "cg"):
			in.asyncCopy(parts)
		default:
			unmodelled(in.Opcode + " is not modelled")
		}
	case "ldmatrix", "stmatrix":
		in.matrix(parts, head)
	case "setp":
		in.setp(parts)
	case "mov":
		in.Class = Compute
		if len(in.Operands) == 2 && in.Operands[0].Kind == Ref && in.Operands[1].Kind == Reg && in.Operands[1].Name == "%laneid" {
			in.Class = LaneID
		}
		if in.copies() && (parts[len(parts)-1] == "u64" || parts[len(parts)-1] == "b64" || parts[len(parts)-1] == "s64") {
			in.Class = Move
		}
	case "cvta":
		// cvta.to.global.u64 %0, %1 and cvta.global.u64: a global
		// address, from the generic one or to it: the same place.
		sp, _ := space(parts)
		if sp != "global" || !in.copies() {
			unmodelled(in.Opcode + " is not modelled")
			return
		}
		in.Class = Move
	default:
		if compute[head] {
			in.Class = Compute
			return
		}
		unmodelled(in.Opcode + " is not modelled")
	}
	if in.Class == Compute {
		for _, o := range in.Operands {
			if o.Kind == Addr {
				unmodelled(in.Opcode + " with a memory operand is not modelled")
			}
		}
	}
}

// space reads the state space among an opcode's parts: "global",
// "shared", "" for none (generic), or ok false for one not modelled.
func space(parts []string) (string, bool) {
	sp := ""
	for _, p := range parts[1:] {
		switch p {
		case "global":
			sp = "global"
		case "shared", "shared::cta":
			sp = "shared"
		case "shared::cluster", "local", "param", "const", "tex":
			return p, false
		}
	}
	return sp, true
}

// width is the vector count times the element size among parts, or 0.
func width(parts []string) (int64, string) {
	vec, size, name := int64(1), int64(0), ""
	for _, p := range parts[1:] {
		switch p {
		case "v2":
			vec = 2
		case "v4":
			vec = 4
		case "v8":
			vec = 8
		}
		if s, ok := typeSizes[p]; ok {
			size, name = s, p
		}
	}
	return vec * size, name
}

func (in *Instr) memory(parts []string, head string) {
	sp, ok := space(parts)
	if !ok {
		in.Class, in.Why = Unmodelled, in.Opcode+": the ."+sp+" state space is not modelled"
		return
	}
	for _, p := range parts[1:] {
		if p == "async" || strings.HasPrefix(p, "mmio") {
			in.Class, in.Why = Unmodelled, in.Opcode+" is not modelled"
			return
		}
	}
	w, typ := width(parts)
	if w == 0 || w > 16 {
		in.Class, in.Why = Unmodelled, in.Opcode+": no type to size the access"
		if w > 16 {
			in.Why = in.Opcode + ": accesses wider than 16 bytes are not modelled"
		}
		return
	}
	in.Space, in.Width, in.Type = sp, w, typ
	addrAt := 1
	in.Class = Load
	if head == "st" {
		in.Class, addrAt = Store, 0
	}
	if len(in.Operands) < 2 || in.Operands[addrAt].Kind != Addr {
		in.Class, in.Why = Unmodelled, in.Opcode+": operands not understood"
		return
	}
	in.checkAddr()
}

// checkAddr makes an instruction whose address the asm computes in a
// register of its own unmodelled: the address is not an operand.
func (in *Instr) checkAddr() {
	for _, o := range in.Operands {
		if o.Kind == Addr && o.Index < 0 {
			in.Class, in.Why = Unmodelled, in.Opcode+": the address "+o.Name+" is computed inside the asm"
			return
		}
	}
}

func (in *Instr) atomic(parts []string) {
	sp, ok := space(parts)
	if !ok {
		in.Class, in.Why = Unmodelled, in.Opcode+": the ."+sp+" state space is not modelled"
		return
	}
	w, typ := width(parts)
	if w == 0 || w > 16 {
		in.Class, in.Why = Unmodelled, in.Opcode+": no type to size the access"
		return
	}
	in.Type = typ
	if _, ok := in.Addr(); !ok {
		in.Class, in.Why = Unmodelled, in.Opcode+": operands not understood"
		return
	}
	in.Class, in.Space, in.Width = Atomic, sp, w
	in.checkAddr()
}

// asyncCopy reads cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size{, src-size}{, policy}.
func (in *Instr) asyncCopy(parts []string) {
	shared, global := false, false
	for _, p := range parts[3:] {
		switch p {
		case "shared", "shared::cta":
			shared = true
		case "global":
			global = true
		case "shared::cluster":
			shared = false
		}
	}
	ops := in.Operands
	switch {
	case !shared || !global:
		in.Class, in.Why = Unmodelled, in.Opcode+" is not modelled"
	case len(ops) < 3 || ops[0].Kind != Addr || ops[1].Kind != Addr || (ops[2].Kind != Imm && ops[2].Kind != Ref):
		in.Class, in.Why = Unmodelled, in.Opcode+": operands not understood"
	default:
		in.Class, in.Space = AsyncCopy, "global"
		if ops[2].Kind == Imm {
			in.Width = ops[2].Value
		}
		in.checkAddr()
	}
}

// matrix reads {ld,st}matrix.sync.aligned.m8n8.x{1,2,4}{.trans}.shared{::cta}.b16.
func (in *Instr) matrix(parts []string, head string) {
	shape, n, b16 := false, 0, false
	sp, ok := space(parts)
	for _, p := range parts[1:] {
		switch p {
		case "m8n8":
			shape = true
		case "x1":
			n = 1
		case "x2":
			n = 2
		case "x4":
			n = 4
		case "b16":
			b16 = true
		}
	}
	addrAt := 1
	cls := LoadMatrix
	if head == "stmatrix" {
		addrAt, cls = 0, StoreMatrix
	}
	switch {
	case !ok || sp == "global" || !shape || n == 0 || !b16:
		in.Class, in.Why = Unmodelled, in.Opcode+" is not modelled (only the m8n8 .b16 shapes in shared memory are)"
	case len(in.Operands) != 2 || in.Operands[addrAt].Kind != Addr:
		in.Class, in.Why = Unmodelled, in.Opcode+": operands not understood"
	default:
		in.Class, in.Space, in.Width, in.Matrices = cls, "shared", 16, n
		in.checkAddr()
	}
}

// cmps are setp's comparisons the model evaluates, the unsigned ones
// read as their signed twins (the operands are taken as integers).
var cmps = map[string]string{"eq": "eq", "ne": "ne", "lt": "lt", "le": "le", "gt": "gt", "ge": "ge",
	"lo": "lt", "ls": "le", "hi": "gt", "hs": "ge"}

// setp reads setp.CMP.TYPE p, a, b with integer a and b (operands or numbers).
func (in *Instr) setp(parts []string) {
	in.Class = Unmodelled
	if len(parts) != 3 || len(in.Operands) != 3 {
		in.Why = in.Opcode + " is not modelled"
		return
	}
	cmp, ok := cmps[parts[1]]
	if t := parts[2]; !ok || t == "f32" || t == "f64" || t == "f16" || t == "bf16" || typeSizes[t] == 0 {
		in.Why = in.Opcode + " is not modelled"
		return
	}
	p, a, b := in.Operands[0], in.Operands[1], in.Operands[2]
	if p.Kind != Reg || strings.Contains(p.Name, "|") {
		in.Why = in.Opcode + ": the predicate is not a register the asm declares"
		return
	}
	for _, o := range []Operand{a, b} {
		if o.Kind != Ref && o.Kind != Imm {
			in.Why = in.Opcode + ": compares a register the asm computes"
			return
		}
	}
	in.Class, in.Cmp = SetPredicate, cmp
}

// copies reports whether the instruction's operands are two asm
// operands, a destination and a source.
func (in *Instr) copies() bool {
	return len(in.Operands) == 2 && in.Operands[0].Kind == Ref && in.Operands[1].Kind == Ref
}
