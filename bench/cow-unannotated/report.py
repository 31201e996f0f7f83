#!/usr/bin/env python3
"""Report of the cow-unannotated benchmark: reads the demo.csv and runs.csv of one `cacheflow demo --unannotated`
work folder per frame size, prints the tables and writes a tidy CSV.

usage: report.py --csv OUT.csv SIZE=DEMO_DIR [SIZE=DEMO_DIR ...]

A row label is a strategy (the example as written) or STRATEGY-unannotated (READ_ONLY annotations and read-mostly
marks removed). Ratios are taken per round (every program ran once per round, interleaved), then summarised as
median (min-max) over the rounds.
"""
import csv
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cow-ntm"))
from tidy import FIELDS, fail, read_csv  # noqa: E402  the cow-ntm benchmark's CSV layout and helpers

BENCHMARK = "stereo"
SUFFIX = "-unannotated"
FIXED = ["baseline", "preesm", "alias", "ntm", "cow"]


def summary(values):
    values = sorted(values)
    return statistics.median(values), values[0], values[-1]


def fmt(triple, digits=2, unit=""):
    m, lo, hi = triple
    return f"{m:.{digits}f}{unit} ({lo:.{digits}f}-{hi:.{digits}f})"


def load(folder):
    rows = {row["strategy"]: row for row in read_csv(folder + "/demo.csv")}
    times = {}
    for line, row in enumerate(read_csv(folder + "/runs.csv"), start=2):
        try:
            times.setdefault(row["strategy"], {})[int(row["run"])] = float(row["ms_per_iteration"])
        except (KeyError, ValueError):
            fail(f"{folder}/runs.csv:{line}: expected strategy,run,ms_per_iteration, got {row}")
    for label in rows:
        if label not in times:
            fail(f"{folder}/runs.csv has no run of {label}")
    return rows, times


def ratio(times, a, b):
    """Per round a / b, where b may be a list of labels (their per-round minimum)."""
    b = b if isinstance(b, list) else [b]
    rounds = [r for r in times[a] if all(r in times[x] for x in b)]
    return summary([times[a][r] / min(times[x][r] for x in b) for r in rounds]), len(rounds)


def config_labels(rows, unannotated):
    suffix = SUFFIX if unannotated else ""
    return {s: s + suffix for s in FIXED + ["auto"] if s + suffix in rows}


