#!/usr/bin/env bash
# What a profile is worth to the planner, against what a designer declared, in one command:
#   bench/profile/decisions.sh [--quick] [--rounds N] [--part stereo|timings]...
# stereo: the bundled stereo example (examples/stereo, scenario 2core) with every port annotation removed is
#   profiled (`cacheflow profile`, one core, 20 iterations; --quick: 4), then generated on 2 cores with `--profile`
#   (strategy auto). Beside it: the annotated example under auto (what a plan from the profile should reach, within
#   2%), the bare example under auto without a profile (what the profile buys), and the annotated example under
#   preesm (the fair baseline: PREESM's code with its memory scripts). The plans' strategies per FIFO are compared
#   (plan --json), the four programs must print the same sink digests, then they run interleaved, round by round
#   (every other round in reverse order), each with --time; the table gives the median time per iteration (core
#   0's loop, start to start), and per round the ratio of each program to the annotated one, median and min-max.
# timings: the home-forwarding farm (32x32 int) and map (56x56 int), whose actors time themselves: the profile's
#   medians against bench/home-forwarding/measure.py's scenario (each actor's median over 7 runs of the
#   sequential program), 3 of each alternately (--quick: 1), then the 2-core auto programs planned from each,
#   interleaved as above.
# Writes bench/results/profile-decisions[-quick].csv and .txt. --quick: 3 rounds (default 9). Timings are this
# machine's and its load's (printed): on a shared machine they are provisional.
set -euo pipefail

