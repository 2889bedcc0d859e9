#!/usr/bin/env bash
# Measures ops.cu on a GPU with nvcc and Nsight Compute. From the
# repository root:   bash testdata/truth/ops/run.sh OUTDIR
# Writes OUTDIR/ops_time.csv (kernel,type,median_ms,warps,reps),
# OUTDIR/ops_inst.csv (Nsight Compute's raw CSV: each kernel's warp
# instructions executed, all and those of the FP64 pipe) and
# OUTDIR/env.txt.
set -euo pipefail
out=${1:?usage: run.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
nvcc -O3 -lineinfo -arch=sm_90 -o "$work/ops" "$here/ops.cu"
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; nvcc --version | tail -1; } > "$out/env.txt"
{ echo "kernel,type,median_ms,warps,reps"; "$work/ops"; } > "$out/ops_time.csv"
ncu --clock-control none --metrics smsp__inst_executed.sum,smsp__inst_executed_pipe_fp64.sum,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum \
    --csv "$work/ops" --once > "$out/ops_inst.csv"
cat "$out/ops_time.csv"
