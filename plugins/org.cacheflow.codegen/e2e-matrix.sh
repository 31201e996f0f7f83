#!/bin/sh
# The full end-to-end matrix of generated code (outside the default test run, which runs a small subset).
# See usage below; the cases are listed in src-test/org/cacheflow/codegen/EndToEndTest.java.
set -e

usage() {
  cat <<'EOF'
usage: plugins/org.cacheflow.codegen/e2e-matrix.sh [--only REGEX] [--default] [extra maven options]

Generates, builds with CMake and runs: every corpus graph under baseline and auto on 2 cores (ASan+UBSan), a
representative subset (stereo with the small-disparity scenario, stabilization, h263decoder, the test graph)
under every strategy on 1, 2 and 4 cores (ASan+UBSan on 1 core, TSan on more), and cross builds for aarch64
run under qemu-user. Every run of a graph must print the same sink digests. Takes about 11 minutes on 2 cores (185 cases; measured at load 2-4).

options:
  --only REGEX   run only the cases whose name contains a match of REGEX (Java syntax). Names are
                 graph-strategy-cores-build, build being plain, asan, tsan or aarch64, e.g.
                 squeezenet-baseline-2-asan, stereo-cow-4-tsan. Matching no case is an error.
                   --only squeezenet               both squeezenet cases
                   --only '^(tiny|small_cyclic)-'  the test graph and a small SDF3 graph, every build
                   --only '-aarch64$'              the cross builds
  --default      the default test run's subset instead of the full matrix (combine with --only)
  -h, --help     this text

Each case's project and build are left in plugins/org.cacheflow.codegen/target/e2e/<case name>/. A build may
take 600 s plus 120 s per MB of generated C (graph.h, main.c and core_*.c); a run 300 s. The corpus is found
as in the other tests (system property cacheflow.corpus, default ../shared/corpus next to the repository);
without it only the test graph's cases run.
EOF
}

mode=full
only=
while [ $# -gt 0 ]; do
  case "$1" in
    --only)
      [ $# -ge 2 ] || { echo "e2e-matrix.sh: --only needs a regular expression (see --help)" >&2; exit 2; }
      only=$2
      shift 2 ;;
    --only=*)
      only=${1#--only=}
      shift ;;
    --default)
      mode=default
      shift ;;
    -h|--help)
      usage
      exit 0 ;;
    *)
      break ;;
  esac
done

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
exec ./mvnw -o verify -pl plugins/org.cacheflow.codegen -Dcacheflow.e2e=$mode "-Dcacheflow.e2e.only=$only" \
  -Dtest=EndToEndTest -Dsurefire.failIfNoSpecifiedTests=false "$@"
