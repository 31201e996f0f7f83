#!/usr/bin/env bash
# cow-ntm benchmark: the stereo application of "Cache Limits for Dataflow Applications and Efficient Memory
# Management Strategies" (copy-on-write and non-temporal copies) on this machine, in one command from a
# fresh clone:
#   bench/cow-ntm/run.sh [--quick] [--runs N]
# For every frame size it runs `cacheflow demo` on examples/stereo (generated with --strategy baseline, preesm, cow,
# ntm and auto, built, MD5s checked), which times R interleaved runs of each program and simulates the data
# cache misses of baseline, preesm, cow and ntm with cachegrind (this machine's L1d, its L3 as the last level; see
# bench/RESULTS.md for the geometry and the scaling of the sizes). tidy.py then turns every size's demo.csv
# and runs.csv into rows of bench/results/cow-ntm.csv (benchmark,variant,size,metric,median,low,high,unit)
# and prints a table, saved next to the CSV with the machine and its load average.
# --quick: the two smallest frames, 3 runs of 1 iteration (a few minutes); writes cow-ntm-quick.csv.
# Environment: CACHEFLOW (the command line tool; default ./cacheflow, built on first use).
set -euo pipefail

. "$(dirname "$0")/../lib.sh" cmake ninja python3
bench_options quick runs=5 -- "$@"
here=$bench_here
work="$here/build"
iterations=2
root=$bench_root
cacheflow=$bench_cacheflow
results=$bench_results

# Frames (width x height, 32 disparities). What each MatchingCost firing shares with the 31 others is the
# two views and the two census images, 10 bytes per pixel; the baseline copies them once per disparity.
#   256x192:   0.47 MiB shared (fits the 2 MiB L2), copies 15 MiB per iteration (fit the L3)
#   512x384:   1.9 MiB (about the L2; the demo's frame), copies 60 MiB (fit the 105 MiB L3)
#   1024x768:  7.5 MiB (3.75x the L2), copies 240 MiB (2.3x the L3)
#   1376x1032: 13.5 MiB = 288 x the 48 KiB L1d, the paper's ratio (9 MB FIFO / 32 KB L1d); 6.8x the L2;
#              copies 432 MiB per iteration (4x the L3, as the paper's copies exceeded its LLC)
if [ "$quick" = 1 ]; then
    frames=("256 192" "512 384")
    runs=3
    iterations=1
    name=cow-ntm-quick
else
    frames=("256 192" "512 384" "1024 768" "1376 1032")
    name=cow-ntm
fi

# cachegrind cannot simulate the 105 MiB 15-way L3 (its set count is not a power of two): the last level
# is simulated as 96 MiB 12-way. Misses are simulated on a frame half as wide and high, with the data
# caches a quarter of these (the demo's --miss-scale 2): every FIFO keeps its size relative to the caches.
caches=(--cache I1=32768,8,64 --cache D1=49152,12,64 --cache LL=100663296,12,64)

mkdir -p "$work" "$results"
load_before=$(uptime)
started=$(date +%s)
inputs=()
for frame in "${frames[@]}"; do
    set -- $frame
    size="${1}x${2}"
    echo "== $size: cacheflow demo (baseline, preesm, cow, ntm, auto; $runs runs of $iterations iterations)" >&2
    "$cacheflow" demo --out "$work/$size" --strategies baseline,preesm,cow,ntm,auto \
        --miss-strategies baseline,preesm,cow,ntm \
        --param "width=$1" --param "height=$2" --runs "$runs" --iterations "$iterations" "${caches[@]}" \
        | tee "$work/$size.txt" >&2
    inputs+=("$size=$work/$size")
done
load_after=$(uptime)

{
    echo "# bench/cow-ntm/run.sh$([ "$quick" = 1 ] && echo ' --quick'), $(date -u '+%Y-%m-%d %H:%M UTC'), $(( $(date +%s) - started )) s"
    echo "# machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs; $(lscpu | grep -E '^(L1d|L2|L3)' | tr -s ' ' | paste -sd ';')"
    echo "# load before: ${load_before##*load average: }; after: ${load_after##*load average: }"
    python3 "$here/tidy.py" --csv "$results/$name.csv" "${inputs[@]}"
    echo "# cache misses, per frame:"
    for input in "${inputs[@]}"; do
        sed -n "s/^cache misses (data, one iteration): /#   ${input%%=*}: /p" "$work/${input%%=*}.txt"
        sed -n 's/^  note: /#     note: /p' "$work/${input%%=*}.txt"
    done
} | tee "$results/$name.txt"
echo "wrote $results/$name.csv and $results/$name.txt" >&2
