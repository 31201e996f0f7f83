#!/usr/bin/env python3
"""Runs the built benchmark programs of bench/home-forwarding (run.sh builds them and writes the plan),
checks that every variant of a configuration prints the same sink digests, times repeated runs, prints a
table and writes a tidy CSV (one row per measurement).

With --scenario OUT --graph farm|map --exe E --iterations N it only measures the actors' times of the
sequential program E (CF_BENCH_ACTOR_TIMES=1, each actor's median over 7 runs; with --probe, over 7 runs the
placement probe found near, or on two cores when it found none near) and writes them as a PREESM scenario, in ns
per firing: what a PREESM user gives the planner (run.sh generates the 2-core variants with it).

Plan file: one line per program, tab-separated:
    benchmark size type variant cores tasks_per_iteration iterations executable [generated_project]

The static schedule's bound: the sequential program is run with CF_BENCH_ACTOR_TIMES=1 (the actors time
their own firings, Code/include/actor_timer.h); the generated project of a 2-core variant says which actor
functions each core's loop calls (core_N.c); the bound is the sum of all firings' times over the busiest
core's share: the speed-up that mapping and order allow with free hand-offs. `of bound` is a variant's
speed-up over it. The actor times are measured in the same rounds as the speed-ups (every round also runs the
sequential program with CF_BENCH_ACTOR_TIMES=1; per placement, the median of its rounds), so that the bound and
the speed-up come from the same conditions; the bound from the times the planner was given (7 earlier runs,
--scenarios) is printed beside it.

Service time per task (the paper's T_S): measured by the sink actor itself (Code/include/stream_timer.h),
the mean interval between its consecutive firings after the first tenth, per task; start-up and tear-down
are left out. With --measure median, instead: the median of core 0's iterations, start to start (the generated
program's --time), over the tasks per iteration -- iterations the host delayed (a descheduled core) left aside.
The variants of one configuration run interleaved, round by round, so that a change of
machine load hits all of them; ratios are taken within a round and then summarised.
"""
import argparse
import csv
import os
import random
import re
import statistics
import subprocess
import sys

BASELINE, LAMPORT, SEQUENTIAL = "baseline", "lamport", "sequential"
# PREESM's generated code with its memory scripts on the 2 cores: the reference the ratios are first given against
PREESM = "preesm"
VARIANT_ORDER = [SEQUENTIAL, PREESM, BASELINE, "homeforward", LAMPORT, "auto", "homeforward-demote"]


def fail(message):
    print(f"measure.py: {message}", file=sys.stderr)
    sys.exit(1)


def read_plan(path):
    programs = []
    with open(path, encoding="utf-8") as plan:
        for number, line in enumerate(plan, 1):
            if not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) not in (8, 9):
                fail(f"{path}:{number}: expected 8 or 9 tab-separated fields, found {len(fields)}")
            benchmark, size, elem_type, variant, cores, tasks, iterations, exe = fields[:8]
            generated = fields[8] if len(fields) == 9 else None
            try:
                programs.append(dict(benchmark=benchmark, size=int(size), type=elem_type, variant=variant,
                                     cores=int(cores), tasks=int(tasks), iterations=int(iterations), exe=exe,
                                     generated=generated))
            except ValueError as error:
                fail(f"{path}:{number}: {error}")
    return programs


STREAM_TIMER = re.compile(r"^stream-timer: (\d+) firings, ([0-9.eE+-]+) us/task$", re.M)
ITERATION_MEDIAN = re.compile(r"^iterations \(core 0, start to start\): median ([0-9.]+) (ms|us),", re.M)
MEASURE = "mean"  # --measure: "mean" (the sink's stream timer) or "median" (--time's median iteration)


ACTOR_TIME = re.compile(r"^actor-time: (\w+) (\d+) firings, ([0-9.eE+-]+) us/firing$", re.M)
ACTOR_CALL = re.compile(r"/\* [^\n]*? \([^\n]*?\) \*/\n\s*(\w+)\(")


