#!/usr/bin/env bash
# Every benchmark behind bench/RESULTS.md, then the charts, in one command from a fresh clone:
#   bench/run-all.sh [--quick]
# 1. bench/cow-ntm/run.sh            -> bench/results/cow-ntm[-quick].csv, .txt
#    bench/cow-unannotated/run.sh    -> bench/results/cow-unannotated[-quick].csv, .txt (stereo without READ_ONLY)
#    bench/cow-unannotated/weights.sh -> bench/results/cow-unannotated-weights[-quick].csv, .txt (the corpus stereo's
#                                       shape: one memory computed on both cores, broadcast to every disparity)
# 2. bench/home-forwarding/run.sh    -> bench/results/home-forwarding[-quick].csv, .txt (when present)
#    bench/stereo-cores/run.sh       -> bench/results/stereo-cores.csv, .txt (examples/stereo, 2 cores vs 1)
#    bench/multinode/run.sh          -> bench/results/multinode[-quick].csv, .txt (1 node x 2 cores vs 2 x 1, MPI)
#    bench/load-balancing/run.sh     -> bench/results/load-balancing.csv, .txt (static, dynamic, hybrid schedules)
#    bench/firing-marks/run.sh       -> bench/results/firing-marks.csv, .txt (what the crash report's marks cost)
#    bench/profile/run.sh            -> bench/results/profile-cost.csv (what `cacheflow profile`'s runs cost)
#    bench/profile/decisions.sh      -> bench/results/profile-decisions[-quick].csv, .txt (plans from a profile
#                                       against the declared annotations and measure.py's timings)
#    bench/dynparam-variants/run.sh  -> bench/results/dynparam-variants.csv, .txt (one program of every variant
#                                       against one value's)
# 3. the runtime's micro-benchmarks (runtime-c/bench: non-temporal copy, copy-on-write, pre-stores, the
#    pre-stores paper's listings, channels, the channel against ck_ring and FastForward, flags, barriers), built in
#    bench/build/runtime-c (Release) and run with --csv; outputs in bench/results/runtime-c/ (their own CSV layouts; runtime-c/README.md quotes its runs).
#    They have no preesm row: each times one runtime primitive against what it replaces (memcpy, a semaphore, a
#    plain store, other queues), not generated code; the benchmarks of steps 1 and 2 compare generated programs
#    against preesm (PREESM's generated code with its memory scripts).
# 4. bench/charts.py: one SVG per benchmark and metric of every tidy CSV, in bench/results/charts/.
# --quick is passed to every benchmark (3 rounds to those of step 2 that take rounds). A failing benchmark is
# reported and the others still run; the exit status is 1 if any failed. The load average before and after is
# printed: the machine may be shared.
set -uo pipefail

. "$(dirname "$0")/lib.sh" cmake python3 # cmake: the runtime's micro-benchmarks; python3: the charts
bench_options quick -- "$@"
here=$bench_here
root=$bench_root
quick_option=() # --quick, to pass on
[ "$quick" = 0 ] || quick_option=(--quick)

failed=()
run() {
    echo "== run-all: $*" >&2
    if ! "$@"; then
        echo "run-all.sh: FAILED: $*" >&2
        failed+=("$*")
    fi
}

echo "run-all: load before: $(uptime)" >&2
run "$here/cow-ntm/run.sh" "${quick_option[@]}"
run "$here/cow-unannotated/run.sh" "${quick_option[@]}"
run "$here/cow-unannotated/weights.sh" "${quick_option[@]}"
if [ -x "$here/home-forwarding/run.sh" ]; then
    run "$here/home-forwarding/run.sh" "${quick_option[@]}"
fi
if [ -x "$here/stereo-cores/run.sh" ]; then
    run "$here/stereo-cores/run.sh" "${quick_option[@]}"
fi
if command -v mpirun >/dev/null; then
    run "$here/multinode/run.sh" "${quick_option[@]}"
else
    echo "run-all: bench/multinode/run.sh skipped: no mpirun (Debian: openmpi-bin libopenmpi-dev)" >&2
fi
rounds=() # these take a number of rounds, not --quick
[ ${#quick_option[@]} -eq 0 ] || rounds=(--rounds 3)
run "$here/load-balancing/run.sh" "${rounds[@]}"
run "$here/firing-marks/run.sh" "${rounds[@]}"
run "$here/profile/run.sh" "${rounds[@]}"
run "$here/profile/decisions.sh" "${quick_option[@]}"
run "$here/dynparam-variants/run.sh" "${rounds[@]}"

build="$here/build/runtime-c"
out="$here/results/runtime-c"
mkdir -p "$out"
if run cmake -S "$root/runtime-c" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DCF_BUILD_TESTS=OFF \
        -DCF_BUILD_BENCH=ON >/dev/null && run cmake --build "$build"; then
    for program in bench_ntm_copy bench_cow bench_prestore bench_prestore_paper bench_channel bench_spsc bench_flag bench_barrier; do
        if [ -x "$build/$program" ]; then
            name=${program#bench_}
            echo "== run-all: $program" >&2
            if "$build/$program" "${quick_option[@]}" --csv "$out/$name.csv" > "$out/$name.txt"; then
                cat "$out/$name.txt"
            else
                echo "run-all.sh: FAILED: $program (output in $out/$name.txt)" >&2
                failed+=("$program")
            fi
        fi
    done
fi

run python3 "$here/charts.py"
echo "run-all: load after: $(uptime)" >&2
if [ ${#failed[@]} -gt 0 ]; then
    echo "run-all.sh: ${#failed[@]} step(s) failed: ${failed[*]}" >&2
    exit 1
fi
