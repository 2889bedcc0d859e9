#!/usr/bin/env bash
# Measures Rodinia's CUDA programs (programs.txt) on a GPU with Nsight
# Compute; see ../measure-suite.sh.
#
#   bash measure.sh SRC OUT
#
# SRC is a copy of Rodinia 3.1's cuda folder (no data files: prep writes
# the inputs the runs read, with fixed seeds).
here=$(cd "$(dirname "$0")" && pwd)
PROGRAMS=$here/programs.txt
FLAGS="-O3 -lineinfo -arch=sm_90"
prep() { # name folder
	case $1 in
	hotspot)
		awk 'BEGIN { srand(1); for (i = 0; i < 512*512; i++) print 323 + 20*rand() }' > temp_512
		awk 'BEGIN { srand(2); for (i = 0; i < 512*512; i++) print 0.001*rand() }' > power_512 ;;
	hotspot3D)
		awk 'BEGIN { srand(3); for (i = 0; i < 512*512*8; i++) print 0.001*rand() }' > power_512x8
		awk 'BEGIN { srand(4); for (i = 0; i < 512*512*8; i++) print 323 + 20*rand() }' > temp_512x8 ;;
	bfs) # 65536 nodes of 6 random edges each, as Rodinia's graph files
		awk 'BEGIN { srand(5); n = 65536; d = 6; print n
			for (i = 0; i < n; i++) print i*d, d; print 0; print n*d
			for (i = 0; i < n*d; i++) print int(n*rand()), 1 + int(10*rand()) }' > graph65536.txt ;;
	nn) # 4 files of 10240 hurricanes, as hurricane_gen.c writes them
		awk 'BEGIN { srand(6); split("ALBERTO BERYL CHRIS DEBBY ERNESTO", names, " ")
			for (f = 0; f < 4; f++) { file = sprintf("cane4_%d.db", f); print file > "filelist_gen"
				for (i = 0; i < 10240; i++) printf "%4d %2d %2d %2d %2d %-9s %5.1f %5.1f %4d %4d\n",
					1950 + int(55*rand()), 1 + int(12*rand()), 1 + int(28*rand()), 6*int(4*rand()), 1 + int(28*rand()),
					names[1 + int(5*rand())], 7 + 63*rand(), 358*rand(), 10 + int(155*rand()), int(900*rand()) > file } }' ;;
	esac
}
patch() { # src: gaussian prints cudaDeviceProp members CUDA 13 removed
	sed -i -E 's/^.*deviceProp\. ?(clockRate|deviceOverlap).*$//' "$1/gaussian/gaussian.cu"
}
export -f prep
source "$here/../measure-suite.sh"
