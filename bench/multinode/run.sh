#!/usr/bin/env bash
# Multi-node generation over MPI: the bundled stereo example and the farm benchmark of
# bench/home-forwarding on 1 node x 2 cores against 2 nodes x 1 core, both on this machine (Open MPI between
# two processes of one machine: its shared-memory transport, the "loopback" case), in one command:
#   bench/multinode/run.sh [--quick] [--runs N] [--iterations N]
# 1. plans every graph on both platforms with `cacheflow plan --json --nodes N --cores C`: the bytes each
#    iteration sends between nodes and the planner's predicted time of an iteration;
# 2. generates each with `cacheflow generate --nodes N --cores C`, with --strategy preesm (PREESM's generated code
#    with its memory scripts, the reference) and auto, builds it (Release, bundled runtime; CMake finds MPI for the
#    2-node programs) and checks that all programs print the same sink digests (--validate; the 2-node programs
#    under mpirun -np 2);
# 3. runs the programs interleaved, round by round (the 2-node one under mpirun -np 2 --oversubscribe
#    --bind-to none: its processes keep to CPUs of their own, as the program places them); time
#    per iteration = wall time of a run of 3 + N iterations minus one of 3, so that start-up (MPI's included)
#    and tear-down cancel; prints a table (median and min-max per program, its speed-up against preesm on the
#    same platform in the same round, the planner's prediction, and 2-node/1-node ratios measured and predicted,
#    unit-free) and the CSV bench/results/multinode[-quick].csv
#    (the table is saved next to it, with the machine and its load average).
# --quick: 3 rounds of 10 stereo iterations (farm: 500 times as many), farm matrices of 64 (default: 7 rounds of
# 40, matrices of 128); --iterations N sets the stereo iterations (the farm's, 500 N: an iteration of the farm takes
# well under a millisecond, and mpirun's start-up varies by more than that).
# Environment: CACHEFLOW (default ./cacheflow), CF_JOBS (2), MPIRUN (default mpirun).
# The machine is shared: compare the ratios of one run, not absolute times across runs.
set -euo pipefail

. "$(dirname "$0")/../lib.sh" cmake python3
here=$bench_here
mpirun=${MPIRUN:-mpirun}
work="$here/build"
farm_size=128
bench_quick() { runs=3; iterations=10; farm_size=64; }
bench_options quick runs=7 iterations=40 -- "$@"
root=$bench_root
cacheflow=$bench_cacheflow
jobs=$bench_jobs
results=$bench_results
need "$mpirun" "Debian: apt-get install openmpi-bin libopenmpi-dev"
# two MPI processes on a machine of any size, not bound to cores by Open MPI; Open MPI refuses root unless told
mpi=("$mpirun" --oversubscribe --bind-to none -np 2)
if [ "$(id -u)" = 0 ]; then mpi+=(--allow-run-as-root); fi

started=$(date +%s)
rm -rf "$work" && mkdir -p "$work" "$results"
hf="$root/bench/home-forwarding"
# graph: input and options of plan and generate (the actors' code for generate only)
graphs=(stereo farm)
# the stereo scenario's timings are microseconds: its target says so (timing.ns), for the network model
inputs_stereo=("$root/examples/stereo" --target "$here/stereo.target")
code_stereo=(--sources "$root/examples/stereo/Code/src" --include "$root/examples/stereo/Code/include")
farm_params=(--param "size=$farm_size" --param tasks=4 --param elemFloat=0)
code_farm=(--sources "$hf/Code/src/farm" --include "$hf/Code/include")
# the farm has no scenario: its actors' times are measured first (step 0), and the planner gets them in one
inputs_farm=("$hf/Algo/farm.pi" --scenario "$work/farm.scenario" "${farm_params[@]}")
platforms=("1 2" "2 1") # nodes cores-per-node
strategies=(preesm auto) # the reference first

# Pinning as the programs do it: the 1-node program's threads on CPUs 0 and 1; the processes of the 2-node
# program, sharing this machine, each on a CPU of its own.
run_program() { # graph nodes cores strategy args...: runs it (under mpirun on several nodes), output to stdout
    local graph=$1 nodes=$2 cores=$3 strategy=$4
    shift 4
    local exe="$work/$graph-${nodes}x$cores-$strategy/build/$graph"
    if [ "$nodes" -gt 1 ]; then "${mpi[@]}" "$exe" "$@"; else "$exe" "$@"; fi
}

