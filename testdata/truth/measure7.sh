#!/usr/bin/env bash
# Measures probes7.cu (what nvcc merges) on a GPU: Nsight Compute's
# per-SASS source counters with the shared wavefronts and their ideal
# (source7.csv.gz, env7.txt), and the SASS of each kernel's memory
# instructions (sass7.txt): LDS or LDS.128 for four adjacent floats?
#   bash testdata/truth/measure7.sh OUTDIR
set -euo pipefail
out=${1:?usage: measure7.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
work=$(mktemp -d)
nvcc -O3 -lineinfo -arch=sm_90 -o "$work/probes7" "$here/probes7.cu"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -1; ncu --version | tail -1; } > "$out/env7.txt"
ncu --clock-control none --section SourceCounters --metrics memory_l1_wavefronts_shared,memory_l1_wavefronts_shared_ideal --import-source yes -f -o "$work/report" "$work/probes7"
ncu -i "$work/report.ncu-rep" --page source --csv --print-source cuda,sass > "$out/source7.csv"
gzip -9 -n -f "$out/source7.csv"
cuobjdump -sass "$work/probes7" | grep -E 'Function :|LDS|STS|LDG|STG' > "$out/sass7.txt"
echo "wrote $out/source7.csv.gz, $out/env7.txt, $out/sass7.txt"
cat "$out/sass7.txt"
