#!/usr/bin/env bash
# Load-balancing benchmark (docs/schedule.md): static, dynamic and hybrid schedules of generated programs, in one
# command:
#   bench/load-balancing/run.sh [--rounds N] [--iterations N]
# 1. generates, on 2 cores, with the graphs' own actor code:
#    - farm: the regular farm of bench/home-forwarding (matrices of 128 integers, 4 tasks per iteration);
#    - mandel: an irregular graph (Algo/mandel.pi): 16 Mandelbrot tiles per frame, two of which (chosen afresh
#      every frame from the frame number) look into the set and cost about 28x the others, so that no fixed
#      assignment of tiles to cores is balanced in every frame; the hybrid schedule pools the tiles (--variable Tile);
#    - zoom: the same tiles with a frame-to-frame dependency (Algo/zoom.pi): each frame's view, and so its hot
#      tiles, is chosen by the image of the frame before (through a delay), and its cold tiles cost less (a hot tile
#      about 60x a cold one), so that no schedule can overlap frames to even out the cores over time;
#    each as: static (--schedule static, strategy auto), preesm (static, strategy preesm: PREESM's own buffer
#    merging, the fair baseline), dynamic, hybrid, and one (static on 1 core: the total work, for the ideal);
#    - steady: a graph of steady costs (Algo/steady.pi: one Heavy firing of 6 units and 6 Light firings of 1 unit
#      per iteration) planned with the right timings (Scenarios/steady-right.scenario) and with Heavy's timing 3x
#      too small (steady-wrong.scenario): static and preesm (right timings), wrong (static, wrong timings), dynamic
#      and hybrid (wrong timings; hybrid pools the Lights), and one;
#    - empty: the steady graph with actors that do nothing (--param heavyUnits=0 lightUnits=0), for the cost of
#      dispatch per firing: static, preesm, dynamic, hybrid and one, 50x the iterations;
#    - mandel also as static-sK (K = 16, 4, 1: static with K slots of its merge group of tiles instead of the
#      planner's 64, i.e. at most K frames between the cores) and dynamic-s1 (one iteration in flight instead of 2);
#    - mandel and zoom also as mpi: static on 2 nodes x 1 core (generate --nodes 2, strategy auto), the multi-node target run
#      as 2 MPI ranks on this machine (mpirun -np 2 --oversubscribe --bind-to none), for the paper's comparison of
#      shared-memory dynamic balancing with MPI-based manual balancing (skipped with a notice without mpirun);
#    dynamic and hybrid with generate's default of 2 iterations in flight (slots); built Release;
# 2. checks that every variant prints the same sink digests (--validate; sorted, for the 2 ranks' lines);
# 3. runs the variants interleaved, N rounds (default 9) of --iterations I (default 200) with --time, and prints
#    per graph and variant the median time per iteration over the rounds [min-max], the speed-up over static
#    (static's median over the variant's), and the fraction of the ideal reached (the ideal: the one-core
#    program's median / 2, i.e. the total work shared evenly by the 2 cores, over the variant's median), with the
#    load average before and after, as a table; the rows also go to bench/results/load-balancing.csv (the table to
#    load-balancing.txt); then the dispatch cost with empty actors (ns per iteration, per firing of the dispatched
#    programs' table and per step of the one-core iteration; measured without --time, which times every firing:
#    the wall time of I iterations minus that of I / 10) and the throughput of dynamic (and of the best of
#    dynamic and hybrid) over mpi on the Mandelbrot frames, beside the paper's 7-20x.
# The dispatch cost against libgomp/oneTBB is runtime-c/bench/bench_sched.c (the runtime alone).
# Environment: CACHEFLOW (the command line tool; default ./cacheflow), CF_JOBS (2), MPIRUN (default mpirun).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cacheflow=${CACHEFLOW:-$root/cacheflow}
jobs=${CF_JOBS:-2}
work="$here/build"
results="$root/bench/results"

. "$(dirname "$0")/../lib.sh" cmake python3
bench_options rounds=9 iterations=200 -- "$@"

mkdir -p "$work" "$results"
hf="$root/bench/home-forwarding"
graphs=(farm mandel zoom steady empty)
mpirun=${MPIRUN:-mpirun}
mpi=()
if command -v "$mpirun" >/dev/null; then
    # two ranks on this machine, not bound to cores by Open MPI (the program places them); Open MPI refuses root
    # unless told
    mpi=("$mpirun" --oversubscribe --bind-to none -np 2)
    if [ "$(id -u)" = 0 ]; then mpi+=(--allow-run-as-root); fi
else
    echo "run.sh: $mpirun not found (Debian: openmpi-bin libopenmpi-dev): the mpi variant is left out" >&2
