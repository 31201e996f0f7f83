#!/usr/bin/env bash
# The stereo example's actor times on this machine, as scenario timings (microseconds per firing):
#   bench/stereo-cores/actor-times.sh [--iterations N]
# Generates and builds examples/stereo on 1 core (strategy auto, Release, bundled runtime), runs it under
# `perf record -e cpu-clock` (a software event: works in VMs without a PMU), and divides each actor function's
# samples by the iterations and the actor's firings per iteration (the graph's repetition vector, from
# `cacheflow inspect --json`). Prints one <timing> line per actor, to paste
# into examples/stereo/Scenarios/*.scenario, and the share of the run each actor took. Needs perf (Debian:
# linux-perf). The planner maps and pipelines with these timings: stale ones misplace the work.
set -euo pipefail

. "$(dirname "$0")/../lib.sh" cmake python3
bench_options iterations=40 -- "$@"
need perf "Debian: linux-perf"
here=$bench_here
root=$bench_root
cacheflow=$bench_cacheflow

work="$here/build/actor-times"
mkdir -p "$work"
echo "== generate and build stereo on 1 core" >&2
"$cacheflow" generate "$root/examples/stereo" --out "$work/gen" --cores 1 --strategy auto \
    --sources "$root/examples/stereo/Code/src" --include "$root/examples/stereo/Code/include" >"$work/log" 2>&1 ||
    { cat "$work/log" >&2; exit 1; }
{ cmake -S "$work/gen" -B "$work/gen/build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DCACHEFLOW_BUNDLED_RUNTIME=ON >>"$work/log" 2>&1 &&
  cmake --build "$work/gen/build" -j 2 >>"$work/log" 2>&1; } || { tail -30 "$work/log" >&2; exit 1; }

# firings per iteration of every actor, from the graph (cacheflow inspect --json: the repetition vector)
"$cacheflow" inspect "$root/examples/stereo" --json 2>>"$work/log" |
    python3 -c 'import json, sys
for actor in json.load(sys.stdin)["actors"]: print(actor["name"], actor["repetitions"])' >"$work/firings" ||
    { echo "actor-times.sh: cacheflow inspect failed (see $work/log)" >&2; exit 1; }

frequency=10000
echo "== perf record -e cpu-clock -F $frequency, $iterations iterations" >&2
perf record -q -e cpu-clock -F "$frequency" -o "$work/perf.data" "$work/gen/build/stereo" \
    --iterations "$iterations" >/dev/null 2>>"$work/log"
perf report -i "$work/perf.data" --stdio --sort symbol -n 2>/dev/null | grep -v '^#' |
    awk -v hz="$frequency" -v n="$iterations" -v repetitions="$work/firings" '
    # actor functions (and the helpers they alone call) -> the scenario vertices they serve
    BEGIN {
        while ((getline line < repetitions) > 0) { split(line, field, " "); count[field[1]] = field[2] }
        actor["generateStereoPair"] = "Generate";            actor["hash"] = "Generate"
        actor["censusTransform"] = "CensusLeft CensusRight"
        actor["generateDisparities"] = "DisparityCosts/DisparityGen"
        actor["matchingCost"] = "DisparityCosts/MatchingCost"
        actor["aggregateCost"] = "DisparityCosts/AggregateCost"; actor["boxSumLanes"] = "DisparityCosts/AggregateCost"
        actor["selectDisparity"] = "DisparityCosts/SelectDisparity"
        actor["refineDisparity"] = "Refine";                  actor["splitRows"] = "Split"
        actor["medianFilterSlice"] = "Median";                actor["evaluateDisparity"] = "Evaluate"
        # a function serving several vertices: its samples per firing of any of them
        for (f in actor) {
            if (actor[f] in firings) continue
            k = split(actor[f], names, " ")
            for (i = 1; i <= k; i++) {
                if (!(names[i] in count)) { printf "actor-times.sh: no actor %s in the graph\n", names[i] > "/dev/stderr"; bad = 1; exit 1 }
                firings[actor[f]] += count[names[i]]
            }
        }
    }
    NF >= 4 && $1 ~ /%$/ {
        symbol = $4; sub(/\..*$/, "", symbol)
        total += $2
        if (symbol in actor) { samples[actor[symbol]] += $2; mapped += $2 }
    }
    END {
        if (bad) exit 1
        for (a in firings) {
            us = (samples[a] / hz) / n / firings[a] * 1e6
            split(a, names, " ")
            for (i in names)
                printf "        <timing opname=\"x86\" time=\"%d\" vertexname=\"stereo/%s\"/>  <!-- %.1f%% -->\n",
                    us < 1 ? 1 : us + 0.5, names[i], 100 * samples[a] / total
        }
        printf "(%.1f ms of samples per iteration, %.1f%% of them in actor functions)\n",
            total / hz / n * 1e3, 100 * mapped / total
    }' | sort
