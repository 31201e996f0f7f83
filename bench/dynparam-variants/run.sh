#!/usr/bin/env bash
# What holding every variant in one program costs (docs/generate.md, "Configuration actors and dynamic parameters"):
# a program generated for several values of a dynamic parameter fires the configuration actor, hands its variant to
# every other core (a slot and a rdy-ack flag per iteration; a barrier only where the variant changes) and switches on
# the variant every iteration. This times it against the program generated for one value, with the configuration actor
# setting that value every iteration (so the variant never changes), in one command:
#   bench/dynparam-variants/run.sh [--rounds N] [--iterations N]
# 1. generates the test project's resolution change (dynres: a 3-tap filter over width x 4 pixels, width 8, 16 or 32)
#    on 2 cores under preesm (the fair baseline) and auto, once for width=8,16,32 and once for width=32, and builds
#    each (Release);
# 2. checks that both print the same frames for 20 iterations at width 32, and that the program of every variant
#    prints the frames of each width's own program when the width changes every iteration;
# 3. runs N rounds (default 11) of --iterations I (default 200000) with --time at width 32, the two programs back to
#    back (which goes first alternates), and prints per strategy the median time per iteration of each and the ratio
#    every-variant / one-value (median of each round's ratio [min-max]) with the load average before and after; the
#    rows also go to bench/results/dynparam-variants.csv (the table to dynparam-variants.txt). The firings are short
#    (microseconds), so the ratio is an upper bound of what the hand-off and the switch cost a real application.
#    The row "preesm-semspin" runs the preesm programs with CF_SEM_SPIN=4096 (the semaphore waits spin before they
#    sleep, as the rdy-ack flags do): it shows how much of preesm's ratio comes from the one-value program's cores
#    sleeping in sem_wait every iteration (docs/generate.md, "Several values").
# 4. in the same rounds, the program of every variant with the width changing every iteration (32, 16, 32, ...):
#    a second table gives per strategy its time per iteration against the mean of the same program's at width 32
#    and at width 16 without changes (median of the rounds' ratios [min-max]): what a change of variant costs
#    (the barriers where the variant changes, init calls run again); rows "changing-<strategy>" in the CSV.
# Environment: CACHEFLOW (the command line tool; default ./cacheflow), CF_JOBS (2).
set -euo pipefail

. "$(dirname "$0")/../lib.sh" cmake python3
bench_options rounds=11 iterations=200000 -- "$@"
root=$bench_root
cacheflow=$bench_cacheflow
results=$bench_results
work="$bench_here/build"
graph="$root/plugins/org.cacheflow.pipeline/src-test/resources/dynparam/Algo/dynres.pi"
mkdir -p "$work/gen" "$work/bin"
strategies=(preesm auto)
programs=(variants one)

echo "== generate and build (Release): every width in one program, and width 32 alone"
"$cacheflow" generate --help >/dev/null
for s in "${strategies[@]}"; do
    for p in "${programs[@]}"; do
        out="$work/gen/$s-$p"
        widths=8,16,32
        [ "$p" = one ] && widths=32
        "$cacheflow" generate "$graph" --param "width=$widths" --cores 2 --strategy "$s" --out "$out" >"$out.log" 2>&1 ||
            die "generate $s $p: see $out.log"
        cmake -S "$out" -B "$work/bin/$s-$p" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release >>"$out.log" 2>&1 &&
            cmake --build "$work/bin/$s-$p" -j "$bench_jobs" >>"$out.log" 2>&1 || die "build $s $p: see $out.log"
    done
done

frames() { # strategy program widths iterations: the frames printed
    DYNRES_WIDTHS=$3 "$work/bin/$1-$2/dynres" --iterations "$4" | grep '^frame '
}

echo "== frames"
for s in "${strategies[@]}"; do
    [ "$(frames "$s" variants 32 20)" = "$(frames "$s" one 32 20)" ] || die "$s: other frames at width 32"
    changing=$(frames "$s" variants 8,32,16 30)
    for w in 8 16 32; do
        # each width's own program (generated for that width alone) gives the frames of the iterations that use it
        out="$work/gen/$s-one$w"
        own=one$w
        [ "$w" = 32 ] && own=one
        if [ ! -x "$work/bin/$s-$own/dynres" ]; then
            "$cacheflow" generate "$graph" --param "width=$w" --cores 2 --strategy "$s" --out "$out" >"$out.log" 2>&1 &&
                cmake -S "$out" -B "$work/bin/$s-one$w" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release >>"$out.log" 2>&1 &&
                cmake --build "$work/bin/$s-one$w" -j "$bench_jobs" >>"$out.log" 2>&1 || die "build $s width $w: see $out.log"
        fi
        case $w in 8) first=1 ;; 32) first=2 ;; 16) first=3 ;; esac
        [ "$(echo "$changing" | sed -n "${first}~3p")" = "$(DYNRES_WIDTHS=$w "$work/bin/$s-$own/dynres" --iterations 30 |
            grep '^frame ' | sed -n "${first}~3p")" ] || die "$s: the frames of width $w differ from its own program's"
    done
    echo "   $s: the frames of each width's own program"
