#!/usr/bin/env python3
"""Prints the per-line and per-SASS global and shared memory counters of an
ncu source-page export (measure.sh's source*.csv.gz), for reading on the
device machine: python3 summarize.py OUTDIR/source2.csv.gz

A line's sectors per request is the sum of L2 Theoretical Sectors Global
over its SASS instructions divided by the sum of their Instructions
Executed, as internal/ncu computes it. The per-SASS rows show what the
per-line sum hides: an unrolled loop's iterations, two inlined call sites
on one helper line, and predicated instructions (@P in the SASS text;
'on' is the average of predicated-on threads per executed instruction).
"""
import csv
import gzip
import sys


def main(path):
    fn = None
    col = None
    line = 0
    src = {}
    seen = set()
    rows = {}  # (fn, line, space, op) -> list of sass rows
    order = []
    with gzip.open(path, "rt", newline="") as f:
        for rec in csv.reader(f):
            if len(rec) == 2 and rec[0] == "Function Name":
                fn = rec[1].split("(")[0]
                continue
            if len(rec) == 2:
                continue
            if rec and rec[0] == "Line No":
                col = {}
                for i, name in enumerate(rec):
                    col.setdefault(name, i)
                continue
            if col is None or len(rec) < len(col):
                continue
            if rec[0] != "":
                line = int(rec[0])
                src[(fn, line)] = rec[1].strip()
                continue
            space = rec[col["Address Space"]].lower()
            op = rec[col["Access Operation"]].lower()
            if space not in ("global", "shared") or op not in ("load", "store"):
                continue
            ident = (fn, rec[2])
            if ident in seen:
                continue
            seen.add(ident)
            num = lambda name: int(rec[col[name]].replace(",", "") or 0) if rec[col[name]] not in ("-", "") else 0
            k = (fn, line, space, op)
            if k not in rows:
                rows[k] = []
                order.append(k)
            rows[k].append({
                "sass": rec[3].strip(),
                "inst": num("Instructions Executed"),
                "sectors": num("L2 Theoretical Sectors Global"),
                "ideal": num("L2 Theoretical Sectors Global Ideal"),
                "on": rec[col["Avg. Predicated-On Threads Executed"]],
                "ways": rec[col["L1 Conflicts Shared N-Way"]],
            })
    last = None
    for k in order:
        fn, line, space, op = k
        if fn != last:
            print()
            print(fn)
            last = fn
        rs = rows[k]
        inst = sum(r["inst"] for r in rs)
        sec = sum(r["sectors"] for r in rs)
        ideal = sum(r["ideal"] for r in rs)
        per = sec / inst if inst else 0.0
        print("  %4d %-6s %-5s inst %8d sectors %9d  %7.3f/req ideal %6.3f  %d SASS  | %s"
              % (line, space, op, inst, sec, per, ideal / inst if inst else 0.0, len(rs), src.get((fn, line), "")[:70]))
        if len(rs) > 1 or any(r["sass"].startswith("@") for r in rs):
            for r in rs:
                print("         %-44s inst %8d sectors %9d  %7.3f/req  on %s"
                      % (r["sass"][:44], r["inst"], r["sectors"], r["sectors"] / r["inst"] if r["inst"] else 0.0, r["on"]))


if __name__ == "__main__":
    main(sys.argv[1])
