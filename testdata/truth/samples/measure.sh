#!/usr/bin/env bash
# Measures NVIDIA cuda-samples' standalone samples (programs.txt) on a GPU
# with Nsight Compute; see ../measure-suite.sh.
#
#   bash measure.sh SRC OUT
#
# SRC is a copy of the cuda-samples repository holding Common/ and the
# sample folders programs.txt names (with their data/ folders).
here=$(cd "$(dirname "$0")" && pwd)
PROGRAMS=$here/programs.txt
src_abs=$(cd "${1:?usage: measure.sh SRC OUT}" && pwd)
FLAGS="-O3 -lineinfo -arch=sm_90 -I$src_abs/Common"
source "$here/../measure-suite.sh"
