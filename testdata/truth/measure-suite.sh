#!/usr/bin/env bash
# Measures a suite's programs on a GPU with Nsight Compute, for the
# comparison in internal/truth (docs/accuracy.md "A real suite"). It is
# sourced by a suite's measure.sh (rodinia/, samples/), which sets
#
#   PROGRAMS  the suite's programs.txt: name|run|folder|sources|flags|args
#   FLAGS     nvcc flags every program is built with
#   prep      (a function, optional) prep NAME FOLDER: make the inputs the
#             program's arguments name, in FOLDER
#   patch     (a function, optional) patch SRC: edit the copy of the sources
#             before the builds, emptying lines, never adding or removing
#             one (the measured line numbers are the sources')
#
# and passes SRC (a copy of the suite's sources, laid out as programs.txt
# names them) and OUT. Each program is built once, in a copy of SRC, with
# nvcc FLAGS, its own flags and its sources, and run in its folder once
# per line under ncu, which profiles the first invocation of each kernel
# (--kernel-id ::regex:.*:1) and no other. A build that fails is tried
# again with cudaThreadSynchronize (gone from recent CUDA) spelled
# cudaDeviceSynchronize.
#
# It writes OUT/env.txt and OUT/raw.tar.gz (per run NAME-RUN-i1: ncu's
# source page, source text included: never commit it; its details page;
# the program's log; the build log). Reduce it with: go run
# ./internal/truth/cmd/truth reduce -suffix "" -o FIGURES OUT/raw.tar.gz
#
# Environment: JOBS (runs profiled at once, default 4), DEADLINE
# (seconds after which no run starts, default 400), PER_RUN (timeout of
# one run, default 90).
set -uo pipefail
src=${1:?usage: measure.sh SRC OUT}
out=${2:?usage: measure.sh SRC OUT}
jobs=${JOBS:-4}
deadline=${DEADLINE:-400}
per_run=${PER_RUN:-90}
now() { date +%s; }
start=$(now)
mkdir -p "$out"
work=$(mktemp -d)
mkdir -p "$work/bin" "$work/rep" "$work/raw"
cp -r "$src" "$work/src"
if declare -F patch > /dev/null; then
	patch "$work/src"
fi
lines=$(grep -v '^#' "$PROGRAMS" | grep -v '^$')
{
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
	nvcc --version | tail -1
	ncu --version | tail -1
	echo "flags: $FLAGS (and each program's own, programs.txt); ncu --clock-control none --section SourceCounters --section LaunchStats --kernel-id ::regex:.*:1"
} > "$out/env.txt"

build() { # name folder sources flags
	local name=$1 dir=$2 srcs=$3 flags=$4 log="$work/raw/$1.build.log"
	(cd "$work/src/$dir" && nvcc $FLAGS $flags -o "$work/bin/$name" $srcs) > "$log" 2>&1 ||
		(cd "$work/src/$dir" && nvcc $FLAGS -DcudaThreadSynchronize=cudaDeviceSynchronize $flags -o "$work/bin/$name" $srcs) >> "$log" 2>&1 ||
		echo "build failed: $name"
}
export -f build
export work FLAGS
echo "$lines" | awk -F'|' '!seen[$1]++ {print $1 "\t" $3 "\t" $4 "\t" $5}' |
	xargs -P 16 -d '\n' -I{} bash -c 'IFS=$'"'"'\t'"'"' read -r n d s f <<< "{}"; build "$n" "$d" "$s" "$f"'
echo "built in $(($(now) - start)) s"
if declare -F prep > /dev/null; then
	echo "$lines" | awk -F'|' '!seen[$1]++ {print $1 "\t" $3}' | while IFS=$'\t' read -r n d; do
		(cd "$work/src/$d" && prep "$n" .) || echo "prep failed: $n"
	done
	echo "inputs made in $(($(now) - start)) s"
fi

profile() { # name run folder args
	local n=$1 r=$2 dir=$3 args=$4 name="$1-$2-i1"
	if [ $(($(now) - start)) -gt "$deadline" ]; then
		echo "skipped (deadline): $name"
		return
	fi
	[ -x "$work/bin/$n" ] || { echo "not built: $name"; return; }
	local t0=$(now)
	(cd "$work/src/$dir" && timeout -k 10 "$per_run" ncu --clock-control none --section SourceCounters --section LaunchStats \
		--import-source yes --kernel-id "::regex:.*:1" -f -o "$work/rep/$name" "$work/bin/$n" $args) \
		> "$work/raw/$name.log" 2>&1
	local rc=$?
	if [ -f "$work/rep/$name.ncu-rep" ]; then
		ncu -i "$work/rep/$name.ncu-rep" --page source --csv --print-source cuda,sass > "$work/raw/$name.source.csv" 2>&1
		ncu -i "$work/rep/$name.ncu-rep" --page details --csv > "$work/raw/$name.details.csv" 2>&1
	fi
	echo "$name: rc $rc, $(($(now) - t0)) s, $(grep -c '^"Function Name"' "$work/raw/$name.source.csv" 2>/dev/null) kernel sections"
}
export -f profile now
export start deadline per_run
echo "$lines" | awk -F'|' '{print $1 "\t" $2 "\t" $3 "\t" $6}' |
	xargs -P "$jobs" -d '\n' -I{} bash -c 'IFS=$'"'"'\t'"'"' read -r n r d a <<< "{}"; profile "$n" "$r" "$d" "$a"'
tar -C "$work" -czf "$out/raw.tar.gz" raw
echo "done in $(($(now) - start)) s; raw.tar.gz $(du -k "$out/raw.tar.gz" | cut -f1) KiB"
