#!/usr/bin/env bash
# compare.sh DIR: time `clang++ -fsyntax-only` (clang 14, CUDA mode, the
# stub header here standing in for the CUDA headers) against cudalint on
# the same .cu files, one process per file, one file after another, on
# one core. Prints per-file means and the ratio. Needs clang++-14
# (Debian: apt-get install clang-14).
set -euo pipefail
dir=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/inc"
echo '// empty: cuda_stub.h stands in' > "$tmp/inc/cuda.h"
cp "$tmp/inc/cuda.h" "$tmp/inc/cuda_runtime.h"
(cd "$root" && go build -o "$tmp/cudalint" ./cmd/cudalint)
mapfile -t files < <(find "$dir" -name '*.cu' | sort)
n=${#files[@]}
now() { date +%s.%N; }
run_clang() {
  for f in "${files[@]}"; do
    taskset -c 0 clang++-14 -x cuda -nocudainc -nocudalib --cuda-host-only -fsyntax-only \
      -I"$tmp/inc" -include "$here/cuda_stub.h" "$f" >/dev/null 2>&1 || echo "clang failed on $f" >&2
  done
}
run_cudalint() {
  for f in "${files[@]}"; do
    GOMAXPROCS=1 taskset -c 0 "$tmp/cudalint" --exit-zero "$f" >/dev/null
  done
}
best() { # best of 3 runs of $1, in seconds
  local b=999
  for _ in 1 2 3; do
    local t0 t1; t0=$(now); "$1"; t1=$(now)
    b=$(echo "$t1 - $t0" | bc -l | awk -v b="$b" '{print ($1 < b) ? $1 : b}')
  done
  echo "$b"
}
c=$(best run_clang)
l=$(best run_cudalint)
bytes=$(cat "${files[@]}" | wc -c)
awk -v n="$n" -v c="$c" -v l="$l" -v bytes="$bytes" 'BEGIN {
  printf "%d files, %.0f KB\n", n, bytes / 1024
  printf "clang++-14 -fsyntax-only: %.1f ms per file\n", 1000 * c / n
  printf "cudalint (all rules):     %.1f ms per file\n", 1000 * l / n
  printf "cudalint takes %.2fx clang'"'"'s time (%.1fx faster)\n", l / c, c / l
}'
