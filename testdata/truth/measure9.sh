#!/usr/bin/env bash
# Measures probes9.cu (host pointer offsets, loads under c ? x : 0) on a GPU: Nsight Compute's
# per-SASS source counters with the shared wavefronts and their ideal
# (source9.csv.gz, env9.txt), and the SASS of each kernel's memory
# instructions (sass9.txt): predicated (@P) or under a branch?
#   bash testdata/truth/measure9.sh OUTDIR
set -euo pipefail
out=${1:?usage: measure9.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
work=$(mktemp -d)
nvcc -O3 -lineinfo -arch=sm_90 -o "$work/probes9" "$here/probes9.cu"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -1; ncu --version | tail -1; } > "$out/env9.txt"
ncu --clock-control none --section SourceCounters --metrics memory_l1_wavefronts_shared,memory_l1_wavefronts_shared_ideal --import-source yes -f -o "$work/report" "$work/probes9"
ncu -i "$work/report.ncu-rep" --page source --csv --print-source cuda,sass > "$out/source9.csv"
gzip -9 -n -f "$out/source9.csv"
cuobjdump -sass "$work/probes9" | grep -E 'Function :|LDS|STS|LDG|STG|EXIT|BRA' > "$out/sass9.txt"
echo "wrote $out/source9.csv.gz, $out/env9.txt, $out/sass9.txt"
cat "$out/sass9.txt"