fi
variants() { # graph: its variants, static first
    case "$1" in
        steady) echo "static preesm wrong dynamic hybrid one" ;;
        empty) echo "static preesm dynamic hybrid one" ;;
        mandel) echo "static static-s16 static-s4 static-s1 preesm dynamic dynamic-s1 hybrid one${mpi[0]:+ mpi}" ;;
        zoom) echo "static preesm dynamic hybrid one${mpi[0]:+ mpi}" ;;
        *) echo "static preesm dynamic hybrid one" ;;
    esac
}

generate() { # graph schedule
    local out="$work/gen/$1-$2" args=()
    case "$1" in
        farm) args=("$hf/Algo/farm.pi" --sources "$hf/Code/src/farm" --include "$hf/Code/include"
                    --param size=128 --param tasks=4 --param elemFloat=0) ;;
        mandel) args=("$here/Algo/mandel.pi" --sources "$here/Code/src" --include "$here/Code/include") ;;
        zoom) args=("$here/Algo/zoom.pi" --sources "$here/Code/src" --include "$here/Code/include") ;;
        steady) local timings=wrong
                case "$2" in static | preesm) timings=right ;; esac
                args=("$here/Algo/steady.pi" --sources "$here/Code/src" --include "$here/Code/include" --scenario
                      "$here/Scenarios/steady-$timings.scenario") ;;
        empty) args=("$here/Algo/steady.pi" --sources "$here/Code/src" --include "$here/Code/include" --scenario
                     "$here/Scenarios/steady-right.scenario" --param heavyUnits=0 --param lightUnits=0) ;;
    esac
    case "$2" in
        static) args+=(--strategy auto --cores 2) ;;
        static-s*) args+=(--strategy auto --cores 2 --override "slots=${2#static-s}") ;;
        preesm) args+=(--strategy preesm --cores 2) ;;
        dynamic) args+=(--schedule dynamic --cores 2) ;;
        dynamic-s1) args+=(--schedule dynamic --cores 2 --override slots=1) ;;
        wrong) args+=(--strategy auto --cores 2) ;;
        hybrid) args+=(--schedule hybrid --cores 2 --variable "$(case "$1" in farm) echo Worker ;; mandel|zoom) echo Tile ;;
                       *) echo Light ;; esac)") ;;
        one) args+=(--strategy preesm --cores 1) ;;
        mpi) args+=(--strategy auto --nodes 2 --cores 1) ;;
    esac
    "$cacheflow" generate "${args[@]}" --out "$out" >"$out.log" 2>&1 || die "generate $1 $2: see $out.log"
    cmake -S "$out" -B "$work/bin/$1-$2" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release >>"$out.log" 2>&1 &&
        cmake --build "$work/bin/$1-$2" -j "$jobs" >>"$out.log" 2>&1 || die "build $1 $2: see $out.log"
}

program() { # graph schedule
    echo "$work/bin/$1-$2/$([ "$1" = empty ] && echo steady || echo "$1")"
}

run_variant() { # graph schedule args...: runs it (the mpi variant under mpirun), output to stdout
    local exe
    exe=$(program "$1" "$2")
    if [ "$2" = mpi ]; then "${mpi[@]}" "$exe" "${@:3}"; else "$exe" "${@:3}"; fi
}

echo "== generate and build (Release)"
mkdir -p "$work/gen" "$work/bin"
"$cacheflow" generate --help >/dev/null
for g in "${graphs[@]}"; do
    for s in $(variants "$g"); do generate "$g" "$s"; done
done

echo "== sink digests (--validate, 20 iterations)"
for g in "${graphs[@]}"; do
    reference=""
    for s in $(variants "$g"); do
        digests=$(run_variant "$g" "$s" --iterations 20 --validate 2>/dev/null | grep -E ' : [0-9a-f]{32}$' | sort)
        [ -n "$digests" ] || die "$g $s printed no digest"
        if [ -z "$reference" ]; then reference=$digests
        elif [ "$digests" != "$reference" ]; then die "$g $s prints other digests than static"; fi
    done
    echo "   $g: $(variants "$g" | sed 's/ /, /g') agree"
done

iterations_of() { # graph
    if [ "$1" = empty ]; then echo $((iterations * 50)); else echo "$iterations"; fi
}
# the dispatched programs' firing table of the empty graph: its firings, and the steps of the one-core iteration
# they run (the generated comment "the firing table: F firings for S steps of the one-core iteration")
read -r firings steps < <(sed -n 's|.*the firing table: \([0-9]*\) firings for \([0-9]*\) steps.*|\1 \2|p' \
    "$work/gen/empty-dynamic/core_0.c")
