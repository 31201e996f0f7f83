#!/usr/bin/env bash
# cow-unannotated benchmark: copy-on-write where merging cannot help. Runs the bundled stereo example twice,
# as written and with its READ_ONLY annotations and read-mostly marks removed (the copy is derived by
# `cacheflow demo --unannotated` at run time, in the work folder), under baseline, preesm, alias, ntm, cow and auto,
# interleaved (one round runs every program once), on the example's 2-core scenario:
#   bench/cow-unannotated/run.sh [--quick] [--runs N] [--iterations N] [--frame WxH]
# Prints, per frame: time per iteration (median, min-max over the rounds), speed-up against the same run's
# preesm (PREESM's code with its memory scripts) and baseline (its plain copies), bytes copied and streamed per iteration (as % of the baseline's), CoW pages shared / faulted /
# re-shared per iteration (the runtime's --validate statistics), the target checks (without annotations cow
# and auto copy at most 5% of the baseline's bytes and run within 10% of the best annotated time), and auto
# against the best fixed strategy of each configuration. Every program's sink MD5s must be identical (the demo
# fails otherwise). Writes bench/results/cow-unannotated[-quick].csv (tidy) and .txt, with the load average.
# --quick: 512x384 only, 3 rounds of 1 iteration. Default: 512x384 and 1024x768, 5 rounds of 2 iterations.
# The bundled example computes no memory on several cores; bench/cow-unannotated/weights.sh runs a graph of the corpus
# stereo's shape that does (one memory written slice by slice on both cores, broadcast to every disparity).
# Environment: CACHEFLOW (the command line tool; default ./cacheflow, built on first use).
set -euo pipefail

. "$(dirname "$0")/../lib.sh" cmake ninja python3
here=$bench_here
work="$here/build"
frames=("512 384" "1024 768")
name=cow-unannotated
bench_quick() { runs=3; iterations=1; frames=("512 384"); name=cow-unannotated-quick; }
bench_option() { frames=("${2/x/ }"); } # --frame WxH
bench_options quick runs=5 iterations=2 --frame=WxH -- "$@"
root=$bench_root
cacheflow=$bench_cacheflow
results=$bench_results

mkdir -p "$work" "$results"
load_before=$(uptime)
started=$(date +%s)
inputs=()
for frame in "${frames[@]}"; do
    set -- $frame
    size="${1}x${2}"
    echo "== $size: cacheflow demo --unannotated (baseline, preesm, alias, ntm, cow, auto; $runs rounds of $iterations iterations)" >&2
    "$cacheflow" demo --out "$work/$size" --strategies baseline,preesm,alias,ntm,cow,auto --unannotated --no-cachegrind \
        --param "width=$1" --param "height=$2" --runs "$runs" --iterations "$iterations" | tee "$work/$size.txt" >&2
    inputs+=("$size=$work/$size")
done
load_after=$(uptime)

{
    echo "# bench/cow-unannotated/run.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), $(( $(date +%s) - started )) s, $runs rounds of $iterations iterations"
    echo "# machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs; $(lscpu | grep -E '^(L1d|L2|L3)' | tr -s ' ' | paste -sd ';')"
    echo "# load before: ${load_before##*load average: }; after: ${load_after##*load average: }"
    python3 "$here/report.py" --csv "$results/$name.csv" "${inputs[@]}"
} | tee "$results/$name.txt"
echo "wrote $results/$name.csv and $results/$name.txt" >&2
