#!/usr/bin/env bash
# Home-forwarding benchmark (the farm and map benchmarks of the home-forwarding rdy-ack paper) in one
# command, from a fresh clone:
#   bench/home-forwarding/run.sh [--quick] [--runs N] [--config "BENCH SIZE TYPE"]...
# 1. builds the C runtime twice (Release): rdy-ack channels and the Lamport ring (CF_CHANNEL_IMPL=lamport);
# 2. for every benchmark, matrix size and element type, generates the graph on 1 core with --strategy preesm
#    (the sequential reference: PREESM's code with its memory scripts, the buffers they merge shared), builds it and runs it with CF_BENCH_ACTOR_TIMES=1: the actors' measured times become a PREESM
#    scenario (ns per firing; the target ns.target says the unit), as a PREESM user would give the planner;
# 3. generates the graph with that scenario (`cacheflow generate --scenario --target ns.target`) on 2 cores
#    with --strategy preesm (the reference), baseline, homeforward, auto and (not with --quick) prestore-demote (the channels of
#    homeforward, with the written slot lines demoted to the shared cache before each commit: the nearest
#    commodity analogue of home-forward stores); the planner maps by these times, and may choose 1 core where
#    two cannot win (its note, from `cacheflow plan`, is printed and saved next to the table);
# 4. builds each generated project (Release) against the matching runtime; the homeforward project twice,
#    once against each channel implementation ("homeforward" and "lamport");
# 5. runs measure.py: MD5 agreement of all variants (--validate), the actors' times in the sequential program
#    (Code/include/actor_timer.h, in the same rounds) and from them the bound the 2-core static schedule
#    allows, repeated interleaved runs timed by the sink actor (service time per task,
#    Code/include/stream_timer.h), a table,
#    and the CSV bench/results/home-forwarding.csv (the table is also saved next to it, with the machine
#    and its load average).
# --quick: the smallest size of each benchmark, integer elements, no demote variant, 5 runs (about a minute).
# --config "farm 128 int" (repeatable): only these configurations.
# --median: service time per task from the median of core 0's iterations (the programs' --time) instead of the
# sink's stream timer (a mean): iterations the host delayed are left aside (measure.py --measure median).
# Environment: CACHEFLOW (the command line tool; default ./cacheflow, built on first use), CF_JOBS (2),
# CF_BENCH_NO_NICE=1 (measure at normal priority; by default nice -10 where permitted), CF_BENCH_RT=1 (measure
# under SCHED_FIFO priority 1 with chrt, where permitted: other processes then preempt the measured programs
# only through the kernel's real-time throttling; for short runs on a shared machine -- it starves the others).
set -euo pipefail

. "$(dirname "$0")/../lib.sh" cmake python3
here=$bench_here
work="$here/build"
only=()
measure=mean
bench_option() {
    case "$1" in
        --config) only+=("$2") ;;
        --median) measure=median ;;
    esac
}
bench_options quick runs=9 '--config="BENCH SIZE TYPE"' --median -- "$@"
root=$bench_root
cacheflow=$bench_cacheflow
jobs=$bench_jobs
results=$bench_results
parallel=$(( jobs + 1 ))

# benchmark size type: the paper's sizes (farm 32..128, map 56..224), integer and float elements
variants=(sequential preesm baseline homeforward lamport auto homeforward-demote)
if [ "$quick" = 1 ]; then
    configurations=("farm 32 int" "map 56 int")
    runs=5
    variants=(sequential preesm baseline homeforward lamport auto)
else
    configurations=()
    for size in 32 64 128; do for type in int float; do configurations+=("farm $size $type"); done; done
    for size in 56 168 224; do for type in int float; do configurations+=("map $size $type"); done; done