echo "== timings of the farm's actors: the sequential program (1 node x 1 core), CF_BENCH_ACTOR_TIMES=1"
# A PREESM scenario's timings are measured actor times; the farm's actors time themselves (Code/include/
# actor_timer.h). They become a scenario in nanoseconds (the planner's network model's unit).
"$cacheflow" generate "$hf/Algo/farm.pi" "${farm_params[@]}" --out "$work/farm-timing" --cores 1 \
    --strategy baseline "${code_farm[@]}" >"$work/farm-timing.log" 2>&1 &&
    cmake -S "$work/farm-timing" -B "$work/farm-timing/build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
        -DCACHEFLOW_BUNDLED_RUNTIME=ON >>"$work/farm-timing.log" 2>&1 &&
    cmake --build "$work/farm-timing/build" -j "$jobs" >>"$work/farm-timing.log" 2>&1 ||
    { tail -30 "$work/farm-timing.log"; die "building the farm's timing program failed"; }
# the same scenario writer as the home-forwarding benchmark (its measure.py): each actor's median over 7 runs
python3 "$hf/measure.py" --scenario "$work/farm.scenario" --graph farm --exe "$work/farm-timing/build/farm" \
    --iterations 2000 || die "no actor times from $work/farm-timing/build/farm"

echo "== plan and generate (cacheflow plan --json, cacheflow generate), build (Release)"
plans="$work/plans.tsv"
: >"$plans"
for graph in "${graphs[@]}"; do
    declare -n inputs="inputs_$graph" code="code_$graph"
    for platform in "${platforms[@]}"; do
      for strategy in "${strategies[@]}"; do
        read -r nodes cores <<<"$platform"
        name="$graph-${nodes}x$cores-$strategy"
        "$cacheflow" plan "${inputs[@]}" --json --nodes "$nodes" --cores "$cores" --strategy "$strategy" \
            >"$work/$name.plan.json" \
            2>"$work/$name.plan.log" || { cat "$work/$name.plan.log"; die "planning $name failed"; }
        read -r cut predicted < <(python3 - "$work/$name.plan.json" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
# one node: no "partition"; nothing is sent and the prediction is the schedule's makespan
partition = plan.get("partition") or {}
print(partition.get("bytesSent", 0), partition.get("predictedTime", plan["schedule"]["makespan"]))
PY
        )
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$graph" "$nodes" "$cores" "$strategy" "$cut" "$predicted" >>"$plans"
        "$cacheflow" generate "${inputs[@]}" --out "$work/$name" --nodes "$nodes" --cores "$cores" \
            --strategy "$strategy" "${code[@]}" \
            >"$work/$name.log" 2>&1 || { cat "$work/$name.log"; die "generating $name failed"; }
        { cmake -S "$work/$name" -B "$work/$name/build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
              -DCACHEFLOW_BUNDLED_RUNTIME=ON >>"$work/$name.log" 2>&1 &&
          cmake --build "$work/$name/build" -j "$jobs" >>"$work/$name.log" 2>&1; } ||
            { tail -30 "$work/$name.log"; die "building $name failed"; }
        [ -x "$work/$name/build/$graph" ] || die "$name: no program $work/$name/build/$graph"
      done
    done
    unset -n inputs code
done

echo "== validate: the same sink digests on 1 node and on 2, preesm and auto"
for graph in "${graphs[@]}"; do
    reference=
    for platform in "${platforms[@]}"; do
      for strategy in "${strategies[@]}"; do
        read -r nodes cores <<<"$platform"
        digest=$(run_program "$graph" "$nodes" "$cores" "$strategy" --iterations 2 --validate 2>>"$work/runs.log" |
            grep ' : ' | grep -v '^stats:' | sort || true)
        [ -n "$digest" ] || die "$graph on $nodes x $cores ($strategy) printed no digest"
        if [ -z "$reference" ]; then reference=$digest
        elif [ "$digest" != "$reference" ]; then
            die "$graph: the digests on $nodes x $cores ($strategy) differ:\n$digest\nvs\n$reference"
        fi
      done
    done
    echo "   $graph: digests agree"
done

iterations_stereo=$iterations
iterations_farm=$(( iterations * 500 ))
echo "== measure: $runs interleaved rounds of $iterations_stereo (stereo) and $iterations_farm (farm) iterations"
wall() { # graph nodes cores strategy iterations: nanoseconds
    local start end
    start=$(date +%s%N)
    run_program "$1" "$2" "$3" "$4" --iterations "$5" >/dev/null 2>>"$work/runs.log" || { tail -5 "$work/runs.log" >&2; return 1; }
    end=$(date +%s%N)
    echo $(( end - start ))
}
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
raw="$work/times.tsv"
: >"$raw"
for round in $(seq 1 "$runs"); do
    for graph in "${graphs[@]}"; do
        declare -n n="iterations_$graph"
        for platform in "${platforms[@]}"; do
          for strategy in "${strategies[@]}"; do
            read -r nodes cores <<<"$platform"
            short=$(wall "$graph" "$nodes" "$cores" "$strategy" 3) &&
                long=$(wall "$graph" "$nodes" "$cores" "$strategy" $(( 3 + n ))) ||
                die "$graph on $nodes x $cores ($strategy) failed"
            printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$graph" "$nodes" "$cores" "$strategy" "$n" \
                "$(python3 -c "print(($long - $short) / 1e9)")" >>"$raw"
          done
        done
        unset -n n
    done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

