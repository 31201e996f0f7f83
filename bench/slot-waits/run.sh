#!/usr/bin/env bash
# Slot waits of generated static programs (docs/generate.md, "Strategies"): a core that must wait for a free slot of a
# buffer with 3 or more slots waits, once it must wait at all, until half of them are free (cf_flag_wait_beyond),
# instead of for the next one (cf_flag_wait). This times both on the same generated code:
#   bench/slot-waits/run.sh [--rounds N] [--iterations N]
# 1. generates on 2 cores with strategy auto (static schedule), with the graphs' own actor code: the test project's
#    resolution change at width 32 (dynres, the graph where the difference was found), the Mandelbrot tiles and the
#    zoom of bench/load-balancing (merge groups of 64 slots), and the farm of bench/home-forwarding (128x128 integers,
#    4 tasks); a graph whose program has no such wait is skipped with a notice;
# 2. builds each twice (Release): "half" as generated, and "each", the same C with every cf_flag_wait_beyond(f, a, b)
#    turned into cf_flag_wait(f, a), i.e. the wait for the next free slot; and "preesm", the graph generated with
#    strategy preesm (PREESM's generated code with its memory scripts, the fair baseline);
# 3. checks that the three print the same sink digests (--validate, 20 iterations);
# 4. runs them interleaved, N rounds (default 9) of I iterations (default 1000: the farm I, the Mandelbrot graphs
#    I / 5, dynres, whose iterations take microseconds, 200 I) with --time, and prints per graph the median time per iteration of each [min-max], and the ratio half / each (median
#    of the rounds' ratios, with their range), with the load average before and after, as a table; the rows also go to
#    bench/results/slot-waits.csv (the table to slot-waits.txt).
# Environment: CACHEFLOW (the command line tool; default ./cacheflow), CF_JOBS (2).
set -euo pipefail

. "$(dirname "$0")/../lib.sh" cmake python3 perl
bench_options rounds=9 iterations=1000 -- "$@"

root=$bench_root
here=$bench_here
work="$here/build"
lb="$root/bench/load-balancing"
hf="$root/bench/home-forwarding"
dynres="$root/plugins/org.cacheflow.pipeline/src-test/resources/dynparam/Algo/dynres.pi"
graphs=(dynres mandel zoom farm)
mkdir -p "$work/gen" "$work/bin"

generate() { # graph: generates it into gen/graph, builds half and each; prints nothing, fails with die
    local out="$work/gen/$1" args=()
    case "$1" in
        dynres) args=("$dynres" --param width=32) ;;
        mandel) args=("$lb/Algo/mandel.pi" --sources "$lb/Code/src" --include "$lb/Code/include") ;;
        zoom) args=("$lb/Algo/zoom.pi" --sources "$lb/Code/src" --include "$lb/Code/include") ;;
        farm) args=("$hf/Algo/farm.pi" --sources "$hf/Code/src/farm" --include "$hf/Code/include"
                    --param size=128 --param tasks=4 --param elemFloat=0) ;;
    esac
    rm -rf "$out" "$out-each" "$out-preesm"
    "$bench_cacheflow" generate "${args[@]}" --cores 2 --strategy auto --out "$out" >"$out.log" 2>&1 ||
        die "generate $1: see $out.log"
    "$bench_cacheflow" generate "${args[@]}" --cores 2 --strategy preesm --out "$out-preesm" >>"$out.log" 2>&1 ||
        die "generate $1 preesm: see $out.log"
    cp -r "$out" "$out-each"
    perl -pi -e 's/cf_flag_wait_beyond\((&[^,]+), ([^,]+), [^;]+\);/cf_flag_wait($1, $2);/g' "$out-each"/*.c
    ! grep -q cf_flag_wait_beyond "$out-each"/*.c || die "$1: a wait_beyond left in $out-each"
    for v in half each preesm; do
        local src=$out
        [ "$v" = half ] || src=$out-$v
        cmake -S "$src" -B "$work/bin/$1-$v" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release >>"$out.log" 2>&1 &&
            cmake --build "$work/bin/$1-$v" -j "$bench_jobs" >>"$out.log" 2>&1 || die "build $1 $v: see $out.log"
    done
}

program() { # graph variant
    echo "$work/bin/$1-$2/$1"
}

run() { # graph variant args...
    if [ "$1" = dynres ]; then DYNRES_WIDTHS=32 "$(program "$1" "$2")" "${@:3}"; else "$(program "$1" "$2")" "${@:3}"; fi
}

echo "== generate and build (Release): as generated (half) and with the wait for the next slot (each)"
"$bench_cacheflow" generate --help >/dev/null
measured=()
for g in "${graphs[@]}"; do
    generate "$g"
    waits=$(grep -c cf_flag_wait_beyond "$work/gen/$g"/core_*.c | awk -F: '{ s += $2 } END { print s + 0 }')
    if [ "$waits" = 0 ]; then
        echo "   $g: no wait for one of 3 or more slots, left out"
        continue
    fi
    echo "   $g: $waits waits for half the slots"
    measured+=("$g")
done
[ ${#measured[@]} -gt 0 ] || die "no graph has a wait for half the slots"

echo "== sink digests (--validate, 20 iterations)"
for g in "${measured[@]}"; do
    a=$(run "$g" half --iterations 20 --validate 2>/dev/null | grep -E ' : [0-9a-f]{32}$' | sort)
    b=$(run "$g" each --iterations 20 --validate 2>/dev/null | grep -E ' : [0-9a-f]{32}$' | sort)
    c=$(run "$g" preesm --iterations 20 --validate 2>/dev/null | grep -E ' : [0-9a-f]{32}$' | sort)
    [ -n "$a" ] || die "$g printed no digest"
    [ "$a" = "$b" ] && [ "$a" = "$c" ] || die "$g: half, each and preesm print other digests"
    echo "   $g: agree"
done

iterations_of() { # graph
    case "$1" in
        mandel | zoom) echo $((iterations / 5 > 0 ? iterations / 5 : 1)) ;;
        dynres) echo $((iterations * 200)) ;;
        *) echo "$iterations" ;;
    esac
}

seconds() { # graph variant: the seconds --time reports for the run
    run "$1" "$2" --iterations "$(iterations_of "$1")" --time 2>/dev/null | sed -n 's/^time: \([0-9.]*\) s for .*/\1/p'
}