def run(exe, iterations, validate=False, environment=None, tasks=None):
    """Returns (service time in us per task or None, stdout); with environment, also the stderr. With tasks (the
    tasks per iteration) and --measure median: the median iteration (--time) over tasks, else the stream timer."""
    median = tasks is not None and MEASURE == "median"
    command = ([exe, "--iterations", str(iterations)] + (["--validate"] if validate else [])
               + (["--time"] if median else []))
    env = dict(os.environ, **environment) if environment else None
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if done.returncode != 0:
        fail(f"{' '.join(command)} exited with {done.returncode}: {done.stderr.strip()[-500:]}")
    if median:
        found = ITERATION_MEDIAN.search(done.stdout)
        service = (float(found.group(1)) * (1e3 if found.group(2) == "ms" else 1) / tasks) if found else None
    else:
        timer = STREAM_TIMER.search(done.stderr)
        service = float(timer.group(2)) if timer else None
    if environment:
        return service, done.stdout, done.stderr
    return service, done.stdout


def actor_times(program, runs=3, pick=statistics.median, probe=None, counting=None):
    """us per firing of each actor function: `pick` (median) over `runs` runs of the sequential program. With a
    placement probe, only runs bracketed by two probes that found the vCPUs in one of the `counting` placements
    (default: on two cores, near or far) count, up to TWO_CORE_ATTEMPTS x runs tries; the second value returned
    says how many counted and in which placement."""
    counting = counting or TWO_CORES
    samples, counted, tries = {}, [], 0
    while len(counted) < runs and tries < (TWO_CORE_ATTEMPTS * runs if probe else runs):
        tries += 1
        before = run_probe(probe)
        _, _, err = run(program["exe"], program["iterations"], environment={"CF_BENCH_ACTOR_TIMES": "1"})
        placement = placement_of(before, run_probe(probe)) if probe else "unknown"
        if probe and placement not in counting:
            continue
        counted.append(placement)
        for name, _, us in ACTOR_TIME.findall(err):
            samples.setdefault(name, []).append(float(us))
    return {name: pick(values) for name, values in samples.items()}, counted


# The scenario's times: each actor's median over SCENARIO_RUNS runs (each a mean over all its firings) in the
# placement the planner plans for, near (its line and hand-off costs are near's, docs/plan.md). Only runs the probe
# found there count: on one physical core's two hardware threads ("shared", see PLACEMENTS) one thread runs 1.3-1.7x
# faster than on a core of the two-core placements, and far runs, or runs beside other work, are slower. Until
# 2026-11-27 14:59 (ea0f919) the scenario took each actor's least over 7 two-core runs (a disturbed run only lengthens
# one): but within the near placement a sequential run is sometimes much faster than its usual (map 224x224 int:
# worker 3.47 us least, 5.9 median in the rounds after; farm 32x32 int: 3.42 us of work per iteration where the
# program ran 5.1), so the least made the work look smaller against the hand-offs than it runs, and the planner chose
# one core for farm 32x32 and map 168x168 int, which ran 1.5x and 1.36x faster on two (run of 2026-11-27 12:25).
SCENARIO_RUNS = 7
TWO_CORES = ("near", "far")
SCENARIO_PLACEMENTS = ("near",)
TWO_CORE_ATTEMPTS = 4


# The actor functions of each graph and the PiSDF vertices they implement (the scenario's vertex names).
VERTICES = {
    "farm": {"farmEmit": "farm/Emitter", "farmConvolve": "farm/Worker", "farmCollect": "farm/Collector"},
    "map": {"mapScatter": "map/Scatter", "mapMultiply": "map/Worker", "mapGather": "map/Gather"},
}


def scenario_times(path, graph):
    """us per firing of each actor function, from a scenario write_scenario wrote ({} when there is none)."""
    if not os.path.isfile(path):
        return {}
    functions = {vertex: function for function, vertex in VERTICES[graph].items()}
    found = re.findall(r'<timing opname="[^"]*" time="([0-9]+)" vertexname="([^"]+)"/>', open(path).read())
    return {functions[vertex]: int(ns) / 1000 for ns, vertex in found if vertex in functions}