suffix=$([ "$quick" = 1 ] && echo "-quick" || echo "")
csv="$results/multinode$suffix.csv"
table="$results/multinode$suffix.txt"
python3 - "$raw" "$plans" "$csv" "$farm_size" <<'PY' | tee "$table.tmp"
import csv, statistics, sys
raw, plans, out, farm_size = sys.argv[1:5]
REFERENCE = "preesm"  # PREESM's generated code with its memory scripts, on the same platform
sizes = {"stereo": "scenario 2core", "farm": f"{farm_size}x{farm_size} int"}
times = {}  # (graph, nodes, cores, strategy) -> {round: ms per iteration}
for line in open(raw):
    run, graph, nodes, cores, strategy, iterations, seconds = line.split()
    times.setdefault((graph, int(nodes), int(cores), strategy), {})[int(run)] = float(seconds) * 1e3 / int(iterations)
planned = {}
for line in open(plans):
    graph, nodes, cores, strategy, cut, predicted = line.split()
    planned[(graph, int(nodes), int(cores), strategy)] = (int(cut), int(predicted))
rows = []
print(f"{'graph':<7} {'platform':<18} {'strategy':<8} {'bytes/iter between nodes':>24} {'ms/iteration':>12} "
      f"{'min-max':>17} {'vs preesm (min-max)':>20} {'predicted (time units)':>22}")
for key in times:
    graph, nodes, cores, strategy = key
    t = list(times[key].values())
    m, lo, hi = statistics.median(t), min(t), max(t)
    reference = times.get((graph, nodes, cores, REFERENCE))
    if reference is None:
        sys.exit(f"multinode: no {REFERENCE} program of {graph} on {nodes} x {cores}")
    speedup = sorted(reference[r] / times[key][r] for r in times[key] if r in reference)
    s = statistics.median(speedup)
    cut, predicted = planned[key]
    platform = f"{nodes} node{'s' if nodes > 1 else ''} x {cores} core{'s' if cores > 1 else ''}"
    print(f"{graph:<7} {platform:<18} {strategy:<8} {cut:>24} {m:12.4f} {f'{lo:.4f}-{hi:.4f}':>17} "
          f"{f'{s:.2f}x ({speedup[0]:.2f}-{speedup[-1]:.2f})':>20} {predicted:>22}")
    common = dict(benchmark=graph, variant=f"{nodes}x{cores} {strategy}", size=sizes[graph], nodes=nodes,
                  cores_per_node=cores)
    rows.append(dict(common, metric="time_per_iteration", median=f"{m:.4g}", low=f"{lo:.4g}", high=f"{hi:.4g}",
                     unit="ms", runs=len(t)))
    rows.append(dict(common, metric="speedup_vs_preesm", median=f"{s:.4g}", low=f"{speedup[0]:.4g}",
                     high=f"{speedup[-1]:.4g}", unit="x", runs=len(speedup)))
    rows.append(dict(common, metric="bytes_between_nodes", median=cut, low=cut, high=cut, unit="bytes/iteration",
                     runs=1))
    rows.append(dict(common, metric="predicted_time", median=predicted, low=predicted, high=predicted,
                     unit="scenario time units", runs=1))
print()
print("2 nodes x 1 core against 1 node x 2 cores (ratios of medians; >1: slower on 2 nodes):")
for graph, strategy in dict.fromkeys((k[0], k[3]) for k in times):
    one, two = (graph, 1, 2, strategy), (graph, 2, 1, strategy)
    if one in times and two in times:
        measured = statistics.median(times[two].values()) / statistics.median(times[one].values())
        p1, p2 = planned[one][1], planned[two][1]
        predicted = f"{p2 / p1:.2f}" if p1 > 0 else "unknown"
        print(f"  {graph:<7} {strategy:<8} measured {measured:.2f}, predicted {predicted}")
with open(out, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=["benchmark", "variant", "size", "metric", "median", "low", "high", "unit",
                                      "nodes", "cores_per_node", "runs"])
    w.writeheader()
    w.writerows(rows)
print(f"\nCSV: {out.rsplit('/', 1)[-1]} ({len(rows)} rows)")
PY
{
    echo "# bench/multinode/run.sh$([ "$quick" = 1 ] && echo " --quick") ($runs rounds of $iterations_stereo stereo and $iterations_farm farm iterations; farm matrices of $farm_size), $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "# machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) CPUs; $("$mpirun" --version 2>/dev/null | head -1)"
    echo "# load average (1, 5, 15 min) before measuring: $load_before; after: $load_after"
    cat "$table.tmp"
} >"$table"
rm -f "$table.tmp"
echo "load average before measuring: $load_before; after: $load_after"
echo "table: $table"
echo "total time: $(( $(date +%s) - started )) s"
