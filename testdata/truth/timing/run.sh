#!/usr/bin/env bash
# Times the kernel pairs of pairs.cu on a GPU (each: a kernel with a
# cudalint finding and its fixed twin). Run from the repository root on a
# machine with nvcc:
#   bash testdata/truth/timing/run.sh OUTDIR
# It writes OUTDIR/timings.csv (pair,variant,median_ms,bytes: CUDA events,
# 3 warm-ups, the median of 15 launches) and OUTDIR/env.txt (the GPU, its
# driver, nvcc's version). Copy both next to this script: the Go test in
# cmd/cudalint (impact_timing_test.go) compares cudalint's estimated
# speedup for each pair with the measured ratio.
set -euo pipefail
out=${1:?usage: run.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
nvcc -O3 -lineinfo -arch=sm_90 -o "$work/pairs" "$here/pairs.cu"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -1; } > "$out/env.txt"
# The clocks the rates of the time model assume (best effort: not every
# driver answers every field).
nvidia-smi --query-gpu=clocks.max.sm,clocks.max.memory --format=csv >> "$out/env.txt" 2>/dev/null || true
{ echo "pair,variant,median_ms,bytes"; "$work/pairs"; } > "$out/timings.csv.tmp"
mv "$out/timings.csv.tmp" "$out/timings.csv"
cat "$out/timings.csv"
