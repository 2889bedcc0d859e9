#!/usr/bin/env bash
# Measures the kernels of llm.c's dev/cuda programs on a GPU with Nsight
# Compute, for the comparison in internal/truth (see README "Ground truth").
#
#   bash measure.sh SRC OUT [RUNS...]
#
# SRC is a copy of llm.c's dev/cuda folder (its .cu files and common.h).
# RUNS are "file:kernel_num" pairs (default: the list below). Each program
# is built as llm.c's dev/cuda Makefile builds it, plus -lineinfo and
# sm_90, and run under ncu once per kernel_num and invocation: ncu
# profiles that invocation of each kernel (the first is the first block
# size of the program's checking loop) and no other. The benchmark loops are cut to one repetition in the
# copy that is built (repeat_times = 1; no line moves), so that a program
# ends soon after its kernels were profiled.
#
# It writes OUT/env.txt (GPU, driver, nvcc and ncu versions) and
# OUT/raw.tar.gz: per run, ncu's source page (CUDA and SASS interleaved,
# source text included: never commit it), its details page (launch
# statistics: block and grid sizes) and the program's log. Reduce it to
# figures with: go run ./internal/truth/cmd/truth reduce -o FIGURES OUT/raw.tar.gz
# Profiling runs at once give the same counters as one at a time (seen on
# an H200: the source counters come from instrumented code).
#
# Environment: JOBS (programs profiled at once, default 1), DEADLINE
# (seconds after which no new run starts, default 500), PER_RUN (timeout
# of one run in seconds, default 90), INVOCATIONS (which invocations of
# each kernel to profile, one run each, default 1: "1 4" also profiles the
# fourth, which is the fourth block size of most checking loops).
set -uo pipefail
src=${1:?usage: measure.sh SRC OUT [file:kernel_num ...]}
out=${2:?usage: measure.sh SRC OUT [file:kernel_num ...]}
shift 2
runs=("$@")
if [ ${#runs[@]} -eq 0 ]; then
	runs=(
		residual_forward:1 residual_forward:2
		gelu_forward:1 gelu_forward:2
		gelu_backward:1 gelu_backward:2
		encoder_forward:1 encoder_forward:2 encoder_forward:3
		encoder_backward:1 encoder_backward:2
		layernorm_forward:1 layernorm_forward:2 layernorm_forward:3 layernorm_forward:4 layernorm_forward:5 layernorm_forward:6
		layernorm_backward:2 layernorm_backward:3 layernorm_backward:4 layernorm_backward:5 layernorm_backward:6
		layernorm_backward:7 layernorm_backward:8 layernorm_backward:9 layernorm_backward:10
		softmax_forward:1 softmax_forward:2 softmax_forward:3 softmax_forward:4 softmax_forward:5
		softmax_forward:6 softmax_forward:7 softmax_forward:8
		crossentropy_forward:1 crossentropy_softmax_backward:1
		fused_residual_forward:1 fused_residual_forward:2 fused_residual_forward:3
		fused_residual_forward:4 fused_residual_forward:5 fused_residual_forward:6
		adamw:1 adamw:2
		global_norm:1 global_norm:2 global_norm:3 global_norm:4
		classifier_fused:1 classifier_fused:2 classifier_fused:3 classifier_fused:4 classifier_fused:5
		matmul_backward_bias:1 matmul_backward_bias:2 matmul_backward_bias:3 matmul_backward_bias:4
		matmul_backward_bias:5 matmul_backward_bias:7 matmul_backward_bias:8 matmul_backward_bias:9
		permute:1
		trimat_forward:1 trimat_forward:2 trimat_forward:3 trimat_forward:4
		attention_forward:1 attention_forward:2 attention_forward:3 attention_forward:4 attention_forward:5
		attention_backward:1 attention_backward:2 attention_backward:3 attention_backward:4
		attention_backward:5 attention_backward:6 attention_backward:7 attention_backward:8
	)
fi
jobs=${JOBS:-1}
deadline=${DEADLINE:-500}
per_run=${PER_RUN:-90}
invocations=${INVOCATIONS:-1}
now() { date +%s; }
start=$(now)
mkdir -p "$out"
work=$(mktemp -d)
mkdir -p "$work/bin" "$work/rep" "$work/raw"
cp "$src"/*.cu "$src"/*.h "$work/"
sed -i -E 's/(repeat_times *= *)[0-9]+/\11/' "$work"/*.cu
{
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
	nvcc --version | tail -1
	ncu --version | tail -1
	echo "flags: -O3 --use_fast_math -std=c++17 -lineinfo -arch=sm_90 -lcublas -lcublasLt; ncu --clock-control none --section SourceCounters --section LaunchStats --kernel-id ::regex:.*:N for N in $invocations"
} > "$out/env.txt"

# Build every program named, in parallel.
printf '%s\n' "${runs[@]}" | cut -d: -f1 | sort -u | xargs -P 16 -I{} sh -c \
	"nvcc -O3 --use_fast_math -std=c++17 -lineinfo -arch=sm_90 -o '$work/bin/{}' '$work/{}.cu' -lcublas -lcublasLt > '$work/raw/{}.build.log' 2>&1 || echo 'build failed: {}'"
echo "built in $(($(now) - start)) s"

profile() { # file kernel_num invocation
	local f=$1 k=$2 invocation=$3 name="$1-$2-i$3"
	if [ $(($(now) - start)) -gt "$deadline" ]; then
		echo "skipped (deadline): $name"
		return
	fi
	[ -x "$work/bin/$f" ] || { echo "not built: $name"; return; }
	local t0=$(now)
	(cd "$work" && timeout -k 10 "$per_run" ncu --clock-control none --section SourceCounters --section LaunchStats \
		--import-source yes --kernel-id "::regex:.*:$invocation" -f -o "rep/$name" "./bin/$f" "$k") \
		> "$work/raw/$name.log" 2>&1
	local rc=$?
	if [ -f "$work/rep/$name.ncu-rep" ]; then
		ncu -i "$work/rep/$name.ncu-rep" --page source --csv --print-source cuda,sass > "$work/raw/$name.source.csv" 2>&1
		ncu -i "$work/rep/$name.ncu-rep" --page details --csv > "$work/raw/$name.details.csv" 2>&1
	fi
	echo "$name: rc $rc, $(($(now) - t0)) s, $(cat "$work/raw/$name.source.csv" 2>/dev/null | grep -c '^"Function Name"') kernel sections"
}
export -f profile now
export work start deadline per_run
for i in $invocations; do printf "%s $i\n" "${runs[@]}"; done | tr ':' ' ' |
	xargs -P "$jobs" -L 1 bash -c 'profile "$0" "$1" "$2"'
tar -C "$work" -czf "$out/raw.tar.gz" raw
echo "done in $(($(now) - start)) s; raw.tar.gz $(du -k "$out/raw.tar.gz" | cut -f1) KiB"