load_before=$(cut -d' ' -f1 /proc/loadavg)
raw="$work/raw.csv"
echo "round,graph,variant,seconds" >"$raw"
echo "== $rounds rounds, interleaved (load average $load_before)"
for r in $(seq 1 "$rounds"); do
    for g in "${measured[@]}"; do
        order=(half each preesm)
        [ $((r % 2)) = 0 ] && order=(preesm each half)
        for v in "${order[@]}"; do
            s=$(seconds "$g" "$v")
            [ -n "$s" ] || die "$g $v: --time printed no time"
            echo "$r,$g,$v,$s" >>"$raw"
        done
    done
done
load_after=$(cut -d' ' -f1 /proc/loadavg)

its=""
for g in "${measured[@]}"; do its="$its $g=$(iterations_of "$g")"; done
python3 - "$raw" "$bench_results" "$load_before" "$load_after" "$rounds" "$its" <<'PY'
import csv, statistics, sys
raw, results, before, after, rounds, counts = sys.argv[1:]
rows = list(csv.DictReader(open(raw)))
graphs = list(dict.fromkeys(r["graph"] for r in rows))
its = {g: int(n) for g, n in (x.split("=") for x in counts.split())}
lines = [f"slot waits: half (as generated) against each (wait for the next slot) and preesm, 2 cores; "
         f"{rounds} rounds, load average {before} before, {after} after; us per iteration, median [min-max]",
         f"{'graph':8} {'iterations':>10} {'half':>22} {'each':>22} {'preesm':>22} {'half/each':>18} "
         f"{'half/preesm':>18}"]
variants = ("half", "each", "preesm")
out = [["graph", "iterations"] + [f"{v}_us_{m}" for v in variants for m in ("median", "min", "max")]
       + [f"{r}_{m}" for r in ("half_each", "half_preesm") for m in ("median", "min", "max")]
       + ["rounds", "load_before", "load_after"]]
def cell(xs, width, digits=2):
    return f"{statistics.median(xs):.{digits}f} [{min(xs):.{digits}f}-{max(xs):.{digits}f}]".rjust(width)
for g in graphs:
    per = {v: {int(r["round"]): float(r["seconds"]) * 1e6 / its[g] for r in rows if r["graph"] == g
               and r["variant"] == v} for v in variants}
    ratios = {o: [per["half"][k] / per[o][k] for k in per["half"] if k in per[o]] for o in ("each", "preesm")}
    times = {v: list(per[v].values()) for v in variants}
    lines.append(f"{g:8} {its[g]:>10} " + " ".join(cell(times[v], 22) for v in variants) + " "
                 + " ".join(cell(ratios[o], 18) for o in ("each", "preesm")))
    row = [g, its[g]]
    for xs in [times[v] for v in variants] + [ratios["each"], ratios["preesm"]]:
        row += [f"{statistics.median(xs):.3f}", f"{min(xs):.3f}", f"{max(xs):.3f}"]
    out.append(row + [rounds, before, after])
text = "\n".join(lines)
print(text)
open(f"{results}/slot-waits.txt", "w").write(text + "\n")
csv.writer(open(f"{results}/slot-waits.csv", "w", newline="")).writerows(out)
PY
