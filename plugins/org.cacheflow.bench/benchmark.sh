#!/bin/sh
# Code generation benchmarks (see CodegenBenchmark): the corpus stereo under every strategy of the ladder, run
# interleaved round by round, speed-ups against preesm (PREESM's code with its memory scripts) and baseline of the
# same round; the time to generate code for graphs of 10^3..10^5 single-rate vertices; first the bytes the programs
# of examples/stereo allocate per strategy, with and without pools (--footprint-only: only that). Builds this bundle
# first if needed.
#   plugins/org.cacheflow.bench/benchmark.sh [--quick] [--footprint-only] [--iterations N] [--runs N] [--scenario F]
#                                            [--csv FILE]
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
if ! ls plugins/org.cacheflow.bench/target/org.cacheflow.bench-*.jar >/dev/null 2>&1; then
  ./mvnw -q package -DskipTests -pl releng/org.cacheflow.genmodel,plugins/org.cacheflow.cli,plugins/org.cacheflow.bench -am
fi
classpath=""
for jar in plugins/org.cacheflow.*/target/org.cacheflow.*-SNAPSHOT.jar plugins/org.cacheflow.cli/target/lib/*.jar; do
  case "$jar" in *-sources.jar|*-tests.jar) continue ;; esac
  classpath="$classpath${classpath:+:}$jar"
done
exec java -Xss16m -Xmx4g -cp "$classpath" org.cacheflow.bench.codegen.CodegenBenchmark --runtime "$root/runtime-c" \
  --corpus "$root/../shared/corpus" --work "$root/plugins/org.cacheflow.bench/target/codegen-bench" "$@"