[ -n "$steps" ] || die "no firing table in $work/gen/empty-dynamic/core_0.c"
# The empty graph's dispatch cost without --time, which makes a dispatched program time every firing (two clock
# reads; its per-core working, dispatching and idle times): the wall time of N iterations minus that of N / 10, per
# N iterations (start-up and tear-down cancel).
untimed() { # graph schedule iterations: seconds for that many iterations
    local n=$3 short=$(( $3 / 10 )) t0 t1 t2
    t0=$(date +%s%N); run_variant "$1" "$2" --iterations "$short" >/dev/null 2>&1
    t1=$(date +%s%N); run_variant "$1" "$2" --iterations "$n" >/dev/null 2>&1
    t2=$(date +%s%N)
    python3 -c "print(max(($t2 - $t1) - ($t1 - $t0), 0) / 1e9 * $n / ($n - $short))"
}
echo "== $rounds rounds of $iterations iterations (empty: $(iterations_of empty)), variants interleaved"
load_before=$(cut -d' ' -f1 /proc/loadavg)
times="$work/times.txt"
: >"$times"
for r in $(seq 1 "$rounds"); do
    for g in "${graphs[@]}"; do
        for s in $(variants "$g"); do
            if [ "$g" = empty ]; then seconds=$(untimed "$g" "$s" "$(iterations_of "$g")")
            else
                seconds=$(run_variant "$g" "$s" --iterations "$(iterations_of "$g")" --time 2>/dev/null |
                    sed -n 's/^time: \([0-9.]*\) s for.*/\1/p')
            fi
            echo "$g $s $r $seconds" >>"$times"
        done
    done
done
load_after=$(cut -d' ' -f1 /proc/loadavg)

{
echo "$(uname -m), $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
python3 - "$times" "$iterations" "$load_before" "$load_after" "$results/load-balancing.csv" "$root" "$firings" \
    "$steps" <<'PY'
import os, statistics, sys
path, iterations, before, after, csv = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
runs = {}
for line in open(path):
    graph, schedule, _, seconds = line.split()
    scale = 50 if graph == "empty" else 1  # run.sh's iterations_of
    runs.setdefault((graph, schedule), []).append(float(seconds) * 1e3 / (iterations * scale))
print(f"load average before / after: {before} / {after}  (figures provisional on a shared machine)")
print(f"{'graph':8} {'schedule':10} {'ms/iteration':>14} {'[min-max]':>18} {'speed-up':>9} {'of ideal':>9}")
rows = ["graph,schedule,median_ms_per_iteration,min,max,speedup_vs_static,ideal_ms_per_iteration,of_ideal,"
        "load_before,load_after"]
for (graph, schedule), values in runs.items():
    median = statistics.median(values)
    static = statistics.median(runs[(graph, "static")])
    ideal = statistics.median(runs[(graph, "one")]) / 2  # the total work shared evenly by the 2 cores
    of_ideal = "" if schedule == "one" else f"{ideal / median:.2f}"
    print(f"{graph:8} {schedule:10} {median:14.3f} {f'[{min(values):.3f}-{max(values):.3f}]':>18} "
          f"{static / median:9.2f} {of_ideal:>9}")
    rows.append(f"{graph},{schedule},{median:.4f},{min(values):.4f},{max(values):.4f},{static / median:.3f},"
                f"{ideal:.4f},{of_ideal},{before},{after}")
print("one: static on 1 core (the total work); ideal = one / 2; of ideal = ideal / the variant's time; steady: "
      "static planned with the right timings, wrong: with Heavy's 3x too small (dynamic and hybrid too)")
firings, steps = int(sys.argv[7]), int(sys.argv[8])
print(f"dispatch cost, empty actors, without --time, median [min-max]: ns per iteration; per firing of the "
      f"dispatched programs' table ({firings} per iteration); per step of the one-core iteration ({steps}: actor "
      "calls, copies, the source's and sink's):")
for schedule in ("static", "preesm", "dynamic", "hybrid", "one"):
    values = [v * 1e6 for v in runs[("empty", schedule)]]
    cells = []
    for per in (1, firings, steps):
        cells.append(f"{statistics.median(values) / per:8.0f} [{min(values) / per:.0f}-{max(values) / per:.0f}]")
    print(f"  {schedule:8} " + "   ".join(cells))
for graph in ("mandel", "zoom"):
    if (graph, "mpi") not in runs:
        continue
    mpi = statistics.median(runs[(graph, "mpi")])
    dynamic = statistics.median(runs[(graph, "dynamic")])
    best = min(dynamic, statistics.median(runs[(graph, "hybrid")]))
    print(f"shared-memory dynamic balancing against 2 MPI ranks ({graph}, mpi: static on 2 nodes x 1 core on this "
          f"machine): throughput dynamic / mpi {mpi / dynamic:.2f}x, best of dynamic and hybrid / mpi "
          f"{mpi / best:.2f}x (the paper, LPEL on the SCC: 7-20x)")
open(csv, "w").write("\n".join(rows) + "\n")
print(f"CSV: {os.path.relpath(csv, sys.argv[6])}")  # relative to the repository
PY
} | tee "$results/load-balancing.txt"