def write_scenario(path, graph, exe, iterations, probe=None):
    """Measures the sequential program's actor times and writes them as a scenario (ns per firing)."""
    vertices = VERTICES[graph]
    program = dict(exe=exe, iterations=iterations)
    times, counted = actor_times(program, runs=SCENARIO_RUNS, probe=probe, counting=SCENARIO_PLACEMENTS)
    if probe and not counted:
        # the vCPUs stayed elsewhere: two cores, far, are still nearer a 2-core program's conditions than none
        times, counted = actor_times(program, runs=SCENARIO_RUNS, probe=probe)
    if not counted:
        fail(f"{exe}: no run of the {TWO_CORE_ATTEMPTS * SCENARIO_RUNS} tried had the vCPUs on two cores (the probe "
             f"found them on one core's two hardware threads, or moving): actor times not written")
    where = (f"{len(counted)} runs in a two-core placement ({', '.join(f'{counted.count(p)} {p}' for p in TWO_CORES)})"
             if probe else f"{len(counted)} runs")
    missing = sorted(set(vertices) - set(times))
    if missing:
        fail(f"{exe}: no actor time for {', '.join(missing)} (CF_BENCH_ACTOR_TIMES=1)")
    ns = {vertices[f]: max(1, round(times[f] * 1000)) for f in vertices}
    with open(path, "w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                  f"<!-- written by bench/home-forwarding/measure.py: the actors' times (ns per firing), each one's median over "
                  f"{where} of the sequential program with CF_BENCH_ACTOR_TIMES=1 on this machine -->\n"
                  '<scenario>\n    <flags>\n        <sizesAreInBit/>\n    </flags>\n'
                  f'    <files>\n        <algorithm url="/home-forwarding/Algo/{graph}.pi"/>\n'
                  '    </files>\n    <timings excelUrl="">\n')
        for vertex, t in ns.items():
            out.write(f'        <timing opname="x86" time="{t}" vertexname="{vertex}"/>\n')
        # the graphs' FIFOs carry int32_t words (floats travel as their bits), 32 bits (sizesAreInBit above): said,
        # so the reader need not assume a size and warn
        out.write("    </timings>\n    <simuParams>\n        <dataTypes>\n"
                  '            <dataType name="int32_t" size="32"/>\n        </dataTypes>\n    </simuParams>\n'
                  "</scenario>\n")
    print(f"   {os.path.basename(path)}: " + ", ".join(f"{v.split('/')[1]} {t} ns" for v, t in ns.items())
          + f" (each one's median over {where})")


def calls_per_core(generated):
    """{core: {function: calls per iteration}} from the loops of a generated project's core_N.c files."""
    cores = {}
    for name in sorted(os.listdir(generated)):
        match = re.fullmatch(r"core_(\d+)\.c", name)
        if not match:
            continue
        with open(os.path.join(generated, name), encoding="utf-8") as source:
            text = source.read()
        loop = text[text.find("for (long iteration"):]
        counts = cores.setdefault(int(match.group(1)), {})
        for function in ACTOR_CALL.findall(loop):
            counts[function] = counts.get(function, 0) + 1
    return cores


def schedule_bound(times, generated):
    """Sequential time over the busiest core's: the speed-up the mapping allows; None when unknown."""
    if not times or not generated or not os.path.isdir(generated):
        return None
    cores = calls_per_core(generated)
    loads = [sum(times.get(f, 0.0) * n for f, n in calls.items()) for calls in cores.values() if calls]
    total = sum(loads)
    return total / max(loads) if loads and max(loads) > 0 else None


def planned_cores(program):
    """The cores the generated program runs on (the planner may map a 2-core request to 1 core): core_N.c files
    whose loop calls an actor."""
    if not program["generated"] or not os.path.isdir(program["generated"]):
        return program["cores"]
    return sum(1 for calls in calls_per_core(program["generated"]).values() if calls) or program["cores"]


def digests(stdout):
    return [line for line in stdout.splitlines() if " : " in line and not line.startswith(("stats:", "time:"))]