def report(size, folder, tidy):
    rows, times = load(folder)
    print(f"\n## {size}")
    print("| example | strategy | ms/iter median (min-max) | vs preesm (per round) | vs baseline | copied + streamed "
          "MiB/iter (% of baseline) | CoW pages/iter shared / faulted / re-shared |")
    print("|---|---|---|---|---|---|---|")
    configs = {"as written": config_labels(rows, False), "unannotated": config_labels(rows, True)}
    for config, labels in configs.items():
        for reference in ("preesm", "baseline"):
            if reference not in labels:
                fail(f"{folder}: no {reference} row for the example {config}")
        base_bytes = int(rows[labels["baseline"]]["bytes_copied_per_iteration"]) + int(
            rows[labels["baseline"]]["bytes_streamed_per_iteration"])
        for strategy, label in labels.items():
            row = rows[label]
            ms = summary(times[label].values())
            speed, n = ratio(times, labels["preesm"], label)
            second, _ = ratio(times, labels["baseline"], label)
            copied = int(row["bytes_copied_per_iteration"]) + int(row["bytes_streamed_per_iteration"])
            pct = 100.0 * copied / base_bytes if base_bytes else 0.0
            shared = int(row.get("cow_pages_shared_per_iteration") or 0)
            faulted = int(row["cow_pages_per_iteration"])
            reshared = int(row.get("cow_pages_reshared_per_iteration") or 0)
            print(f"| {config} | {strategy} | {fmt(ms, 1)} | {fmt(speed, 2, 'x')} | {second[0]:.2f}x "
                  f"| {copied / 2**20:.1f} ({pct:.1f}%) "
                  f"| {shared} / {faulted} / {reshared} |")
            tidy.append([BENCHMARK, label, size, "time_per_iteration", *ms, "ms", n])
            tidy.append([BENCHMARK, label, size, "speedup_vs_preesm", *speed, "x", n])
            tidy.append([BENCHMARK, label, size, "speedup_vs_baseline", *second, "x", n])
            tidy.append([BENCHMARK, label, size, "copied_per_iteration", copied / 2**20, copied / 2**20,
                         copied / 2**20, "MiB", 1])
            tidy.append([BENCHMARK, label, size, "copied_vs_baseline", pct, pct, pct, "%", 1])
            for metric, value in (("cow_pages_shared", shared), ("cow_pages_faulted", faulted),
                                  ("cow_pages_reshared", reshared)):
                tidy.append([BENCHMARK, label, size, metric, value, value, value, "pages", 1])

    annotated = list(configs["as written"].values())
    best_annotated = min(annotated, key=lambda label: statistics.median(times[label].values()))
    print(f"\ntarget checks ({size}): best time of the example as written: {best_annotated} "
          f"{statistics.median(times[best_annotated].values()):.1f} ms")
    base = configs["unannotated"]["baseline"]
    base_bytes = int(rows[base]["bytes_copied_per_iteration"]) + int(rows[base]["bytes_streamed_per_iteration"])
    for strategy in ("cow", "auto"):
        label = configs["unannotated"].get(strategy)
        if not label:
            continue
        copied = int(rows[label]["bytes_copied_per_iteration"]) + int(rows[label]["bytes_streamed_per_iteration"])
        pct = 100.0 * copied / base_bytes
        vs_best, n = ratio(times, label, annotated)
        median_vs_best = statistics.median(times[label].values()) / statistics.median(
            times[best_annotated].values())
        print(f"- {label}: copies {pct:.1f}% of the baseline's bytes (target <= 5%: "
              f"{'met' if pct <= 5 else 'NOT met'}); median time {median_vs_best:.2f}x the best annotated median, "
              f"per round {fmt(vs_best, 2, 'x')} of that round's fastest annotated program (target <= 1.10: "
              f"{'met' if median_vs_best <= 1.10 else 'NOT met'})")
        tidy.append([BENCHMARK, label, size, "time_vs_best_annotated", *vs_best, "x", n])

    print(f"\nauto against the best fixed strategy ({size}; fixed: {', '.join(FIXED)}):")
    print("| example | best fixed | its ms/iter | auto ms/iter | auto / best fixed, per round |")
    print("|---|---|---|---|---|")
    for config, labels in configs.items():
        fixed = [labels[s] for s in FIXED if s in labels]
        if "auto" not in labels or not fixed:
            continue
        best = min(fixed, key=lambda label: statistics.median(times[label].values()))
        auto = labels["auto"]
        against, n = ratio(times, auto, best)
        print(f"| {config} | {best} | {statistics.median(times[best].values()):.1f} | "
              f"{statistics.median(times[auto].values()):.1f} | {fmt(against, 2, 'x')} |")
        tidy.append([BENCHMARK, auto, size, "auto_vs_best_fixed", *against, "x", n])


def main(argv):
    if len(argv) < 3 or argv[0] != "--csv":
        fail("usage: report.py --csv OUT.csv SIZE=DEMO_DIR [SIZE=DEMO_DIR ...]")
    tidy = []
    for spec in argv[2:]:
        size, _, folder = spec.partition("=")
        if not folder:
            fail(f"expected SIZE=DEMO_DIR, got '{spec}'")
        report(size, folder, tidy)
    with open(argv[1], "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(FIELDS)
        for row in tidy:
            writer.writerow([f"{v:.6g}" if isinstance(v, float) else v for v in row])


if __name__ == "__main__":
    main(sys.argv[1:])
