#!/usr/bin/env bash
# Measures probes6.cu (vectorizable-access) on a GPU: Nsight Compute's
# per-SASS source counters (measure.sh), the SASS of each kernel's global
# loads and stores (does nvcc emit 4 LDG.E or one LDG.E.128 for four
# adjacent floats?), and each kernel's median time over 256 MiB.
#   bash testdata/truth/measure6.sh OUTDIR
set -euo pipefail
out=${1:?usage: measure6.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
bash "$here/measure.sh" "$out" probes6
work=$(mktemp -d)
nvcc -O3 -lineinfo -arch=sm_90 -o "$work/probes6" "$here/probes6.cu"
cuobjdump -sass "$work/probes6" | grep -E 'Function :|LDG|STG' > "$out/sass6.txt"
"$work/probes6" time > "$out/time6.txt"
echo "wrote $out/sass6.txt and $out/time6.txt"
cat "$out/time6.txt"
