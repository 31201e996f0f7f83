#!/bin/sh
# The full end-to-end matrix of generated code (outside the default test run, which runs a small subset).
# See usage below; the cases are listed in src-test/org/cacheflow/codegen/EndToEndTest.java.
set -e

usage() {
  cat <<'EOF'
usage: plugins/org.cacheflow.codegen/e2e-matrix.sh [--only REGEX] [--default] [--scenarios] [extra maven options]

Generates, builds with CMake and runs: every corpus graph under baseline and auto on 2 cores (ASan+UBSan), a
representative subset (stereo with the small-disparity scenario, stabilization, h263decoder, the test graph)
under every strategy on 1, 2 and 4 cores (ASan+UBSan on 1 core, TSan on more), and cross builds for aarch64
run under qemu-user, and every (project, scenario) pair of the corpus's PREESM projects under baseline and auto
(synthetic actors, 2 cores, ASan+UBSan; a pair broken upstream is listed with its reason instead). Every run
of a graph must print the same sink digests. Takes about 11 minutes on 2 cores for the 185 cases of the
matrix (measured at load 2-4) plus about 30 minutes for the 52 corpus pairs (measured at load 2-20).

options:
  --only REGEX   run only the cases whose name contains a match of REGEX (Java syntax). Names are
                 graph-strategy-cores-build, build being plain, asan, tsan or aarch64, e.g.
                 squeezenet-baseline-2-asan, stereo-cow-4-tsan; a corpus pair is
                 scenario-<project>-<scenario>, e.g. scenario-stereo-4core. Matching no case is an error.
                   --only squeezenet               both squeezenet cases
                   --only '^(tiny|small_cyclic)-'  the test graph and a small SDF3 graph, every build
                   --only '-aarch64$'              the cross builds
  --default      the default test run's subset instead of the full matrix (combine with --only)
  --scenarios    only the corpus pairs, every one of them (cases scenario-<project>-<scenario>); the count of
                 pairs run green / skipped for an upstream reason / in all is printed and written to
                 target/e2e/corpus-scenarios.txt
  -h, --help     this text

Each case's project and build are left in plugins/org.cacheflow.codegen/target/e2e/<case name>/. A build may
take 600 s plus 120 s per MB of generated C (graph.h, main.c and core_*.c); a run 300 s. The corpus is found
as in the other tests (system property cacheflow.corpus, default ../shared/corpus next to the repository);
without it only the test graph's cases run.
EOF
}

mode=full
only=
scenarios=distinct
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
    --scenarios)
      mode=default
      scenarios=all
      only=${only:-^scenario-}
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
  -Dcacheflow.e2e.scenarios=$scenarios \
  -Dtest=EndToEndTest -Dsurefire.failIfNoSpecifiedTests=false "$@"
