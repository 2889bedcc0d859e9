#!/usr/bin/env bash
# Measures the probe kernels on a GPU and writes Nsight Compute's per-SASS
# source counters. Run from the repository root on a machine with nvcc and ncu:
#   bash testdata/truth/measure.sh OUTDIR [probesN]
# (the second argument measures probesN.cu into sourceN.csv.gz and envN.txt:
# probes2, probes3, probes4)
# It writes OUTDIR/source.csv.gz (ncu's source page, CUDA and SASS
# interleaved) and OUTDIR/env.txt (the GPU, driver and tool versions). Copy
# both next to this script: the Go test in cmd/cudalint compares every
# prediction for probes.cu with source.csv.gz.
set -euo pipefail
out=${1:?usage: measure.sh OUTDIR [PROBES]}
name=${2:-probes}
suffix=${name#probes}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
nvcc -O3 -lineinfo -arch=sm_90 -o "$work/$name" "$here/$name.cu"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -1; ncu --version | tail -1; } > "$out/env$suffix.txt"
ncu --clock-control none --section SourceCounters --import-source yes -f -o "$work/report" "$work/$name"
ncu -i "$work/report.ncu-rep" --page source --csv --print-source cuda,sass > "$out/source$suffix.csv"
echo "wrote $out/source$suffix.csv ($(wc -l < "$out/source$suffix.csv") lines)"
gzip -9 -n -f "$out/source$suffix.csv"