done

echo "== $rounds rounds of $iterations iterations at width 32, the two programs back to back"
load_before=$(cut -d' ' -f1 /proc/loadavg)
times="$work/times.txt"
: >"$times"
for r in $(seq 1 "$rounds"); do
    order=("${programs[@]}")
    [ $((r % 2)) -eq 0 ] && order=(one variants)
    for s in preesm preesm-semspin auto; do
        spin=0
        [ "$s" = preesm-semspin ] && spin=4096
        for p in "${order[@]}"; do
            seconds=$(CF_SEM_SPIN=$spin DYNRES_WIDTHS=32 "$work/bin/${s%-semspin}-$p/dynres" --iterations "$iterations" --time 2>/dev/null |
                sed -n 's/^time: \([0-9.]*\) s for.*/\1/p')
            [ -n "$seconds" ] || die "$s $p printed no time"
            echo "$s $p $r $seconds $iterations" >>"$times"
        done
    done
    for s in preesm auto; do
        for widths in 32,16 16; do
            seconds=$(DYNRES_WIDTHS=$widths "$work/bin/$s-variants/dynres" --iterations "$iterations" --time 2>/dev/null |
                sed -n 's/^time: \([0-9.]*\) s for.*/\1/p')
            [ -n "$seconds" ] || die "$s widths $widths printed no time"
            program=changing
            [ "$widths" = 16 ] && program=constant16
            echo "changing-$s $program $r $seconds $iterations" >>"$times"
        done
    done
done
load_after=$(cut -d' ' -f1 /proc/loadavg)

{
echo "$(uname -m), $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
python3 - "$times" "$load_before" "$load_after" "$results/dynparam-variants.csv" "$root" <<'PY'
import os, statistics, sys
path, before, after, csv = sys.argv[1:5]
runs = {}
for line in open(path):
    strategy, program, rnd, seconds, iterations = line.split()
    runs.setdefault(strategy, {}).setdefault(program, {})[rnd] = float(seconds) * 1e6 / int(iterations)
print(f"load average before / after: {before} / {after}")
print(f"{'strategy':14} {'every variant us':>17} {'one value us':>13} {'ratio':>7} {'[min-max]':>14}")
rows = ["strategy,median_us_every_variant,median_us_one_value,ratio_median,ratio_min,ratio_max,rounds,load_before,"
        "load_after"]
for strategy, programs in runs.items():
    if strategy.startswith("changing-"):
        continue
    every, one = programs["variants"], programs["one"]
    ratios = [every[r] / one[r] for r in every if r in one]
    a, b, q = statistics.median(every.values()), statistics.median(one.values()), statistics.median(ratios)
    print(f"{strategy:14} {a:17.3f} {b:13.3f} {q:7.3f} {f'[{min(ratios):.3f}-{max(ratios):.3f}]':>14}")
    rows.append(f"{strategy},{a:.4f},{b:.4f},{q:.4f},{min(ratios):.4f},{max(ratios):.4f},{len(ratios)},{before},{after}")
print()
print("the program of every variant, width changing every iteration (32, 16, ...) against the mean of its time at 32")
print("and at 16 without changes")
print(f"{'strategy':14} {'changing us':>17} {'constant us':>13} {'ratio':>7} {'[min-max]':>14}")
for strategy, programs in runs.items():
    if not strategy.startswith("changing-"):
        continue
    base = strategy[len("changing-"):]
    changing, sixteen, at32 = programs["changing"], programs["constant16"], runs[base]["variants"]
    constant = {r: (sixteen[r] + at32[r]) / 2 for r in sixteen if r in at32}
    ratios = [changing[r] / constant[r] for r in changing if r in constant]
    a, b, q = statistics.median(changing.values()), statistics.median(constant.values()), statistics.median(ratios)
    print(f"{base:14} {a:17.3f} {b:13.3f} {q:7.3f} {f'[{min(ratios):.3f}-{max(ratios):.3f}]':>14}")
    rows.append(f"{strategy},{a:.4f},{b:.4f},{q:.4f},{min(ratios):.4f},{max(ratios):.4f},{len(ratios)},{before},{after}")
open(csv, "w").write("\n".join(rows) + "\n")
print(f"CSV: {os.path.relpath(csv, sys.argv[5])}")  # relative to the repository
PY
} | tee "$results/dynparam-variants.txt"