def summary(values):
    """median, low, high: min and max for fewer than 10 values, else the 10th and 90th percentiles."""
    values = sorted(values)
    if len(values) < 10:
        return statistics.median(values), values[0], values[-1]
    deciles = statistics.quantiles(values, n=10, method="inclusive")
    return statistics.median(values), deciles[0], deciles[-1]


def measure_configuration(programs, runs, validate_iterations, probe=None, scenario=None):
    first = programs[0]
    label = f"{first['benchmark']} {first['size']}x{first['size']} {first['type']}"
    reference = None
    for program in programs:
        _, out = run(program["exe"], validate_iterations, validate=True)
        found = digests(out)
        if not found:
            fail(f"{label} {program['variant']}: no digest in the output of --validate")
        if reference is None:
            reference = (program["variant"], found)
        elif found != reference[1]:
            fail(f"{label}: {program['variant']} digests {found} differ from {reference[0]}'s {reference[1]}")
    sequential = [p for p in programs if p["variant"] == SEQUENTIAL]
    # the times the planner was given (run.sh's scenario), else measured here before the rounds
    planned_times = scenario_times(scenario, first["benchmark"]) if scenario else {}
    if not planned_times and sequential:
        planned_times, _ = actor_times(sequential[0], probe=probe)
    per_task = {program["variant"]: [] for program in programs}
    placements, round_times = [], []
    for round_number in range(runs):
        before = run_probe(probe)
        # a new order every round (seeded: the same for every run of the script), so that no variant always
        # runs first, nor always right after the same other one: a rotation kept the neighbours, and the program
        # after `baseline` (whose threads sleep in the kernel at every hand-off) ran up to 35% slower in every
        # round (map 56x56 int, 2026-11-27: homeforward 1.62 us/task against 1.18 for the identical binary of
        # auto); the sequential program's timed run (for the bound) takes its place in the order as one more
        timed = dict(sequential[0], variant=None) if sequential else None
        order = programs + ([timed] if timed else [])
        random.Random(round_number).shuffle(order)
        for program in order:
            if program is timed:
                _, _, err = run(program["exe"], program["iterations"], environment={"CF_BENCH_ACTOR_TIMES": "1"})
                round_times.append({name: float(us) for name, _, us in ACTOR_TIME.findall(err)})
                continue
            service, _ = run(program["exe"], program["iterations"], tasks=program["tasks"])
            if service is None:
                fail(f"{label} {program['variant']}: {program['exe']} printed no "
                     + ("iteration times (--time)" if MEASURE == "median" else "'stream-timer:' line"))
            per_task[program["variant"]].append(service)
        placements.append(placement_of(before, run_probe(probe)))
    # the actor times of these rounds: all of them, and per placement (the median of each actor's times)
    times = {"all": median_times(round_times)}
    for kind in PLACEMENTS:
        times[kind] = median_times([t for t, where in zip(round_times, placements) if where == kind])
    # a 2-core request the planner mapped to 1 core has the bound of one core: 1.0 (the caller's)
    bounds = {p["variant"]: {kind: schedule_bound(t, p["generated"]) for kind, t in times.items()}
              for p in programs if p["cores"] > 1}
    planned_bounds = {p["variant"]: schedule_bound(planned_times, p["generated"]) for p in programs if p["cores"] > 1}
    return reference[1], per_task, dict(times, planned=planned_times), bounds, planned_bounds, placements


def median_times(runs):
    """{actor function: median us per firing} over runs ({function: us} each); {} without runs."""
    names = {name for times in runs for name in times}
    return {name: statistics.median(t[name] for t in runs if name in t) for name in sorted(names)}


# This VM's two vCPUs move between three placements within seconds (probe/probe.c says how each is told):
# "shared" -- the two hardware threads of one physical core (two threads of arithmetic each run about half as fast
# as one alone, so no 2-core program can beat one core there by much); "near" -- two cores, a one-line hand-off
# ~45-60 ns one-way; "far" -- two cores, ~110-250 ns. A 2-core program's speed-up depends on it. Every round is
# bracketed by the probe and counts for a placement only when both probes agree.
NEAR_LIMIT_NS = 90.0
SHARED_LIMIT = 1.4  # core sharing (time beside the other CPU's arithmetic / alone) from which the core is shared
PLACEMENTS = ("shared", "near", "far")


