#!/usr/bin/env bash
# Load-balancing benchmark (docs/schedule.md): static, dynamic and hybrid schedules of generated programs, in one
# command:
#   bench/load-balancing/run.sh [--rounds N] [--iterations N]
# 1. generates, on 2 cores, with the graphs' own actor code:
#    - farm: the regular farm of bench/home-forwarding (matrices of 128 integers, 4 tasks per iteration);
#    - mandel: an irregular graph (Algo/mandel.pi): 16 Mandelbrot tiles per frame whose cost varies with the
#      tile and the frame by far more than 4x; the hybrid schedule pools the tiles (--variable Tile);
#    each under --schedule static (strategy auto), dynamic and hybrid, built Release;
# 2. checks that the three print the same sink digests (--validate);
# 3. runs the variants interleaved, N rounds (default 9) of --iterations I (default 200) with --time, and prints
#    per graph and variant the median time per iteration over the rounds [min-max] and the speed-up over static
#    (static's median over the variant's), the load average before and after, as a table; the rows also go to
#    bench/results/load-balancing.csv (the table to load-balancing.txt).
# Not measured yet (issue: scenario timings 3x wrong, MPI ranks, dispatch cost against libgomp/oneTBB:
# runtime-c/bench/bench_sched.c measures the last one for the runtime alone).
# Environment: CACHEFLOW (the command line tool; default ./cacheflow), CF_JOBS (2).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cacheflow=${CACHEFLOW:-$root/cacheflow}
jobs=${CF_JOBS:-2}
work="$here/build"
results="$root/bench/results"
rounds=9
iterations=200

while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) shift; rounds=${1:?--rounds needs a number} ;;
        --iterations) shift; iterations=${1:?--iterations needs a number} ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        *) echo "run.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done

. "$(dirname "$0")/../lib.sh" cmake python3

mkdir -p "$work" "$results"
hf="$root/bench/home-forwarding"
graphs=(farm mandel)
schedules=(static dynamic hybrid)

generate() { # graph schedule
    local out="$work/gen/$1-$2" args=()
    case "$1" in
        farm) args=("$hf/Algo/farm.pi" --sources "$hf/Code/src/farm" --include "$hf/Code/include"
                    --param size=128 --param tasks=4 --param elemFloat=0) ;;
        mandel) args=("$here/Algo/mandel.pi" --sources "$here/Code/src" --include "$here/Code/include") ;;
    esac
    case "$2" in
        static) args+=(--strategy auto) ;;
        dynamic) args+=(--schedule dynamic) ;;
        hybrid) args+=(--schedule hybrid --variable "$([ "$1" = farm ] && echo Worker || echo Tile)") ;;
    esac
    "$cacheflow" generate "${args[@]}" --cores 2 --out "$out" >"$out.log" 2>&1 || die "generate $1 $2: see $out.log"
    cmake -S "$out" -B "$work/bin/$1-$2" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release >>"$out.log" 2>&1 &&
        cmake --build "$work/bin/$1-$2" -j "$jobs" >>"$out.log" 2>&1 || die "build $1 $2: see $out.log"
}

program() { # graph schedule
    local name
    name=$([ "$1" = farm ] && echo farm || echo mandel)
    echo "$work/bin/$1-$2/$name"
}

echo "== generate and build (Release)"
mkdir -p "$work/gen" "$work/bin"
"$cacheflow" generate --help >/dev/null
for g in "${graphs[@]}"; do
    for s in "${schedules[@]}"; do generate "$g" "$s"; done
done

echo "== sink digests (--validate, 20 iterations)"
for g in "${graphs[@]}"; do
    reference=""
    for s in "${schedules[@]}"; do
        digests=$("$(program "$g" "$s")" --iterations 20 --validate 2>/dev/null | grep -E ' : [0-9a-f]{32}$')
        [ -n "$digests" ] || die "$g $s printed no digest"
        if [ -z "$reference" ]; then reference=$digests
        elif [ "$digests" != "$reference" ]; then die "$g $s prints other digests than static"; fi
    done
    echo "   $g: static, dynamic and hybrid agree"
done

echo "== $rounds rounds of $iterations iterations, variants interleaved"
load_before=$(cut -d' ' -f1 /proc/loadavg)
times="$work/times.txt"
: >"$times"
for r in $(seq 1 "$rounds"); do
    for g in "${graphs[@]}"; do
        for s in "${schedules[@]}"; do
            seconds=$("$(program "$g" "$s")" --iterations "$iterations" --time 2>/dev/null |
                sed -n 's/^time: \([0-9.]*\) s for.*/\1/p')
            echo "$g $s $r $seconds" >>"$times"
        done
    done
done
load_after=$(cut -d' ' -f1 /proc/loadavg)

{
echo "$(uname -m), $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
python3 - "$times" "$iterations" "$load_before" "$load_after" "$results/load-balancing.csv" "$root" <<'PY'
import os, statistics, sys
path, iterations, before, after, csv = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
runs = {}
for line in open(path):
    graph, schedule, _, seconds = line.split()
    runs.setdefault((graph, schedule), []).append(float(seconds) * 1e3 / iterations)
print(f"load average before / after: {before} / {after}  (figures provisional on a shared machine)")
print(f"{'graph':8} {'schedule':8} {'ms/iteration':>14} {'[min-max]':>18} {'speed-up':>9}")
rows = ["graph,schedule,median_ms_per_iteration,min,max,speedup_vs_static,load_before,load_after"]
for (graph, schedule), values in runs.items():
    median = statistics.median(values)
    static = statistics.median(runs[(graph, "static")])
    print(f"{graph:8} {schedule:8} {median:14.3f} {f'[{min(values):.3f}-{max(values):.3f}]':>18} "
          f"{static / median:9.2f}")
    rows.append(f"{graph},{schedule},{median:.4f},{min(values):.4f},{max(values):.4f},{static / median:.3f},"
                f"{before},{after}")
open(csv, "w").write("\n".join(rows) + "\n")
print(f"CSV: {os.path.relpath(csv, sys.argv[6])}")  # relative to the repository
PY
} | tee "$results/load-balancing.txt"
