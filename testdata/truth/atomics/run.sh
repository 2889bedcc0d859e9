set -e
cd "$(dirname "$0")"
nvcc -O3 -lineinfo -arch=sm_90 -o atom atom.cu
./atom | tee $OUT/atom.csv
cuobjdump -sass atom | grep -E "ATOM|RED|Function" | head -30 | tee $OUT/atom_sass.txt