fi
if [ ${#only[@]} -gt 0 ]; then configurations=("${only[@]}"); fi
farm_tasks=4 # tasks (matrices) per graph iteration: the single-rate graph has this many worker firings
map_parts=4  # row partitions per matrix: this many worker firings

# Iterations per timed run: about 2M matrix elements (farm) / 3M (map) per run (many short runs give steadier
# medians on a loaded machine than a few long ones), at least 400 iterations: a run starts with a transient that
# the stream timer's warm-up (the first tenth) must hold. Measured per iteration (map 224x224 int, 2026-11-27): the
# 2-core program's first 40-60 iterations run 30-60% slower than its steady state, the sequential program's first
# 10-20 up to 40% slower; with the former minimum of 100 (map 224x224, farm 128x128) most of the 2-core transient
# was inside the measured window: over 25 interleaved near rounds map 224x224 int ran 1.43x faster than
# sequential in runs of 100 iterations, 1.82x in runs of 400 and of 1000 (farm 128x128 float 1.79 / 1.90 / 1.84).
iterations_for() { # benchmark size
    local n
    if [ "$1" = farm ]; then n=$(( 2000000 / ($2 * $2 * farm_tasks) )); else n=$(( 3000000 / ($2 * $2) )); fi
    [ "$quick" = 1 ] && n=$(( n / 2 ))
    echo $(( n < 400 ? 400 : n ))
}

started=$(date +%s)
echo "== load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

echo "== runtime (Release): rdy-ack and Lamport channel implementations"
mkdir -p "$work"
for impl in rdyack lamport; do
    cmake -S "$root/runtime-c" -B "$work/runtime-$impl" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
        -DCF_BUILD_TESTS=OFF -DCF_BUILD_BENCH=OFF -DCF_CHANNEL_IMPL=$impl \
        -DCMAKE_INSTALL_PREFIX="$work/runtime-$impl/stage" >"$work/runtime-$impl.log" 2>&1 ||
        { mkdir -p "$work"; cat "$work/runtime-$impl.log"; die "runtime ($impl) does not configure"; }
    cmake --build "$work/runtime-$impl" -j "$jobs" >>"$work/runtime-$impl.log" 2>&1 ||
        { cat "$work/runtime-$impl.log"; die "runtime ($impl) does not build"; }
    cmake --install "$work/runtime-$impl" >/dev/null
done
# the placement probe measure.py runs before and after every round (probe/probe.c)
mkdir -p "$work/bin"
"${CC:-cc}" -O2 -pthread "$here/probe/probe.c" -o "$work/bin/probe" || die "probe/probe.c does not build"

echo "== generate (cacheflow generate) and build (Release), up to $parallel at a time"
plan="$work/plan.tsv"
rm -rf "$work/gen" "$work/failed"
mkdir -p "$work/gen" "$work/bin" "$work/failed"
: >"$plan"
# Generation and building come before any measurement, so they may run side by side: most of the time
# goes to starting the JVM and CMake, which leaves the cores idle.
throttle() { while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do sleep 0.2; done; }
finish() { # waits for the background jobs; prints the logs of failed ones and stops
    wait
    local failed
    failed=$(ls "$work/failed")
    if [ -n "$failed" ]; then
        for f in $failed; do cat "$(cat "$work/failed/$f")"; done
        die "failed: $failed"
    fi
}
generate() { # name bench strategy cores params...
    local name=$1 bench=$2 strategy=$3 cores=$4 out="$work/gen/$1-$3-$4"
    shift 4
    "$cacheflow" generate "$here/Algo/$bench.pi" --out "$out" --cores "$cores" --strategy "$strategy" \
        --sources "$here/Code/src/$bench" --include "$here/Code/include" "$@" >"$out.log" 2>&1 ||
        echo "$out.log" >"$work/failed/generate-$name-$strategy-$cores"
}
build_variant() { # generated-dir build-dir runtime-impl
    local log="$2.log"
    # a build folder configured from another generated project (an earlier run.sh) is started afresh
    if [ -f "$2/CMakeCache.txt" ] && ! grep -qxF "CMAKE_HOME_DIRECTORY:INTERNAL=$1" "$2/CMakeCache.txt"; then
        rm -rf "$2"
    fi
    { cmake -S "$1" -B "$2" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
          -Dcacheflow_DIR="$work/runtime-$3/stage/lib/cmake/cacheflow" >"$log" 2>&1 &&
      grep -q "installed package $work/runtime-$3/stage" "$log" &&
      cmake --build "$2" -j 1 >>"$log" 2>&1; } || echo "$log" >"$work/failed/build-$(basename "$2")"
}
if [ ! -x "$cacheflow" ] && ! command -v "$cacheflow" >/dev/null; then die "$cacheflow not found"; fi
"$cacheflow" generate --help >/dev/null # builds the tool once, before the parallel generations
if [ -z "${CACHEFLOW:-}" ]; then
    # ./cacheflow rebuilds the tool whenever a plug-in source is newer than its last build; with others
    # editing the tree, that could start several builds at once from the parallel generations below. So
    # the generations run a snapshot of the tool just built (its jars, launched as ./cacheflow launches them).
    rm -rf "$work/cli" && mkdir -p "$work/cli"
    for jar in "$root"/plugins/org.cacheflow.*/target/org.cacheflow.*-SNAPSHOT.jar \
               "$root"/plugins/org.cacheflow.cli/target/lib/*.jar; do
        case "$jar" in *-sources.jar|*-tests.jar) continue ;; esac
        cp "$jar" "$work/cli/"
    done
    cat >"$work/cli/cacheflow" <<LAUNCHER
#!/bin/sh
CACHEFLOW_HOME="$root" exec java ${CACHEFLOW_JAVA_OPTS:--Xss16m} -cp "\$(ls "$work/cli"/*.jar | tr '\\n' ':')" org.cacheflow.cli.Main "\$@"
LAUNCHER
    chmod +x "$work/cli/cacheflow"
    cacheflow="$work/cli/cacheflow"
fi
params_of() { # bench size type: the graph's --param options
    local elem_float
    elem_float=$([ "$3" = float ] && echo 1 || echo 0)
    if [ "$1" = farm ]; then echo "--param size=$2 --param tasks=$farm_tasks --param elemFloat=$elem_float"
    else echo "--param size=$2 --param parts=$map_parts --param elemFloat=$elem_float"; fi
}
# The sequential programs first: their actors' times are the scenario every 2-core variant is planned with.
for configuration in "${configurations[@]}"; do
    read -r bench size type <<<"$configuration"
    read -ra params <<<"$(params_of "$bench" "$size" "$type")"
    throttle
    generate "$bench-$size-$type" "$bench" preesm 1 "${params[@]}" &
done
finish
for configuration in "${configurations[@]}"; do
    read -r bench size type <<<"$configuration"
    throttle
    build_variant "$work/gen/$bench-$size-$type-preesm-1" "$work/bin/$bench-$size-$type-sequential" rdyack &
done
finish
echo "== the actors' times (the sequential program, CF_BENCH_ACTOR_TIMES=1) as scenarios, ns per firing"
# A PREESM user gives the planner the actors' measured times in a scenario; the farm's and map's actors time
# themselves (Code/include/actor_timer.h). ns.target tells the planner that the scenario's unit is 1 ns.
mkdir -p "$work/scenario"
for configuration in "${configurations[@]}"; do
    read -r bench size type <<<"$configuration"
    name="$bench-$size-$type"
    python3 "$here/measure.py" --scenario "$work/scenario/$name.scenario" --graph "$bench" \
        --exe "$work/bin/$name-sequential/$bench" --iterations "$(iterations_for "$bench" "$size")" \
        --probe "$work/bin/probe" ||
        die "no actor times from $work/bin/$name-sequential/$bench"
done
for configuration in "${configurations[@]}"; do
    read -r bench size type <<<"$configuration"
    name="$bench-$size-$type"
    read -ra params <<<"$(params_of "$bench" "$size" "$type")"
    params+=(--scenario "$work/scenario/$name.scenario" --target "$here/ns.target")
    generations=("preesm 2" "baseline 2" "homeforward 2" "auto 2")
    [ "$quick" = 1 ] || generations+=("prestore-demote 2")
    for generation in "${generations[@]}"; do
        read -r strategy cores <<<"$generation"
        throttle
        generate "$name" "$bench" "$strategy" "$cores" "${params[@]}" &
    done
    # the planner's choice of cores and why (the plan's notes), as `cacheflow plan` reports it
    throttle
    { "$cacheflow" plan "$here/Algo/$bench.pi" --cores 2 --strategy homeforward "${params[@]}" \
          >"$work/gen/$name.plan.txt" 2>"$work/gen/$name.plan.log" ||
          echo "$work/gen/$name.plan.log" >"$work/failed/plan-$name"; } &
done
finish
echo "   generated ${#configurations[@]} configurations x (preesm, baseline, homeforward, auto$([ "$quick" = 1 ] || echo ", prestore-demote") on 2 cores, planned with the measured times; preesm on 1 core)"
notes="$work/planner-notes.txt"
: >"$notes"
for configuration in "${configurations[@]}"; do
    read -r bench size type <<<"$configuration"
    { grep '^note: ' "$work/gen/$bench-$size-$type.plan.log" || echo "note: keeps 2 cores"; } |
        sed "s/^note: /   $bench ${size}x$size $type (homeforward): /" >>"$notes"
done
cat "$notes"
for configuration in "${configurations[@]}"; do
    read -r bench size type <<<"$configuration"
    name="$bench-$size-$type"
    for build in "preesm-2 preesm rdyack" "baseline-2 baseline rdyack" "homeforward-2 homeforward rdyack" \
                 "homeforward-2 lamport lamport" "auto-2 auto rdyack" "prestore-demote-2 homeforward-demote rdyack"; do
        read -r generated variant impl <<<"$build"
        [ -d "$work/gen/$name-$generated" ] || continue
        throttle
        build_variant "$work/gen/$name-$generated" "$work/bin/$name-$variant" "$impl" &
    done
    tasks=$([ "$bench" = farm ] && echo "$farm_tasks" || echo 1)
    iterations=$(iterations_for "$bench" "$size")
    for variant in "${variants[@]}"; do
        cores=$([ "$variant" = sequential ] && echo 1 || echo 2)
        case "$variant" in
            sequential) generated=preesm-1 ;; preesm) generated=preesm-2 ;; baseline) generated=baseline-2 ;;
            homeforward-demote) generated=prestore-demote-2 ;; auto) generated=auto-2 ;; *) generated=homeforward-2 ;;
        esac
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$bench" "$size" "$type" "$variant" "$cores" "$tasks" \
            "$iterations" "$work/bin/$name-$variant/$bench" "$work/gen/$name-$generated" >>"$plan"
    done
done
finish
echo "   built $(wc -l <"$plan") programs (runtime: Lamport for lamport, rdy-ack for the others)"

echo "== measure: $runs interleaved runs per variant"
mkdir -p "$results"
suffix=$([ "$quick" = 1 ] && echo "-quick" || echo "")
[ ${#only[@]} -eq 0 ] || suffix="$suffix-selected"
csv="$results/home-forwarding$suffix.csv"
table="$results/home-forwarding$suffix.txt"
# The machine is shared: where allowed, the measured programs run at a higher priority than the other
# users' builds (nice -10), so that they are not descheduled at every wait. Said in the saved table.
priority=()
niceness=0
if [ -z "${CF_BENCH_NO_NICE:-}" ] && nice -n -10 true 2>/dev/null; then priority=(nice -n -10); niceness=-10; fi
if [ -n "${CF_BENCH_RT:-}" ] && chrt -f 1 true 2>/dev/null; then priority=(chrt -f 1); niceness="SCHED_FIFO 1 (chrt)"; fi
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
"${priority[@]}" python3 "$here/measure.py" "$plan" --runs "$runs" --csv "$csv" --probe "$work/bin/probe" --scenarios "$work/scenario" --measure "$measure" | tee "$table.tmp"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
{
    echo "# bench/home-forwarding/run.sh$([ "$quick" = 1 ] && echo " --quick")$([ "$measure" = median ] && echo " --median") ($runs runs), $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "# machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) CPUs; kernel $(uname -r)"
    echo "# load average (1, 5, 15 min) before measuring: $load_before; after: $load_after"
    echo "# generated code: 2 cores (threads pinned to CPU 0 and 1); sequential: 1 core; niceness of the measured programs: $niceness"
    echo "# the planner's notes (cacheflow plan --strategy homeforward, with the measured actor times):"
    sed 's/^   /# /' "$notes"
    cat "$table.tmp"
} >"$table"
rm -f "$table.tmp"
echo "load average before measuring: $load_before; after: $load_after"
echo "table: $table"
echo "total time: $(( $(date +%s) - started )) s"
