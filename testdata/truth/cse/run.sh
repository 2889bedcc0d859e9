#!/usr/bin/env bash
# Compiles cse.cu for sm_90 and counts each kernel's LDG instructions in its SASS
# (cse.sass, committed): which repeated loads nvcc reuses. Run on a machine
# with nvcc: OUT=DIR bash run.sh
set -e
cd "$(dirname "$0")"; OUT=${OUT:-.}
nvcc -O3 -lineinfo -arch=sm_90 -cubin -o cse.cubin cse.cu
cuobjdump -sass cse.cubin > "$OUT"/cse.sass
for k in cse_restrict_atomic cse_plain_atomic cse_plain_nostore cse_plain_store cse_restrict_store; do
  n=$(awk -v k="$k" '/Function :/ {on = (index($0, k) > 0)} on && /LDG/ {c++} END {print c+0}' "$OUT"/cse.sass)
  echo "$k LDG=$n"
done
nvcc --version | tail -1