. "$(dirname "$0")/../lib.sh" cmake python3
here=$bench_here
work="$here/build/decisions"
alternations=3
profile_iterations=20 # stereo's profile: 20 iterations (the profile's default) per run
suffix=""
parts=()
bench_quick() { rounds=3; alternations=1; profile_iterations=4; suffix=-quick; }
bench_option() { parts+=("$2"); } # --part stereo|timings
bench_options quick rounds=9 '--part=stereo or timings' -- "$@"
[ ${#parts[@]} -gt 0 ] || parts=(stereo timings)
root=$bench_root
cacheflow=$bench_cacheflow
results=$bench_results
hf="$root/bench/home-forwarding"
rm -rf "$work"
mkdir -p "$work/gen" "$work/bin"
rows="$work/times.txt"
: >"$rows"
"$cacheflow" generate --help >/dev/null # builds the tool once

build() { # generated-dir build-dir
    { cmake -S "$1" -B "$2" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release >"$2.log" 2>&1 &&
      cmake --build "$2" -j "$bench_jobs" >>"$2.log" 2>&1; } || die "build of $1 failed: see $2.log"
}
exe() { # build-dir: the one executable the generated project defines
    find "$1" -maxdepth 1 -type f -perm -u+x ! -name '*.so' | head -1
}
# the sink digests of each program (--validate, 2 iterations) must be the first one's
same_digests() { # label exe...
    local label=$1 reference="" digests
    shift
    for program in "$@"; do
        digests=$("$program" --iterations 2 --validate 2>/dev/null | grep -E ' : [0-9a-f]{32}$') ||
            die "$label: $program printed no digest"
        if [ -z "$reference" ]; then reference=$digests
        elif [ "$digests" != "$reference" ]; then die "$label: $program prints other sink digests than $1"; fi
    done
    echo "   $label: the $# programs print the same sink digests"
}
# runs the programs interleaved (every other round reversed); one row per run: part variant round ms-per-iteration
interleave() { # part iterations name=exe...
    local part=$1 iterations=$2 r median
    shift 2
    local programs=("$@")
    for r in $(seq 1 "$rounds"); do
        local order=("${programs[@]}")
        if [ $((r % 2)) = 0 ]; then
            order=()
            for ((i = ${#programs[@]} - 1; i >= 0; i--)); do order+=("${programs[$i]}"); done
        fi
        for entry in "${order[@]}"; do
            median=$("${entry#*=}" --iterations "$iterations" --time 2>&1 |
                sed -n 's/^iterations (core 0, start to start): median \([0-9.]*\) \([mu]s\).*/\1 \2/p')
            [ -n "$median" ] || die "$part ${entry%%=*}: no time printed"
            read -r value unit <<<"$median"
            [ "$unit" = us ] && value=$(python3 -c "print($value / 1000)")
            echo "$part ${entry%%=*} $r $value" >>"$rows"
        done
    done
}

load_before=$(cut -d' ' -f1 /proc/loadavg)
notes="$work/notes.txt"
: >"$notes"
for part in "${parts[@]}"; do
    case "$part" in
    stereo)
        echo "== stereo: annotations removed, profiled on one core"
        bare="$work/bare/stereo" # the scenario names the project folder: /stereo/Algo/...
        mkdir -p "$work/bare"
        cp -r "$root/examples/stereo" "$bare"
        rm -rf "$bare/Code/build"
        removed=$(grep -ohE 'annotation="(READ_ONLY|WRITE_ONLY|UNUSED)"' "$bare"/Algo/*.pi | wc -l)
        sed -i -E 's/annotation="(READ_ONLY|WRITE_ONLY|UNUSED)"/annotation="NONE"/g' "$bare"/Algo/*.pi
        [ "$removed" -gt 0 ] || die "examples/stereo carries no annotation to remove"
        "$cacheflow" profile "$bare" --scenario 2core --iterations "$profile_iterations" --out "$work/stereo-profile" \
            >"$work/stereo-profile.log" 2>&1 || die "profile failed: see $work/stereo-profile.log"
        profile="$work/stereo-profile/profile.json"
        declare -A sources=([annotated]="$root/examples/stereo" [bare]="$bare" [profiled]="$bare"
                            [preesm]="$root/examples/stereo")
        for variant in annotated bare profiled preesm; do
            args=("${sources[$variant]}" --scenario 2core --cores 2
                  --strategy "$([ "$variant" = preesm ] && echo preesm || echo auto)")
            [ "$variant" = profiled ] && args+=(--profile "$profile")
            "$cacheflow" plan "${args[@]}" --json >"$work/gen/stereo-$variant.plan.json" 2>"$work/gen/stereo-$variant.plan.log" ||
                die "plan stereo $variant: see $work/gen/stereo-$variant.plan.log"
            "$cacheflow" generate "${args[@]}" --out "$work/gen/stereo-$variant" >"$work/gen/stereo-$variant.log" 2>&1 ||
                die "generate stereo $variant: see $work/gen/stereo-$variant.log"
            build "$work/gen/stereo-$variant" "$work/bin/stereo-$variant"
        done
        python3 - "$work/gen" "$removed" >>"$notes" <<'PY'
import json, os, sys
gen, removed = sys.argv[1], sys.argv[2]
def strategies(variant):
    plan = json.load(open(os.path.join(gen, f"stereo-{variant}.plan.json")))
    return {f["source"] + " -> " + ", ".join(f["targets"]): f["strategy"] for f in plan["fifos"]}
annotated = strategies("annotated")
for variant in ("bare", "profiled"):
    other = strategies(variant)
    differ = sorted(k for k in annotated if other.get(k) != annotated[k])
    print(f"stereo, {removed} annotations removed: {variant} plans {len(annotated) - len(differ)} of {len(annotated)} "
          f"FIFOs as the annotated plan" + (f"; differs on {', '.join(differ)}" if differ else ""))
PY
        same_digests stereo $(for v in annotated bare profiled preesm; do exe "$work/bin/stereo-$v"; done)
        echo "== stereo: $rounds rounds, interleaved"
        interleave stereo 20 $(for v in annotated profiled bare preesm; do echo "$v=$(exe "$work/bin/stereo-$v")"; done)
        ;;
    timings)
        for config in "farm 32" "map 56"; do
            read -r graph size <<<"$config"
            name="$graph-$size"
            if [ "$graph" = farm ]; then params=(--param size="$size" --param tasks=4 --param elemFloat=0)
            else params=(--param size="$size" --param parts=4 --param elemFloat=0); fi
            code=(--sources "$hf/Code/src/$graph" --include "$hf/Code/include")
            echo "== $name int: measure.py's scenario against the profile's timings"
            "$cacheflow" generate "$hf/Algo/$graph.pi" "${params[@]}" "${code[@]}" --strategy preesm --cores 1 \
                --out "$work/gen/$name-sequential" >"$work/gen/$name-sequential.log" 2>&1 ||
                die "generate $name sequential: see $work/gen/$name-sequential.log"
            build "$work/gen/$name-sequential" "$work/bin/$name-sequential"
            # as bench/home-forwarding/run.sh runs them (its iterations_for)
            if [ "$graph" = farm ]; then iterations=$(( 2000000 / (size * size * 4) ))
            else iterations=$(( 3000000 / (size * size) )); fi
            # measure.py and the profile alternate (each $alternations times), so that a change of the machine's
            # speed hits both; the actors' times compared are each one's median over the alternations
            for a in $(seq 1 "$alternations"); do
                python3 "$hf/measure.py" --scenario "$work/$name-measured-$a.scenario" --graph "$graph" \
                    --exe "$work/bin/$name-sequential/$graph" --iterations "$iterations" >"$work/$name-measure.log" 2>&1 ||
                    die "measure.py $name: see $work/$name-measure.log"
                "$cacheflow" profile "$hf/Algo/$graph.pi" "${params[@]}" "${code[@]}" --iterations "$iterations" \
                    --out "$work/$name-profile-$a" >"$work/$name-profile.log" 2>&1 ||
                    die "profile $name: see $work/$name-profile.log"
            done
            cp "$work/$name-measured-1.scenario" "$work/$name-measured.scenario"
            cp -r "$work/$name-profile-1" "$work/$name-profile"
            python3 - "$work" "$name" "$alternations" >>"$notes" <<'PY'
import json, re, statistics, sys
work, name, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
measured, profiled, means = {}, {}, {}
for a in range(1, n + 1):
    text = open(f"{work}/{name}-measured-{a}.scenario").read()
    for m in re.finditer(r'<timing opname="[^"]*" time="(\d+)" vertexname="([^"]+)"', text):
        measured.setdefault(m.group(2), []).append(int(m.group(1)))
    profile = json.load(open(f"{work}/{name}-profile-{a}/profile.json"))
    for actor in profile["actors"]:
        profiled.setdefault(actor["actor"], []).append(actor["time"]["medianNs"])
    # the timed run's raw firings (runs/time.jsonl): their mean, the statistic measure.py's actor timer gives
    firings = {}
    for line in open(f"{work}/{name}-profile-{a}/runs/time.jsonl"):
        site = json.loads(line)
        if not site.get("init"):
            firings.setdefault(site["function"], []).extend(site["ns"])
    for function, ns in firings.items():
        means.setdefault(function, []).append(statistics.mean(ns))
functions = {"farm": {"farmEmit": "farm/Emitter", "farmConvolve": "farm/Worker", "farmCollect": "farm/Collector"},
             "map": {"mapScatter": "map/Scatter", "mapMultiply": "map/Worker", "mapGather": "map/Gather"}}
actor_mean = {functions[name.split("-")[0]].get(f): statistics.median(v) for f, v in means.items()}
for actor, times in profiled.items():
    if actor not in measured:
        continue
    ns, want = statistics.median(times), statistics.median(measured[actor])
    ratio, mean = ns / want, actor_mean.get(actor)
    print(f"{name} int: {actor} profile median {ns:.0f} ns, measure.py {want:.0f} ns (medians of {n} alternate runs: "
          f"profile {min(times):.0f}-{max(times):.0f}, measure.py {min(measured[actor])}-{max(measured[actor])}), "
          f"ratio {ratio:.2f}" + ("" if 0.9 <= ratio <= 1.1 else "  (outside 10%)")
          + ("" if mean is None else f"; the profile's mean {mean:.0f} ns, ratio {mean / want:.2f}"))
PY
            for variant in measured profiled; do
                args=("$hf/Algo/$graph.pi" "${params[@]}" "${code[@]}" --strategy auto --cores 2)
                if [ "$variant" = measured ]; then args+=(--scenario "$work/$name-measured.scenario" --target "$hf/ns.target")
                else args+=(--profile "$work/$name-profile/profile.json"); fi
                "$cacheflow" generate "${args[@]}" --out "$work/gen/$name-$variant" >"$work/gen/$name-$variant.log" 2>&1 ||
                    die "generate $name $variant: see $work/gen/$name-$variant.log"
                build "$work/gen/$name-$variant" "$work/bin/$name-$variant"
            done
            same_digests "$name" "$work/bin/$name-measured/$graph" "$work/bin/$name-profiled/$graph"
            interleave "$name" "$iterations" "measured=$work/bin/$name-measured/$graph" \
                "profiled=$work/bin/$name-profiled/$graph"
        done
        ;;
    *) die "unknown part '$part' (stereo or timings)" ;;
    esac
done
load_after=$(cut -d' ' -f1 /proc/loadavg)

{
echo "$(uname -m), $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "load average before / after: $load_before / $load_after  (figures provisional on a shared machine)"
cat "$notes"
python3 - "$rows" "$results/profile-decisions$suffix.csv" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
by = {}
for part, variant, rnd, ms in rows:
    by.setdefault(part, {}).setdefault(variant, {})[int(rnd)] = float(ms)
reference = {"stereo": "annotated"}
out = open(sys.argv[2], "w")
out.write("benchmark,variant,size,metric,median,low,high,unit\n")
print(f"{'part':8} {'variant':10} {'ms/iteration':>12} {'[min-max]':>19}  {'ratio to reference':>18} {'[min-max]':>13}")
for part, variants in by.items():
    ref = reference.get(part, "measured")
    for variant, times in variants.items():
        values = list(times.values())
        ratios = [times[r] / variants[ref][r] for r in times if r in variants[ref]]
        print(f"{part:8} {variant:10} {statistics.median(values):12.4g} [{min(values):8.4g}-{max(values):8.4g}]  "
              f"{statistics.median(ratios):18.3f} [{min(ratios):.3f}-{max(ratios):.3f}]")
        out.write(f"profile-decisions,{variant},{part},ms_per_iteration,{statistics.median(values):.4f},"
                  f"{min(values):.4f},{max(values):.4f},ms\n")
        out.write(f"profile-decisions,{variant},{part},ratio_to_{ref},{statistics.median(ratios):.4f},"
                  f"{min(ratios):.4f},{max(ratios):.4f},ratio\n")
print("ratio: per round, the variant's time over the reference's (stereo: annotated, the others: measured)")
print(f"CSV: bench/results/{sys.argv[2].rsplit('/', 1)[-1]}")
PY
} | tee "$results/profile-decisions$suffix.txt"
