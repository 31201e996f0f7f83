#!/usr/bin/env bash
# What the crash report's firing marks cost (docs/reliability.md): every firing of a generated program is bracketed
# by cf_gen_firing_begins/_ends (a few stores to the core's own cache line and two compiler barriers), so that a
# crash names the actor. This builds each program twice, with the marks and with -DCF_GEN_NO_FIRING_MARKS, and
# times the two interleaved, in one command:
#   bench/firing-marks/run.sh [--rounds N] [--iterations N]
# 1. generates the bundled examples (stereo with its own actors; filter-bank and frame-crc with synthetic actor bodies:
#    short firings, where the marks weigh most) on 2 cores under
#    preesm (PREESM's code with its memory scripts: the fair baseline) and auto, and builds each twice (Release);
# 2. checks that both builds print the same sink digests (--validate);
# 3. runs N rounds (default 11) of --iterations I (default 30; 100 I for the synthetic graphs) with --time, the two builds of a program back to
#    back in every round (which goes first alternates), and prints per program the median time per iteration of
#    each build and the ratio with marks / without, as the median over the rounds of each round's ratio [min-max],
#    with the load average before and after; the rows also go to bench/results/firing-marks.csv (the table to
#    firing-marks.txt). Above 1: the marks cost that fraction.
# Environment: CACHEFLOW (the command line tool; default ./cacheflow), CF_JOBS (2).
set -euo pipefail

. "$(dirname "$0")/../lib.sh" cmake python3
bench_options rounds=11 iterations=30 -- "$@"
root=$bench_root
cacheflow=$bench_cacheflow
results=$bench_results
work="$bench_here/build"
mkdir -p "$work/gen" "$work/bin"
examples=(stereo filter-bank frame-crc)
strategies=(preesm auto)
builds=(marks nomarks)

echo "== generate and build (Release), each program with and without the marks"
"$cacheflow" generate --help >/dev/null
for e in "${examples[@]}"; do
    for s in "${strategies[@]}"; do
        out="$work/gen/$e-$s"
        extra=()
        [ "$e" = stereo ] || extra=(--synthetic-actors)
        "$cacheflow" generate "$root/examples/$e" "${extra[@]}" --cores 2 --strategy "$s" --out "$out" >"$out.log" 2>&1 ||
            die "generate $e $s: see $out.log"
        for b in "${builds[@]}"; do
            flags=""
            [ "$b" = nomarks ] && flags="-DCF_GEN_NO_FIRING_MARKS"
            cmake -S "$out" -B "$work/bin/$e-$s-$b" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
                -DCMAKE_C_FLAGS="$flags" >>"$out.log" 2>&1 &&
                cmake --build "$work/bin/$e-$s-$b" -j "$bench_jobs" >>"$out.log" 2>&1 || die "build $e $s $b: see $out.log"
        done
    done
done

program() { # example strategy build: the one executable of the build folder
    find "$work/bin/$1-$2-$3" -maxdepth 1 -type f -perm -u+x | head -n 1
}

echo "== sink digests (--validate, 3 iterations)"
for e in "${examples[@]}"; do
    for s in "${strategies[@]}"; do
        a=$("$(program "$e" "$s" marks)" --iterations 3 --validate 2>/dev/null | grep -E ' : [0-9a-f]{32}$')
        b=$("$(program "$e" "$s" nomarks)" --iterations 3 --validate 2>/dev/null | grep -E ' : [0-9a-f]{32}$')
        [ -n "$a" ] || die "$e $s printed no digest"
        [ "$a" = "$b" ] || die "$e $s prints other digests without the marks"
    done
    echo "   $e: the same digests with and without the marks"
done

echo "== $rounds rounds of $iterations iterations, the two builds back to back"
load_before=$(cut -d' ' -f1 /proc/loadavg)
times="$work/times.txt"
: >"$times"
for r in $(seq 1 "$rounds"); do
    order=("${builds[@]}")
    [ $((r % 2)) -eq 0 ] && order=(nomarks marks)
    for e in "${examples[@]}"; do
        for s in "${strategies[@]}"; do
            n=$iterations
            [ "$e" = stereo ] || n=$((100 * iterations))
            for b in "${order[@]}"; do
                seconds=$("$(program "$e" "$s" "$b")" --iterations "$n" --time 2>/dev/null |
                    sed -n 's/^time: \([0-9.]*\) s for.*/\1/p')
                [ -n "$seconds" ] || die "$e $s $b printed no time"
                echo "$e $s $b $r $seconds $n" >>"$times"
            done
        done
    done
done
load_after=$(cut -d' ' -f1 /proc/loadavg)

{
echo "$(uname -m), $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
python3 - "$times" "$load_before" "$load_after" "$results/firing-marks.csv" "$root" <<'PY'
import os, statistics, sys
path, before, after, csv = sys.argv[1:5]
runs = {}
for line in open(path):
    example, strategy, build, rnd, seconds, iterations = line.split()
    runs.setdefault((example, strategy), {}).setdefault(build, {})[rnd] = float(seconds) * 1e3 / int(iterations)
print(f"load average before / after: {before} / {after}")
print(f"{'example':12} {'strategy':8} {'with marks ms':>14} {'without ms':>11} {'with / without':>15} {'[min-max]':>14}")
rows = ["example,strategy,median_ms_with_marks,median_ms_without,ratio_median,ratio_min,ratio_max,rounds,"
        "load_before,load_after"]
for (example, strategy), builds in runs.items():
    marks, nomarks = builds["marks"], builds["nomarks"]
    ratios = [marks[r] / nomarks[r] for r in marks if r in nomarks]
    a, b, q = statistics.median(marks.values()), statistics.median(nomarks.values()), statistics.median(ratios)
    print(f"{example:12} {strategy:8} {a:14.3f} {b:11.3f} {q:15.3f} {f'[{min(ratios):.3f}-{max(ratios):.3f}]':>14}")
    rows.append(f"{example},{strategy},{a:.4f},{b:.4f},{q:.4f},{min(ratios):.4f},{max(ratios):.4f},{len(ratios)},"
                f"{before},{after}")
open(csv, "w").write("\n".join(rows) + "\n")
print(f"CSV: {os.path.relpath(csv, sys.argv[5])}")  # relative to the repository
PY
} | tee "$results/firing-marks.txt"
