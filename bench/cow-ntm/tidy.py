#!/usr/bin/env python3
"""Turns `cacheflow demo` outputs (demo.csv and runs.csv of one work folder per frame size) into the tidy
CSV of the cow-ntm benchmark and prints a table per size.

usage: tidy.py --csv OUT.csv SIZE=DEMO_DIR [SIZE=DEMO_DIR ...]

Speed-ups are the median (and min, max) over the rounds of one run of the demo: in round r every strategy
ran once, interleaved, and the ratio is reference_r / strategy_r, against preesm (PREESM's generated code with its
memory scripts, the reference) and against baseline (its plain copies, the second reference). Miss changes are
against preesm. Miss counts are deterministic (one simulation each): median = low = high.
"""
import csv
import statistics
import sys

BENCHMARK = "stereo"
# speed-ups against each, the first the reference of miss changes
REFERENCES = ["preesm", "baseline"]
FIELDS = ["benchmark", "variant", "size", "metric", "median", "low", "high", "unit", "runs"]


def fail(message):
    sys.exit("tidy.py: " + message)


def read_csv(path):
    try:
        with open(path, newline="") as handle:
            return list(csv.DictReader(handle))
    except OSError as error:
        fail(f"cannot read {path}: {error.strerror}")


def rows_for(size, folder):
    summary = {row["strategy"]: row for row in read_csv(folder + "/demo.csv")}
    for reference in REFERENCES:
        if reference not in summary:
            fail(f"{folder}/demo.csv has no {reference} row")
    times = {}
    for line, row in enumerate(read_csv(folder + "/runs.csv"), start=2):
        try:
            times.setdefault(row["strategy"], {})[int(row["run"])] = float(row["ms_per_iteration"])
        except (KeyError, ValueError):
            fail(f"{folder}/runs.csv:{line}: expected strategy,run,ms_per_iteration, got {row}")
    base = summary[REFERENCES[0]]
    out = []
    for variant, row in summary.items():
        samples = times.get(variant, {})
        runs = len(samples)
        ms = sorted(samples.values())
        out.append([BENCHMARK, variant, size, "time_per_iteration", statistics.median(ms), ms[0], ms[-1], "ms", runs])
        for reference in REFERENCES:
            ratios = sorted(times[reference][r] / samples[r] for r in samples if r in times[reference])
            out.append([BENCHMARK, variant, size, "speedup_vs_" + reference, statistics.median(ratios), ratios[0],
                        ratios[-1], "x", len(ratios)])
        copied = int(row["bytes_copied_per_iteration"]) / 2**20
        streamed = int(row["bytes_streamed_per_iteration"]) / 2**20
        out.append([BENCHMARK, variant, size, "copied_per_iteration", copied, copied, copied, "MiB", 1])
        out.append([BENCHMARK, variant, size, "streamed_per_iteration", streamed, streamed, streamed, "MiB", 1])
        for column, metric in (("l1d_misses", "l1d_misses"), ("llc_misses", "llc_misses")):
            if row[column] and base[column]:
                value, reference = int(row[column]), int(base[column])
                out.append([BENCHMARK, variant, size, metric, value, value, value, "misses", 1])
                reduction = 100.0 * (1 - value / reference)
                out.append([BENCHMARK, variant, size, metric.replace("_misses", "_miss_reduction"), reduction,
                            reduction, reduction, "%", 1])
    return out


def number(value):
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def table(size, rows):
    by = {(r[1], r[3]): r for r in rows}
    variants = list(dict.fromkeys(r[1] for r in rows))
    header = ["variant", "ms/iter (min-max)", "vs preesm (min-max)", "vs baseline", "copied MiB", "streamed MiB",
              "L1D misses", "change", "LLC misses", "change"]
    lines = [header]
    for v in variants:
        t, s = by[(v, "time_per_iteration")], by[(v, "speedup_vs_preesm")]
        cells = [v, f"{t[4]:.1f} ({t[5]:.1f}-{t[6]:.1f})", f"{s[4]:.2f}x ({s[5]:.2f}-{s[6]:.2f})",
                 f"{by[(v, 'speedup_vs_baseline')][4]:.2f}x",
                 f"{by[(v, 'copied_per_iteration')][4]:.1f}", f"{by[(v, 'streamed_per_iteration')][4]:.1f}"]
        for metric in ("l1d", "llc"):
            misses = by.get((v, metric + "_misses"))
            reduction = by.get((v, metric + "_miss_reduction"))
            change = "-" if not reduction or v == REFERENCES[0] else f"{0.0 - reduction[4]:+.1f}%"
            cells += [f"{misses[4]:,}" if misses else "-", change]
        lines.append(cells)
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    print(f"stereo {size}, 32 disparities, 2 cores")
    for line in lines:
        print("  " + "  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())


def main(argv):
    if len(argv) < 3 or argv[0] != "--csv":
        fail("usage: tidy.py --csv OUT.csv SIZE=DEMO_DIR [SIZE=DEMO_DIR ...]")
    all_rows = []
    for spec in argv[2:]:
        size, _, folder = spec.partition("=")
        if not folder:
            fail(f"expected SIZE=DEMO_DIR, got '{spec}'")
        rows = rows_for(size, folder)
        table(size, rows)
        all_rows += rows
    with open(argv[1], "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(FIELDS)
        for row in all_rows:
            writer.writerow([number(cell) for cell in row])


if __name__ == "__main__":
    main(sys.argv[1:])
