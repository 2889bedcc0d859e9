#!/usr/bin/env bash
# Measures records written or read in scalar pieces on a GPU: the timing
# pairs (timing/run.sh, all of them again: timings.csv, env.txt), then
# Nsight Compute's per-SASS source counters and whole-kernel L2 and DRAM
# counters of the record pairs (one launch each: pairs --once) and of
# probes12.cu (source12.csv.gz, raw12.csv, env12.txt), and the SASS of
# their memory instructions (sass12.txt).
#   bash testdata/truth/measure12.sh OUTDIR
set -euo pipefail
out=${1:?usage: measure12.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
work=$(mktemp -d)
bash "$here/timing/run.sh" "$out/timing"
nvcc -O3 -lineinfo -arch=sm_90 -o "$work/pairs" "$here/timing/pairs.cu"
nvcc -O3 -lineinfo -arch=sm_90 -o "$work/probes12" "$here/probes12.cu"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -1; ncu --version | tail -1; } > "$out/env12.txt"
metrics=lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum,lts__t_requests_op_write.sum,dram__sectors_write.sum,dram__sectors_read.sum,gpu__time_duration.sum
pairs="f2store f3store f3load st4 st8 ld8 triple vector v8store v8load st5 st6 st7"
ncu --clock-control none --section SourceCounters --metrics $metrics --import-source yes -f -o "$work/pairs" "$work/pairs" --once $pairs
ncu --clock-control none --section SourceCounters --metrics $metrics --import-source yes -f -o "$work/probes" "$work/probes12"
{ ncu -i "$work/pairs.ncu-rep" --page source --csv --print-source cuda,sass; ncu -i "$work/probes.ncu-rep" --page source --csv --print-source cuda,sass; } > "$out/source12.csv"
gzip -9 -n -f "$out/source12.csv"
{ ncu -i "$work/pairs.ncu-rep" --page raw --csv --metrics $metrics; ncu -i "$work/probes.ncu-rep" --page raw --csv --metrics $metrics; } > "$out/raw12.csv"
{ cuobjdump -sass "$work/pairs"; cuobjdump -sass "$work/probes12"; } | grep -E 'Function :|LDG|STG|EXIT' > "$out/sass12.txt"
echo "wrote $out"
cat "$out/timing/timings.csv"
grep -E 'Function : .*(st4|st2|st8|ld8|f2store|f3store|f3load)' -A12 "$out/sass12.txt" | grep -E 'Function|STG|LDG' | head -80
