#!/usr/bin/env bash
# Measures probes8.cu (predicated copies) on a GPU: Nsight Compute's
# per-SASS source counters with the shared wavefronts and their ideal
# (source8.csv.gz, env8.txt), and the SASS of each kernel's memory
# instructions (sass8.txt): predicated (@P) or under a branch?
#   bash testdata/truth/measure8.sh OUTDIR
set -euo pipefail
out=${1:?usage: measure8.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
work=$(mktemp -d)
nvcc -O3 -lineinfo -arch=sm_90 -o "$work/probes8" "$here/probes8.cu"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -1; ncu --version | tail -1; } > "$out/env8.txt"
ncu --clock-control none --section SourceCounters --metrics memory_l1_wavefronts_shared,memory_l1_wavefronts_shared_ideal --import-source yes -f -o "$work/report" "$work/probes8"
ncu -i "$work/report.ncu-rep" --page source --csv --print-source cuda,sass > "$out/source8.csv"
gzip -9 -n -f "$out/source8.csv"
cuobjdump -sass "$work/probes8" | grep -E 'Function :|LDS|STS|LDG|STG|EXIT|BRA' > "$out/sass8.txt"
echo "wrote $out/source8.csv.gz, $out/env8.txt, $out/sass8.txt"
cat "$out/sass8.txt"
