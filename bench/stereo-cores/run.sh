#!/usr/bin/env bash
# The bundled stereo example (examples/stereo) on 2 cores against its own 1-core program, in one command:
#   bench/stereo-cores/run.sh [--quick] [--runs N] [--iterations N] [--strategy S]...
# Generates examples/stereo with `cacheflow generate` on 1 core (strategy auto: the target's reference, its own 1-core time, and
# preesm: the fair one, PREESM's code with its memory scripts) and on 2 cores
# with each strategy (default: auto, the rdy-ack flags of every strategy but the baseline and preesm, preesm, PREESM's
# code with its memory scripts on 2 cores, the reference the 2-core speed-ups are given against, and baseline,
# PREESM's plain copies, semaphores and barrier), builds them (Release, bundled runtime), checks that all print the same
# sink digests (--validate), then runs them interleaved, round by round (every other round in reverse order), each
# run with --time, and prints the time per graph iteration (the median of the run's iterations, core 0's loop start
# to start: iterations the host slowed down are left aside; and the run's mean), the speed-up over 1 core per round
# (median, min-max; against 1-core auto, also within the rounds a placement probe before and after found in one
# placement -- "shared" (the two vCPUs are one physical core's two hardware threads), "near" or "far" --, within the rounds where the 1-core program ran in its fast or its slow state -- within 15% of its
# fastest round or not --, within the near rounds where the 1-core and the 2-core program ran in the same state
# -- each judged against its own fastest round: the state is the host's, both programs have it --, and against
# 1-core preesm; and against 2-core preesm), and
# a CSV: bench/results/stereo-cores[-quick].csv (table saved next to it with the load).
# --strategy S+OVERRIDE generates S with --override OVERRIDE (e.g. auto+pipelining=off: the planner's software
# pipelining off); S@POLICY with --policy POLICY (e.g. auto@load: the load mapping; both: auto@load+pipelining=off). --quick: 3 rounds of 10 iterations (default 7 of 20). Environment: CACHEFLOW (default ./cacheflow), CF_JOBS (2),
# CF_BENCH_RT=1: the measured programs run under SCHED_FIFO priority 1 (chrt; short runs only, it starves the
# machine's other users), else at nice -10 where permitted.
set -euo pipefail

