"""The table of bench/cow-unannotated/weights.sh: times per round, speed-ups against preesm and baseline of the same
graph in the same round (also over the rounds the placement probe found "near" only), bytes copied and copy-on-write
pages per iteration from each program's --validate run, and the checks.

    python3 weights_report.py TIMES.tsv WORK ITERATIONS OUT.csv MEASURE_DIR
"""
import csv
import os
import re
import statistics
import sys

BENCH = "cow-unannotated-weights"
SIZE = "432x384, 8 slices, 48 disparities"
# the references, per graph: PREESM's generated code with its memory scripts, then its plain copies
REFERENCES = ("preesm", "baseline")
FAIR = ("annotated", "preesm")  # what PREESM gives on the graph annotated by hand: the check's reference
FIXED = ("preesm", "baseline", "alias", "ntm", "cow")
STATS = re.compile(r"^stats: bytes copied (\d+), non-temporal (\d+), cow pages shared (\d+), faulted (\d+)", re.M)
CORE = re.compile(r"^stats core (\d+): cow pages shared (\d+), faulted (\d+), re-shared (\d+)", re.M)


def summary(values, digits=2):
    if not values:
        return "-"
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def read_rounds(path, measure_dir):
    sys.path.insert(0, measure_dir)
    from measure import parse_probe, placement_of
    rounds, placement = {}, {}
    for line in open(path):
        fields = line.split()
        r = int(fields[0])
        if fields[1] == "probe":
            folder = os.path.dirname(path)
            placement[r] = placement_of(*(parse_probe(open(os.path.join(folder, f)).read()) for f in fields[2:4]))
            continue
        rounds.setdefault(r, {})[(fields[1], fields[2])] = float(fields[3])
    return rounds, placement


def counters(work, variant, iterations):
    text = open(os.path.join(work, f"{variant[0]}-{variant[1]}.validate")).read()
    totals = STATS.search(text)
    copied = (int(totals.group(1)) + int(totals.group(2))) / iterations
    per_core = [(int(m.group(1)), int(m.group(2)) / iterations, int(m.group(3)) / iterations)
                for m in CORE.finditer(text)]
    return copied, per_core


def same_program(work, a, b):
    """Whether two variants' generated sources are the same but for their first line (the strategy's name)."""
    first, second = (os.path.join(work, f"{v[0]}-{v[1]}") for v in (a, b))
    names = sorted(n for n in os.listdir(first) if n.endswith((".c", ".h")))
    if names != sorted(n for n in os.listdir(second) if n.endswith((".c", ".h"))):
        return False
    return all(open(os.path.join(first, n)).read().split("\n", 1)[1:] == open(os.path.join(second, n)).read()
               .split("\n", 1)[1:] for n in names)


