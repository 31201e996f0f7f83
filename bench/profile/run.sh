#!/usr/bin/env bash
# Profiling cost per bundled example: `cacheflow profile` runs each program plain, then timed, with canaries, and
# with page protection, in one invocation; its profile.json gives each run's wall time and its slowdown over the
# plain run of the same invocation. This script repeats that ROUNDS times per example, the examples interleaved
# round by round (a change of machine load hits them all), and prints per example and run the median slowdown with
# its min-max, the load average at start and end, then writes a CSV (one row per measurement).
#   bench/profile/run.sh [--rounds N] [--iterations N] [--csv FILE] [EXAMPLE...]
# EXAMPLE: a folder of examples/ (default: every one with actor code, Code/src). The timings are of this machine and its load: on a shared
# machine they are provisional.
set -euo pipefail
. "$(dirname "$0")/../lib.sh" cmake python3
bench_options rounds=3 iterations=20 "csv=$bench_results/profile-cost.csv" EXAMPLE... -- "$@"
here=$bench_here
root=$bench_root
examples=("${bench_operands[@]}")
if [ ${#examples[@]} -eq 0 ]; then
    # the examples with actor code of their own (a profile runs the real actors)
    for dir in "$root"/examples/*/; do [ -d "$dir/Code/src" ] && examples+=("$(basename "$dir")"); done
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$(dirname "$csv")"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
echo "example,round,run,seconds,slowdown" > "$work/rows.csv"
for round in $(seq 1 "$rounds"); do
    for example in "${examples[@]}"; do
        echo "round $round/$rounds: $example" >&2
        out="$work/$example-$round"
        if ! "$root/cacheflow" profile "$root/examples/$example" --iterations "$iterations" --out "$out" \
                >"$out.log" 2>&1; then
            echo "$example: profile failed (its output: $out.log)" >&2
            tail -5 "$out.log" >&2
            continue
        fi
        python3 - "$out/profile.json" "$example" "$round" >> "$work/rows.csv" <<'PY'
import json, sys
profile = json.load(open(sys.argv[1]))
for run in profile["instrumentation"]["runs"]:
    print(f'{sys.argv[2]},{sys.argv[3]},{run["mode"]},{run["seconds"]:.4f},{run["slowdown"]:.3f}')
PY
    done
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
cp "$work/rows.csv" "$csv"
python3 - "$csv" "$load_start" "$load_end" "$iterations" "$root" <<'PY'
import csv, os, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(f"profiling cost ({sys.argv[4]} iterations per run; load average {sys.argv[2]} at start, {sys.argv[3]} at end)")
print(f'{"example":<14}{"run":<8}{"plain s":>10}{"slowdown":>10}{"min-max":>16}{"rounds":>8}')
examples = list(dict.fromkeys(r["example"] for r in rows))
for example in examples:
    plain = [float(r["seconds"]) for r in rows if r["example"] == example and r["run"] == "plain"]
    for run in ["time", "canary", "pages"]:
        s = [float(r["slowdown"]) for r in rows if r["example"] == example and r["run"] == run]
        if s:
            print(f'{example:<14}{run:<8}{statistics.median(plain):>10.3f}{statistics.median(s):>9.2f}x'
                  f'{min(s):>8.2f}-{max(s):.2f}x{len(s):>8}')
print(f"CSV: {os.path.relpath(sys.argv[1], sys.argv[5])}")
PY
