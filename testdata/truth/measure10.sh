#!/usr/bin/env bash
# Measures probes10.cu (loads under c ? x : k with c the same for a block,
# inside a branch on the thread index or not; a thread-0 load after a block
# with a loop) on a GPU: Nsight Compute's per-SASS source counters
# (source10.csv.gz, env10.txt), and the SASS of each kernel's memory
# instructions (sass10.txt): predicated (@P) or under a branch?
#   bash testdata/truth/measure10.sh OUTDIR
set -euo pipefail
out=${1:?usage: measure10.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
work=$(mktemp -d)
nvcc -O3 -lineinfo -arch=sm_90 -o "$work/probes10" "$here/probes10.cu"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -1; ncu --version | tail -1; } > "$out/env10.txt"
ncu --clock-control none --section SourceCounters --metrics memory_l1_wavefronts_shared,memory_l1_wavefronts_shared_ideal --import-source yes -f -o "$work/report" "$work/probes10"
ncu -i "$work/report.ncu-rep" --page source --csv --print-source cuda,sass > "$out/source10.csv"
gzip -9 -n -f "$out/source10.csv"
cuobjdump -sass "$work/probes10" | grep -E 'Function :|LDS|STS|LDG|STG|EXIT|BRA' > "$out/sass10.txt"
echo "wrote $out/source10.csv.gz, $out/env10.txt, $out/sass10.txt"
cat "$out/sass10.txt"