def main():
    raw, work, iterations, out, measure_dir = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
    rounds, placement = read_rounds(raw, measure_dir)
    order = sorted(rounds)
    variants = list(rounds[order[0]].keys())
    # every graph's baseline bytes first: the reference rows come before the baseline's
    baseline_bytes = {v[0]: counters(work, v, iterations)[0] for v in variants if v[1] == "baseline"}
    rows = []
    print(f"rounds: {len(order)}; placements (probe before and after each round): "
          + ", ".join(f"{p} {sum(1 for r in order if placement.get(r) == p)}"
                      for p in sorted(set(placement.values()))))
    print(f"{'graph':<12} {'strategy':<9} {'ms/iter median (min-max)':>26} {'vs preesm (speed-up)':>22}"
          f" {'vs preesm, near':>20} {'vs baseline':>20} {'copied MiB/iter':>16} {'of baseline':>12}"
          "  CoW pages/iter shared/faulted per core")
    for graph in ("annotated", "unannotated"):
        for reference in REFERENCES:
            if (graph, reference) not in rounds[order[0]]:
                sys.exit(f"weights_report.py: no {graph} {reference} program in {raw}")
    ratio = {}  # the check's: time / the fair reference's time, per round
    for v in variants:
        times = [rounds[r][v] for r in order]
        ratio[v] = {r: rounds[r][v] / rounds[r][FAIR] for r in order}
        speedup = {ref: [rounds[r][(v[0], ref)] / rounds[r][v] for r in order] for ref in REFERENCES}
        near = [rounds[r][(v[0], "preesm")] / rounds[r][v] for r in order if placement.get(r) == "near"]
        copied, per_core = counters(work, v, iterations)
        base = baseline_bytes.get(v[0])
        share = f"{100 * copied / base:.1f}%" if base else "-"
        cores = "; ".join(f"core {c} {s:.0f}/{f:.0f}" for c, s, f in per_core) or "-"
        print(f"{v[0]:<12} {v[1]:<9} {summary(times):>26} {summary(speedup['preesm'], 3):>22}"
              f" {summary(near, 3):>20} {summary(speedup['baseline'], 3):>20} {copied / 2**20:16.1f} {share:>12}"
              f"  {cores}")
        rows.append(dict(benchmark=BENCH, variant=f"{v[0]} {v[1]}", size=SIZE, metric="time_per_iteration", median=f"{statistics.median(times):.4g}",
                         low=f"{min(times):.4g}", high=f"{max(times):.4g}", unit="ms", rounds=len(times)))
        for reference, values in speedup.items():
            rows.append(dict(benchmark=BENCH, variant=f"{v[0]} {v[1]}", size=SIZE, metric=f"speedup_vs_{reference}",
                             median=f"{statistics.median(values):.4g}", low=f"{min(values):.4g}",
                             high=f"{max(values):.4g}", unit="x", rounds=len(values)))
        values = list(ratio[v].values())
        rows.append(dict(benchmark=BENCH, variant=f"{v[0]} {v[1]}", size=SIZE, metric="time_vs_annotated_preesm",
                         median=f"{statistics.median(values):.4g}", low=f"{min(values):.4g}", high=f"{max(values):.4g}",
                         unit="x", rounds=len(values)))
        # counts from the --validate run: one value each (median = low = high), as the other benchmarks write them
        counts = [("bytes_copied_per_iteration", copied, "B")]
        for c, s, f in per_core:
            counts += [(f"cow_pages_shared_core{c}", s, "pages/iteration"),
                       (f"cow_pages_faulted_core{c}", f, "pages/iteration")]
        for metric, value, unit in counts:
            rows.append(dict(benchmark=BENCH, variant=f"{v[0]} {v[1]}", size=SIZE, metric=metric,
                             median=f"{value:.0f}", low=f"{value:.0f}", high=f"{value:.0f}", unit=unit, rounds=1))
    print()
    auto = ("unannotated", "auto")
    within = statistics.median(ratio[auto].values())
    print(f"check: unannotated auto time / annotated preesm's (PREESM on the graph annotated by hand) per round"
          f" {summary(list(ratio[auto].values()), 3)}"
          f": {'within' if within <= 1.1 else 'NOT within'} 1.1x")
    for graph in ("annotated", "unannotated"):
        fixed = [(graph, s) for s in FIXED if (graph, s) in rounds[order[0]]]
        best = min(fixed, key=lambda v: statistics.median(rounds[r][v] for r in order))
        against = [rounds[r][(graph, "auto")] / rounds[r][best] for r in order]
        same = same_program(work, (graph, "auto"), best)
        print(f"check: {graph} auto / its best fixed strategy ({best[1]}) per round {summary(against, 3)}"
              + (f" -- the same program as {best[1]} (generated sources equal but for the strategy's name): the"
                 " spread is the host's" if same else ""))
        rows.append(dict(benchmark=BENCH, variant=f"{graph} auto", size=SIZE, metric=f"ratio_to_best_fixed_{best[1]}",
                         median=f"{statistics.median(against):.4g}", low=f"{min(against):.4g}",
                         high=f"{max(against):.4g}", unit="x", rounds=len(against)))
    with open(out, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["benchmark", "variant", "size", "metric", "median", "low", "high", "unit", "rounds"])
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    main()