. "$(dirname "$0")/../lib.sh" cmake
here=$bench_here
work="$here/build"
strategies=()
bench_quick() { runs=3; iterations=10; suffix=-quick; }
bench_option() { strategies+=("$2"); } # --strategy S
bench_options quick runs=7 iterations=20 '--strategy=a name' -- "$@"
[ ${#strategies[@]} -gt 0 ] || strategies=(auto preesm baseline)
root=$bench_root
cacheflow=$bench_cacheflow
jobs=$bench_jobs
results=$bench_results

started=$(date +%s)
mkdir -p "$work" "$results"
variants=("1 auto" "1 preesm")
for strategy in "${strategies[@]}"; do variants+=("2 $strategy"); done
for variant in "${variants[@]}"; do
    read -r cores strategy <<<"$variant"
    name="stereo-$cores-$strategy"
    echo "== generate and build $name"
    # S+OVERRIDE: strategy S with --override OVERRIDE (e.g. auto+pipelining=off)
    extra=()
    base=${strategy%%+*}
    [[ "$strategy" == *+* ]] && extra+=(--override "${strategy#*+}")
    [[ "$base" == *@* ]] && extra+=(--policy "${base#*@}")
    "$cacheflow" generate "$root/examples/stereo" --out "$work/$name" --cores "$cores" --strategy "${base%%@*}" \
        "${extra[@]}" --sources "$root/examples/stereo/Code/src" --include "$root/examples/stereo/Code/include" \
        >"$work/$name.log" 2>&1 || { cat "$work/$name.log"; die "generation of $name failed"; }
    { cmake -S "$work/$name" -B "$work/$name/build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
          -DCACHEFLOW_BUNDLED_RUNTIME=ON >>"$work/$name.log" 2>&1 &&
      cmake --build "$work/$name/build" -j "$jobs" >>"$work/$name.log" 2>&1; } ||
        { tail -30 "$work/$name.log"; die "build of $name failed"; }
done

program() { echo "$work/stereo-$1/build/stereo"; }
timed() { # timed <variant> <iterations>: "<mean ms> <median ms>" per iteration, from the program's --time
    local out
    out=$("${priority[@]}" "$(program "$1")" --iterations "$2" --time) || return 1
    python3 -c '
import re, sys
text, n = sys.argv[1], int(sys.argv[2])
total = float(re.search(r"^time: ([0-9.]+) s", text, re.M).group(1))
m = re.search(r"median ([0-9.]+) (ms|us)", text)
median = float(m.group(1)) / (1e3 if m.group(2) == "us" else 1)
print(f"{total * 1e3 / n:.4f} {median:.4f}")' "$out" "$2"
}
echo "== validate"
reference=
for variant in "${variants[@]}"; do
    read -r cores strategy <<<"$variant"
    digest=$("$(program "$cores-$strategy")" --iterations 2 --validate | grep ' : ' | grep -v '^stats:' || true)
    [ -n "$digest" ] || die "stereo-$cores-$strategy printed no digest"
    if [ -z "$reference" ]; then reference=$digest
    elif [ "$digest" != "$reference" ]; then die "stereo-$cores-$strategy digests differ:\n$digest\nvs\n$reference"; fi
done
echo "   digests agree (${#variants[@]} programs)"

echo "== measure: $runs interleaved rounds of $iterations iterations"
priority=()
niceness=0
if nice -n -10 true 2>/dev/null; then priority=(nice -n -10); niceness=-10; fi
if [ -n "${CF_BENCH_RT:-}" ] && chrt -f 1 true 2>/dev/null; then priority=(chrt -f 1); niceness="SCHED_FIFO 1 (chrt)"; fi
# The placement probe (bench/home-forwarding/probe): this VM's two vCPUs move between placements within seconds --
# "shared" (one physical core's two hardware threads: two vCPUs give about one core's arithmetic), "near" and "far"
# (two cores) -- and stereo's times move with them (the 1-core program too: 42-54 ms against 66-79 ms in one run,
# fast when it has a whole core to itself); every round is bracketed by the probe and counts for a placement only
# when both probes agree.
probe="$work/probe"
"${CC:-cc}" -O2 -pthread "$here/../home-forwarding/probe/probe.c" -o "$probe" || die "the placement probe does not build"
# the probe's output, kept per round and read by measure.py's parse_probe
probed() { "$probe" >"$1" || die "the placement probe failed"; }
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
raw="$work/times.tsv"
: >"$raw"
for round in $(seq 1 "$runs"); do
    probed "$work/probe-$round-before.txt"
    # odd rounds run the variants in order, even rounds in reverse (ABBA): a host that slows down or speeds up
    # during a round (its phases last seconds) favours no variant over two rounds
    order=("${variants[@]}")
    if (( round % 2 == 0 )); then
        order=()
        for (( i = ${#variants[@]} - 1; i >= 0; i-- )); do order+=("${variants[$i]}"); done
    fi
    for variant in "${order[@]}"; do
        read -r cores strategy <<<"$variant"
        times=$(timed "$cores-$strategy" "$iterations") || die "stereo-$cores-$strategy failed"
        printf '%s\t%s\t%s\t%s\t%s\n' "$round" "$cores" "$strategy" ${times} >>"$raw"
    done
    probed "$work/probe-$round-after.txt"
    printf '%s\tprobe\tprobe-%s-before.txt\tprobe-%s-after.txt\n' "$round" "$round" "$round" >>"$raw"
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
table="$results/stereo-cores${suffix:-}.txt"
python3 - "$raw" "$results/stereo-cores${suffix:-}.csv" "$here/../home-forwarding" <<'PY' | tee "$table.tmp"
import csv, os, statistics, sys
raw, out = sys.argv[1], sys.argv[2]
sys.path.insert(0, sys.argv[3])
# the placement classes and the 1-core program's fast/slow state, as the farm/map benchmark defines them
from measure import (NEAR_LIMIT_NS, ONE_STATE, PLACEMENTS, SHARED_LIMIT, STATE_MARGIN, matched_rounds, parse_probe,
                     placement_of, speed_states)
MEASURES = {"median": "median of the run's iterations", "mean": "the run's mean"}
rounds, placement = {}, {}
for line in open(raw):
    fields = line.split()
    r = int(fields[0])
    if fields[1] == "probe":  # the probe's output before and after the round (files next to this one)
        placement[r] = placement_of(*(parse_probe(open(os.path.join(os.path.dirname(raw), f)).read())
                                      for f in fields[2:4]))
        continue
    rounds.setdefault(r, {})[(int(fields[1]), fields[2])] = {"mean": float(fields[3]), "median": float(fields[4])}
variants = list(next(iter(rounds.values())).keys())
one = (1, "auto")    # the target's reference: the example's own 1-core program
fair = (1, "preesm")  # the fair one: PREESM's code with its memory scripts (the buffers they merge shared), on one core
reference = (2, "preesm")  # PREESM's code with its memory scripts on the 2 cores: the 2-core reference
rows = []
def summary(values):
    return (f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})" if values else "-")
for measure, meaning in MEASURES.items():
    print(f"ms per iteration: {meaning}")
    print(f"{'cores':>5} {'strategy':<20} {'ms/iteration':>12} {'min-max':>15} {'vs 1 core auto':>20}"
          f" {'vs 1 core preesm':>20} {'vs 2 core preesm':>20}" + "".join(f" {p + ' rounds':>20}" for p in PLACEMENTS))
    states_line = []
    # the 1-core reference's own state: the host runs it 1.3-1.6x slower for seconds at a time (bench/RESULTS.md)
    order = sorted(rounds)
    state = dict(zip(order, speed_states([rounds[r][one][measure] for r in order])))
    matched_line = []
    for v in variants:
        times = [rounds[r][v][measure] for r in sorted(rounds)]
        ratio = {r: rounds[r][one][measure] / rounds[r][v][measure] for r in rounds}
        speedups = [ratio[r] for r in sorted(rounds)]
        by = {p: [ratio[r] for r in sorted(rounds) if placement.get(r) == p] for p in PLACEMENTS}
        m, lo, hi = statistics.median(times), min(times), max(times)
        sm, slo, shi = statistics.median(speedups), min(speedups), max(speedups)
        against_fair = [rounds[r][fair][measure] / rounds[r][v][measure] for r in sorted(rounds)]
        against_reference = ([rounds[r][reference][measure] / rounds[r][v][measure] for r in sorted(rounds)]
                             if reference in variants else [])
        print(f"{v[0]:>5} {v[1]:<20} {m:12.2f} {f'{lo:.2f}-{hi:.2f}':>15} {f'{sm:.2f} ({slo:.2f}-{shi:.2f})':>20}"
              f" {summary(against_fair):>20} {summary(against_reference):>20}" + "".join(f" {summary(by[p]):>20}" for p in PLACEMENTS))
        common = dict(cores=v[0], strategy=v[1], measure=measure)
        rows.append(dict(common, metric="time_per_iteration", median=f"{m:.4g}", low=f"{lo:.4g}", high=f"{hi:.4g}",
                         unit="ms", runs=len(times), placement="all"))
        rows.append(dict(common, metric="speedup_vs_1_core", median=f"{sm:.4g}", low=f"{slo:.4g}",
                         high=f"{shi:.4g}", unit="x", runs=len(times), placement="all"))
        rows.append(dict(common, metric="speedup_vs_1_core_preesm", median=f"{statistics.median(against_fair):.4g}",
                         low=f"{min(against_fair):.4g}", high=f"{max(against_fair):.4g}", unit="x",
                         runs=len(times), placement="all"))
        if against_reference:
            rows.append(dict(common, metric="speedup_vs_preesm", median=f"{statistics.median(against_reference):.4g}",
                             low=f"{min(against_reference):.4g}", high=f"{max(against_reference):.4g}", unit="x",
                             runs=len(times), placement="all"))
        for s in ("fast", "slow"):
            by[f"{s}_reference"] = [ratio[r] for r in sorted(rounds) if state[r] == s]
        if v != one:
            states_line.append(f"{v[0]} {v[1]} {summary(by['fast_reference'])} / {summary(by['slow_reference'])}")
            # within the near rounds where this program and the 1-core one ran in the same host state, each judged
            # against its own fastest round (measure.py's matched_rounds: the state is the host's, both have it)
            mine = speed_states(times)
            matched = [order[i] for i in matched_rounds([state[r] for r in order], mine)
                       if placement.get(order[i]) == "near"]
            by["matched_state"] = [ratio[r] for r in matched]
            fast = sum(1 for r in matched if state[r] == "fast")
            matched_line.append(f"{v[0]} {v[1]} {summary(by['matched_state'])} in {len(matched)} ({fast} both fast)"
                                if matched else f"{v[0]} {v[1]} - ("
                                + ("it ran in one state)" if ONE_STATE in mine else "no round)"))
        for p, values in by.items():
            if values:
                rows.append(dict(common, metric="speedup_vs_1_core", median=f"{statistics.median(values):.4g}",
                                 low=f"{min(values):.4g}", high=f"{max(values):.4g}", unit="x", runs=len(values),
                                 placement=p))
    counts_state = {s: sum(1 for x in state.values() if x == s) for s in ("fast", "slow")}
    if all(x == ONE_STATE for x in state.values()):
        print(f"the 1-core program ran in one state (every round within {STATE_MARGIN:.0%} of its fastest): rounds"
              f" not split by its state")
    else:
        print(f"speed-up vs 1 core auto in the rounds it ran fast ({counts_state['fast']}: within {STATE_MARGIN:.0%}"
              f" of its fastest) / slow ({counts_state['slow']}): " + "; ".join(states_line))
        print(f"speed-up vs 1 core auto within the near rounds where both ran in the same state (each within"
              f" {STATE_MARGIN:.0%} of its own fastest round, or both not): " + "; ".join(matched_line))
    print()
counts = {p: sum(1 for x in placement.values() if x == p) for p in PLACEMENTS + ("mixed",)}
print(f"rounds by vCPU placement (probe before and after; shared: core sharing {SHARED_LIMIT} or more, else near "
      f"below {NEAR_LIMIT_NS:.0f} ns one-way): {counts}")
with open(out, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
    w.writeheader()
    w.writerows(rows)
print(f"\nCSV: {out.rsplit('/', 1)[-1]} ({len(rows)} rows); speed-ups are taken per round, then summarised.")
PY
{
    echo "# bench/stereo-cores/run.sh ($runs rounds of $iterations iterations), $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "# machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) CPUs"
    echo "# load average (1, 5, 15 min) before measuring: $load_before; after: $load_after; priority: $niceness"
    cat "$table.tmp"
} >"$table"
rm -f "$table.tmp"
echo "load average before measuring: $load_before; after: $load_after"
echo "total time: $(( $(date +%s) - started )) s"
