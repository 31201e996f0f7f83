#!/usr/bin/env bash
# cow-unannotated, the corpus stereo's shape: bench/cow-unannotated/weights (a graph and actors written for this
# benchmark) has what the copy-on-write paper's stereo application has and the bundled example has not -- a
# data-parallel actor (ComputeWeights, one firing per slice) computing one merged memory on both cores, broadcast
# whole to every disparity's aggregation. Generates it on 2 cores as written (READ_ONLY: PREESM's memory scripts
# share everything) and without its READ_ONLY annotations (derived in the work folder; the aggregation may then
# write, so merging cannot share the weights), builds every program (Release), checks that all print the same sink
# digests (--validate), then runs them interleaved, round by round (every other round in reverse order), each
# bracketed by the placement probe:
#   bench/cow-unannotated/weights.sh [--quick] [--runs N] [--iterations N]
# Prints per program: time per iteration (median over the rounds of each run's median iteration, min-max), the
# speed-up against preesm (PREESM's generated code with its memory scripts, the reference) of the same graph in the
# same round and against baseline (its plain copies, the second reference), bytes copied and streamed per iteration
# (% of baseline's), copy-on-write pages shared / faulted per iteration per core; then the checks: unannotated auto
# within 1.1x of annotated preesm (what PREESM gives when the graph is annotated by hand), and auto against the best
# fixed strategy of each variant.
# Writes bench/results/cow-unannotated-weights[-quick].csv and .txt. --quick: 3 rounds of 3 iterations (default 9 of
# 6). Environment: CACHEFLOW (default ./cacheflow), CF_JOBS (2), CF_BENCH_RT=1 (SCHED_FIFO 1 via chrt).
set -euo pipefail

. "$(dirname "$0")/../lib.sh" cmake python3
here=$bench_here
work="$here/build/weights"
name=cow-unannotated-weights
bench_quick() { runs=3; iterations=3; name=cow-unannotated-weights-quick; }
bench_options quick runs=9 iterations=6 -- "$@"
root=$bench_root
cacheflow=$bench_cacheflow
jobs=$bench_jobs
results=$bench_results

started=$(date +%s)
rm -rf "$work"
mkdir -p "$work" "$results"
# the two projects: as written, and without READ_ONLY (made NONE)
cp -r "$here/weights" "$work/annotated"
cp -r "$here/weights" "$work/unannotated"
sed -i 's/annotation="READ_ONLY"/annotation="NONE"/' "$work/unannotated/Algo/weights.pi"
variants=("annotated preesm" "annotated baseline" "annotated alias" "annotated cow" "annotated auto"
          "unannotated preesm" "unannotated baseline" "unannotated alias" "unannotated ntm" "unannotated cow"
          "unannotated auto")
for variant in "${variants[@]}"; do
    read -r graph strategy <<<"$variant"
    out="$work/$graph-$strategy"
    echo "== generate and build $graph $strategy" >&2
    "$cacheflow" generate "$work/$graph/Algo/weights.pi" --out "$out" --cores 2 --strategy "$strategy" \
        --sources "$work/$graph/Code/src" --include "$work/$graph/Code/include" >"$out.log" 2>&1 ||
        { cat "$out.log"; die "generation of $graph $strategy failed"; }
    { cmake -S "$out" -B "$out/build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release >>"$out.log" 2>&1 &&
      cmake --build "$out/build" -j "$jobs" >>"$out.log" 2>&1; } || { tail -30 "$out.log"; die "build of $graph $strategy failed"; }
done
program() { echo "$work/$1-$2/build/weights"; }

echo "== validate" >&2
reference=
for variant in "${variants[@]}"; do
    read -r graph strategy <<<"$variant"
    "$(program "$graph" "$strategy")" --iterations "$iterations" --validate >"$work/$graph-$strategy.validate" ||
        die "$graph $strategy failed"
    digest=$(grep ' : ' "$work/$graph-$strategy.validate" | grep -v '^stats' || true)
    [ -n "$digest" ] || die "$graph $strategy printed no digest"
    if [ -z "$reference" ]; then reference=$digest
    elif [ "$digest" != "$reference" ]; then die "$graph $strategy prints other digests:\n$digest\nvs\n$reference"; fi
done
echo "   digests agree (${#variants[@]} programs)" >&2

priority=()
if nice -n -10 true 2>/dev/null; then priority=(nice -n -10); fi
if [ -n "${CF_BENCH_RT:-}" ] && chrt -f 1 true 2>/dev/null; then priority=(chrt -f 1); fi
probe="$work/probe"
"${CC:-cc}" -O2 -pthread "$here/../home-forwarding/probe/probe.c" -o "$probe" || die "the placement probe does not build"
echo "== measure: $runs interleaved rounds of $iterations iterations" >&2
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
raw="$work/times.tsv"
: >"$raw"
for round in $(seq 1 "$runs"); do
    "$probe" >"$work/probe-$round-before.txt" || die "the placement probe failed"
    order=("${variants[@]}")
    if (( round % 2 == 0 )); then
        order=()
        for (( i = ${#variants[@]} - 1; i >= 0; i-- )); do order+=("${variants[$i]}"); done
    fi
    for variant in "${order[@]}"; do
        read -r graph strategy <<<"$variant"
        out=$("${priority[@]}" "$(program "$graph" "$strategy")" --iterations "$iterations" --time) ||
            die "$graph $strategy failed"
        median=$(python3 -c 'import re,sys; m=re.search(r"median ([0-9.]+) (ms|us)", sys.argv[1]); print(float(m.group(1)) / (1e3 if m.group(2) == "us" else 1))' "$out")
        printf '%s\t%s\t%s\t%s\n' "$round" "$graph" "$strategy" "$median" >>"$raw"
    done
    "$probe" >"$work/probe-$round-after.txt" || die "the placement probe failed"
    printf '%s\tprobe\t%s\t%s\n' "$round" "probe-$round-before.txt" "probe-$round-after.txt" >>"$raw"
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

{
    echo "# bench/cow-unannotated/weights.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown), $(( $(date +%s) - started )) s, $runs rounds of $iterations iterations, 2 cores"
    echo "# machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs; load before: $load_before; after: $load_after"
    python3 "$here/weights_report.py" "$raw" "$work" "$iterations" "$results/$name.csv" "$here/../home-forwarding"
} | tee "$results/$name.txt"
echo "wrote $results/$name.csv and $results/$name.txt" >&2
