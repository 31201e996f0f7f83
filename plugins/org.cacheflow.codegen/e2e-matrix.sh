#!/bin/sh
# The full end-to-end matrix of generated code (outside the default test run, which runs a small subset):
# every corpus graph under baseline and auto on 2 cores (ASan+UBSan), a representative subset (stereo with the
# small-disparity scenario, stabilization, h263decoder, the test graph) under every strategy on 1, 2 and 4 cores
# (ASan+UBSan on 1 core, TSan on more), and a cross build for aarch64 run under qemu-user. Every run of a graph
# must print the same sink digests. Takes about an hour on 2 cores.
#   plugins/org.cacheflow.codegen/e2e-matrix.sh [extra maven options]
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
exec ./mvnw -o verify -pl plugins/org.cacheflow.codegen -Dcacheflow.e2e=full -Dtest=EndToEndTest \
  -Dsurefire.failIfNoSpecifiedTests=false "$@"