def parse_probe(output):
    """(one-way ns, core sharing) from the probe's output (probe/probe.c), or None without both lines."""
    one_way = re.search(r"probe: one-way ([0-9.]+) ns", output)
    sharing = re.search(r"probe: core sharing ([0-9.]+)", output)
    return (float(one_way.group(1)), float(sharing.group(1))) if one_way and sharing else None


def run_probe(probe):
    """Runs the probe: its (one-way ns, core sharing), or None when there is no probe or it did not finish."""
    if not probe:
        return None
    try:
        done = subprocess.run([probe], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        print(f"warning: the placement probe {probe} did not finish in 60 s: placement unknown", file=sys.stderr)
        return None
    probed = parse_probe(done.stdout)
    if done.returncode != 0 or not probed:
        fail(f"{probe}: no 'probe: one-way' and 'probe: core sharing' lines ({done.stderr.strip()})")
    return probed


def placement_at(probed):
    """One probe's placement: shared, near or far."""
    one_way, sharing = probed
    if sharing >= SHARED_LIMIT:
        return "shared"
    return "near" if one_way < NEAR_LIMIT_NS else "far"


def placement_of(before, after):
    """A round's placement from the probes before and after it: "mixed" when they disagree."""
    if before is None or after is None:
        return "unknown"
    first, second = placement_at(before), placement_at(after)
    return first if first == second else "mixed"


# The 1-core reference itself runs in two states on this host, a fast one and one 1.3-1.6x slower, for seconds at a
# time (bench/results/history/2026-11-28-e925837.md, 2026-11-27 02:33-03:25). The state is the host's: not the
# clock, the guest's page size (transparent huge pages) nor what the other vCPU does (2026-11-28 02:27-02:35); the
# 2-core programs have it too. A round counts as "fast" when a program's service time is within STATE_MARGIN of its
# fastest round, else "slow". A run whose rounds all lie within STATE_MARGIN of the fastest shows one state, and which
# one cannot be told from the run alone: every round is then ONE_STATE and nothing is split.
STATES = ("fast", "slow")
ONE_STATE = "one"
STATE_MARGIN = 0.15


def speed_states(per_round):
    """Per round, whether a program ran in its fast or its slow state (see STATES), or ONE_STATE for every round
    when none is more than STATE_MARGIN slower than the fastest."""
    fastest = min(per_round) if per_round else 0
    if not per_round or max(per_round) <= fastest * (1 + STATE_MARGIN):
        return [ONE_STATE] * len(per_round)
    return ["fast" if t <= fastest * (1 + STATE_MARGIN) else "slow" for t in per_round]


# The state is the host's, not the program's: a 2-core program has one too (stereo's 20-21 ms against 27-35 ms in
# stereo run 17 of 2026-11-28 00:37), and it is in its fast state less often than the 1-core program (5 rounds of 24
# against 16: it needs both vCPUs fast). A round where the 1-core program ran fast and the 2-core one slow measures
# the host, not the schedule (stereo: 1.09-1.36x in those rounds, 1.76-1.86 with both fast, 1.37-2.26 with both slow). So the
# speed-up is also given within the rounds where the two ran in the same state, each judged against its own fastest
# round -- as the placements are compared within one placement. Where either program ran in one state only,
# which one cannot be told and no round is matched.
def matched_rounds(reference_states, variant_states):
    """The indexes of the rounds where the reference and the variant ran in the same state, both fast or both slow
    (speed_states of each); [] where either ran in ONE_STATE."""
    if ONE_STATE in reference_states or ONE_STATE in variant_states:
        return []
    return [i for i, (mine, theirs) in enumerate(zip(variant_states, reference_states)) if mine == theirs]


def ratio_rows(per_task, variant, reference):
    if reference not in per_task or variant == reference:
        return None
    return [mine / theirs for mine, theirs in zip(per_task[variant], per_task[reference])]


def matched_cell(common, rows, variant, speedups, states, variant_states, placements, probed, bound):
    """The speed-up within the rounds where the sequential program and the variant ran in the same state
    (matched_rounds; within the near placement when the rounds were probed), as a CSV row (and one for the fraction
    of `bound`, the schedule's bound from those rounds' placement, when known) and a cell of text."""
    matched = [i for i in matched_rounds(states, variant_states) if not probed or placements[i] == "near"]
    if not matched:
        return (f"{variant} - (it ran in one state: its rounds within {STATE_MARGIN:.0%} of its fastest)"
                if ONE_STATE in variant_states else f"{variant} - (no round)")
    within = [speedups[i] for i in matched]
    median, low, high = summary(within)
    fast = sum(1 for i in matched if states[i] == "fast")
    rows.append(dict(common, metric="speedup_vs_sequential_matched_state", median=median, low=low, high=high,
                     unit="x", rounds=len(within)))
    cell = f"{variant} {median:.2f} ({low:.2f}-{high:.2f}) in {len(matched)} ({fast} both fast)"
    if bound:
        rows.append(dict(common, metric="fraction_of_bound_matched_state", median=median / bound, low=low / bound,
                         high=high / bound, unit="x", rounds=len(within)))
        cell += f", {median / bound:.2f} of bound {bound:.2f}"
    return cell


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("plan", nargs="?")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--validate-iterations", type=int, default=20)
    parser.add_argument("--csv")
    parser.add_argument("--measure", choices=("mean", "median"), default="mean",
                        help="service time per task: the sink's stream timer (mean, default) or the median of "
                             "core 0's iterations (the programs' --time) over the tasks per iteration")
    parser.add_argument("--probe", metavar="EXE", help="placement probe (probe/probe.c) run before and after "
                        "every round: speed-ups are also reported within the shared, the near and the far rounds")
    parser.add_argument("--scenario", metavar="OUT", help="only write the sequential program's actor times as a "
                        "scenario (with --graph, --exe, --iterations; with --probe, from runs on two cores only)")
    parser.add_argument("--scenarios", metavar="DIR", help="the scenarios run.sh wrote (<bench>-<size>-<type>"
                        ".scenario): the bound uses the actor times the planner was given instead of measuring again")
    parser.add_argument("--graph", choices=sorted(VERTICES))
    parser.add_argument("--exe")
    parser.add_argument("--iterations", type=int)
    options = parser.parse_args()
    global MEASURE
    MEASURE = options.measure
    if options.scenario:
        if not (options.graph and options.exe and options.iterations):
            fail("--scenario needs --graph, --exe and --iterations")
        write_scenario(options.scenario, options.graph, options.exe, options.iterations, options.probe)
        return
    if not options.plan or not options.csv:
        fail("a plan file and --csv are needed (or --scenario)")
    if options.runs < 1:
        fail("--runs must be at least 1")

    programs = read_plan(options.plan)
    configurations = {}
    for program in programs:
        configurations.setdefault((program["benchmark"], program["size"], program["type"]), []).append(program)

    rows = []
    header = (f"{'benchmark':<9} {'size':>7} {'type':<5} {'variant':<18} {'cores':<17} {'T_S us/task':>11} "
              f"{'min-max':>15} {'vs preesm':>17} {'vs baseline':>17} {'vs lamport':>17} {'speedup':>7} {'bound':>5} {'of bound':>8}")
    print(header)
    print("-" * len(header))
    for (benchmark, size, elem_type), group in configurations.items():
        group.sort(key=lambda p: VARIANT_ORDER.index(p["variant"]) if p["variant"] in VARIANT_ORDER else 99)
        scenario = (os.path.join(options.scenarios, f"{benchmark}-{size}-{elem_type}.scenario")
                    if options.scenarios else None)
        digest_lines, per_task, times, bounds, planned_bounds, placements = measure_configuration(
            group, options.runs, options.validate_iterations, options.probe, scenario)
        by_placement = {}
        states = speed_states(per_task.get(SEQUENTIAL, []))
        by_state = {}
        matched_cells = []
        for program in group:
            variant = program["variant"]
            planned = planned_cores(program)
            common = dict(benchmark=benchmark, variant=variant, size=size, type=elem_type, runs=options.runs,
                          cores=program["cores"], tasks_per_iteration=program["tasks"],
                          iterations=program["iterations"], planner_cores=planned, rounds=options.runs)
            cores_cell = (f"{planned} core (planner)" if planned == 1 and program["cores"] > 1
                          else f"{planned}")
            median, low, high = summary(per_task[variant])
            rows.append(dict(common, metric="service_time", median=median, low=low, high=high, unit="us/task"))
            cells = {}
            for metric, reference in (("ratio_vs_preesm", PREESM), ("ratio_vs_baseline", BASELINE),
                                      ("ratio_vs_lamport", LAMPORT)):
                ratios = ratio_rows(per_task, variant, reference)
                if ratios:
                    r_median, r_low, r_high = summary(ratios)
                    rows.append(dict(common, metric=metric, median=r_median, low=r_low, high=r_high, unit="x"))
                    cells[metric] = f"{r_median:5.2f} ({r_low:.2f}-{r_high:.2f})"
            speedups = ratio_rows(per_task, SEQUENTIAL, variant)
            if speedups:
                s_median, s_low, s_high = summary(speedups)
                rows.append(dict(common, metric="speedup_vs_sequential", median=s_median, low=s_low, high=s_high,
                                 unit="x"))
                cells["speedup"] = f"{s_median:.2f}"
                one_core = planned == 1 and program["cores"] > 1
                round_bounds = bounds.get(variant, {})
                bound = 1.0 if one_core else round_bounds.get("all")
                planned_bound = 1.0 if one_core else planned_bounds.get(variant)
                if variant != SEQUENTIAL:
                    for kinds, of_round, suffix, cells_by in ((PLACEMENTS, placements, "", by_placement),
                                                              (STATES, states, "_reference", by_state)):
                        for kind in kinds:
                            within = [x for x, where in zip(speedups, of_round) if where == kind]
                            if within:
                                k_median, k_low, k_high = summary(within)
                                rows.append(dict(common, metric=f"speedup_vs_sequential_{kind}{suffix}",
                                                 median=k_median, low=k_low, high=k_high, unit="x",
                                                 rounds=len(within)))
                                cell = f"{variant} {k_median:.2f} ({k_low:.2f}-{k_high:.2f})"
                                # the schedule's bound assumes two cores: within the two-core placements the
                                # fraction of it is the target's measure; a shared core's bound is about 1
                                # (the bound from this placement's rounds' actor times)
                                k_bound = 1.0 if one_core else round_bounds.get(kind)
                                if k_bound and kinds is PLACEMENTS and kind != "shared":
                                    rows.append(dict(common, metric=f"schedule_bound_{kind}", median=k_bound,
                                                     low=k_bound, high=k_bound, unit="x", rounds=len(within)))
                                    rows.append(dict(common, metric=f"fraction_of_bound_{kind}",
                                                     median=k_median / k_bound, low=k_low / k_bound,
                                                     high=k_high / k_bound, unit="x", rounds=len(within)))
                                    cell += f", {k_median / k_bound:.2f} of bound {k_bound:.2f}"
                                    if planned_bound:
                                        cell += f" ({k_median / planned_bound:.2f} of the planned times' {planned_bound:.2f})"
                                cells_by.setdefault(kind, []).append(cell)
                    if states and ONE_STATE not in states:
                        matched_cells.append(matched_cell(common, rows, variant, speedups, states,
                                                          speed_states(per_task[variant]), placements,
                                                          options.probe, 1.0 if one_core else
                                                          round_bounds.get("near" if options.probe else "all")))
                if planned_bound:
                    rows.append(dict(common, metric="schedule_bound_planned", median=planned_bound, low=planned_bound,
                                     high=planned_bound, unit="x"))
                    rows.append(dict(common, metric="fraction_of_bound_planned", median=s_median / planned_bound,
                                     low=s_low / planned_bound, high=s_high / planned_bound, unit="x"))
                if bound:
                    rows.append(dict(common, metric="schedule_bound", median=bound, low=bound, high=bound, unit="x"))
                    rows.append(dict(common, metric="fraction_of_bound", median=s_median / bound,
                                     low=s_low / bound, high=s_high / bound, unit="x"))
                    cells["bound"] = f"{bound:.2f}"
                    cells["of_bound"] = f"{s_median / bound:.2f}"
            print(f"{benchmark:<9} {f'{size}x{size}':>7} {elem_type:<5} {variant:<18} {cores_cell:<17} {median:11.2f} "
                  f"{f'{low:.2f}-{high:.2f}':>15} {cells.get('ratio_vs_preesm', '-'):>17} "
                  f"{cells.get('ratio_vs_baseline', '-'):>17} "
                  f"{cells.get('ratio_vs_lamport', '-'):>17} {cells.get('speedup', '-'):>7} "
                  f"{cells.get('bound', '-'):>5} {cells.get('of_bound', '-'):>8}")
        print(f"{'':<9} digests agree ({len(group)} variants): {digest_lines[0]}")
        if options.probe:
            counts = ", ".join(f"{placements.count(p)} {p}" for p in PLACEMENTS + ("mixed",))
            print(f"{'':<9} rounds by vCPU placement (probe before and after): {counts}")
            for placement in PLACEMENTS:
                if placement in by_placement:
                    what = (" (one physical core's two hardware threads: about one core's arithmetic)"
                            if placement == "shared" else "")
                    print(f"{'':<9} speed-up within the {placement} rounds{what}: "
                          + "; ".join(by_placement[placement]))
        if len(by_state) == 2:
            print(f"{'':<9} rounds by the sequential program's speed: {states.count('fast')} fast (within "
                  f"{STATE_MARGIN:.0%} of its fastest round), {states.count('slow')} slow")
            for state in STATES:
                print(f"{'':<9} speed-up against the {state} sequential rounds: " + "; ".join(by_state[state]))
            where = "near rounds" if options.probe else "rounds"
            print(f"{'':<9} speed-up within the {where} where it and the sequential program ran in the same state "
                  f"(each within {STATE_MARGIN:.0%} of its own fastest round, or both not): " + "; ".join(matched_cells))
        elif states and states[0] == ONE_STATE:
            print(f"{'':<9} the sequential program ran in one state (every round within {STATE_MARGIN:.0%} of its "
                  f"fastest): rounds not split by its state")
        if times["planned"]:
            print(f"{'':<9} actor times (as planned, us/firing): "
                  + ", ".join(f"{name} {us:.2f}" for name, us in sorted(times["planned"].items())))
        for kind in ("all",) + PLACEMENTS:
            if times[kind]:
                where = "all rounds" if kind == "all" else f"the {kind} rounds"
                print(f"{'':<9} actor times in {where} (sequential program, median, us/firing): "
                      + ", ".join(f"{name} {us:.2f}" for name, us in sorted(times[kind].items())))
        sys.stdout.flush()

    os.makedirs(os.path.dirname(os.path.abspath(options.csv)), exist_ok=True)
    columns = ["benchmark", "variant", "size", "type", "metric", "median", "low", "high", "unit", "runs", "cores",
               "tasks_per_iteration", "iterations", "planner_cores", "rounds"]
    with open(options.csv, "w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=columns)
        writer.writeheader()
        for row in rows:
            for key in ("median", "low", "high"):
                row[key] = f"{row[key]:.4g}"
            writer.writerow(row)
    print(f"\nCSV: {os.path.basename(options.csv)} ({len(rows)} rows). Ratios are this variant's service time over the other's "
          f"in the same round (< 1: faster); speedup = sequential service time / this variant's; bound = the speed-up "
          f"the variant's static schedule allows (the actor times measured in the same rounds, busiest core; 1.0 where "
          f"the planner chose 1 core; in brackets and as *_planned rows: from the times the planner was given); "
          f"of bound = speedup / bound; cores: those the program runs on (\"1 core (planner)\": 2 were asked for, "
          f"and the planner chose one, see its notes).")


if __name__ == "__main__":
    main()
