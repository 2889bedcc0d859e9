#!/usr/bin/env bash
# Measures probes11.cu (values a guard keeps across a loop's iterations;
# searches whose address the data picks inside a bound) on a GPU: Nsight
# Compute's per-SASS source counters (source11.csv.gz, env11.txt), and the
# SASS of each kernel's memory instructions (sass11.txt): predicated (@P)
# or under a branch?
#   bash testdata/truth/measure11.sh OUTDIR
set -euo pipefail
out=${1:?usage: measure11.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
work=$(mktemp -d)
nvcc -O3 -lineinfo -arch=sm_90 -o "$work/probes11" "$here/probes11.cu"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -1; ncu --version | tail -1; } > "$out/env11.txt"
ncu --clock-control none --section SourceCounters --metrics memory_l1_wavefronts_shared,memory_l1_wavefronts_shared_ideal --import-source yes -f -o "$work/report" "$work/probes11"
ncu -i "$work/report.ncu-rep" --page source --csv --print-source cuda,sass > "$out/source11.csv"
gzip -9 -n -f "$out/source11.csv"
cuobjdump -sass "$work/probes11" | grep -E 'Function :|LDS|STS|LDG|STG|EXIT|BRA' > "$out/sass11.txt"
echo "wrote $out/source11.csv.gz, $out/env11.txt, $out/sass11.txt"
cat "$out/sass11.txt"
