#!/usr/bin/env bash
# Kernel times per launch for the launcher-share check
# (testdata/truth/launchers, parts.csv): each program's kernels, their
# first launches, ncu gpu__time_duration (clock control none), summed per
# kernel, and each kernel's part of its program's.
#
#   bash run.sh WORK
#
# WORK holds llmc/ (llm.c's dev/cuda attention_forward.cu,
# fused_residual_forward.cu, common.h) and samples/ (cuda-samples'
# Common/*.h and the folders histogram, fastWalshTransform,
# sortingNetworks, fp16ScalarProduct, simpleVoteIntrinsics), copied from
# checkouts of the suites (llm.c f1e2ace, cuda-samples c94ff366).
set -u
cd "$1"
F="-O3 -lineinfo -arch=sm_90"
M="--clock-control none --metrics gpu__time_duration.sum --csv"
out=${OUT:-/tmp/out}; mkdir -p $out
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $out/env.txt; nvcc --version | tail -2 >> $out/env.txt; ncu --version | tail -1 >> $out/env.txt
b() { echo "== build $1"; shift; nvcc $F "$@" 2>&1 | grep -v warning | tail -3; }
( cd llmc && b af attention_forward.cu -lcublas -lcublasLt -o af && b fr fused_residual_forward.cu -lcublas -lcublasLt -o fr )
( cd samples/histogram && b hist -I ../Common main.cpp histogram64.cu histogram256.cu histogram_gold.cpp -o hist )
( cd samples/fastWalshTransform && b fwt -I ../Common fastWalshTransform.cu fastWalshTransform_gold.cpp -o fwt )
( cd samples/sortingNetworks && b sn -I ../Common main.cpp bitonicSort.cu oddEvenMergeSort.cu sortingNetworks_validate.cpp -o sn )
( cd samples/fp16ScalarProduct && b fp16 -I ../Common fp16ScalarProduct.cu -o fp16 )
( cd samples/simpleVoteIntrinsics && b vote -I ../Common simpleVoteIntrinsics.cu -o vote )
p() { name=$1; dir=$2; shift 2; echo "== ncu $name"; ( cd $dir && timeout 150 ncu $M "$@" > $out/$name.csv 2>$out/$name.err; echo "rc $?"; grep -c gpu__time $out/$name.csv ) }
p af llmc -k regex:attention_.*kernel1 -c 15 ./af 1
p fr llmc -k regex:kernel1 -c 12 ./fr 1
p hist64 samples/histogram -k regex:istogram64 -c 4 ./hist
p hist256 samples/histogram -k regex:istogram256 -c 4 ./hist
p fwt samples/fastWalshTransform -c 40 ./fwt
p sn samples/sortingNetworks -k regex:bitonic -c 60 ./sn
p fp16 samples/fp16ScalarProduct -c 10 ./fp16
p vote samples/simpleVoteIntrinsics -c 10 ./vote
for f in $out/*.csv; do echo "-- $(basename $f)"; python3 - "$f" <<'PY'
import csv,sys,collections
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>10]
if not rows: sys.exit()
h=rows[0]; ki=h.index('Kernel Name'); vi=h.index('Metric Value'); ui=h.index('Metric Unit')
tot=collections.OrderedDict(); n=collections.Counter()
for r in rows[1:]:
    k=r[ki].split('(')[0]; v=float(r[vi].replace(',',''))
    tot[k]=tot.get(k,0)+v; n[k]+=1
s=sum(tot.values())
for k,v in tot.items(): print(f"{k:40s} n={n[k]:3d} sum={v:12.1f} {rows[1][ui]} part={v/s:.3f}")
PY
done
