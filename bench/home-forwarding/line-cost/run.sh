#!/usr/bin/env bash
# What a line of a cross-core buffer costs in each vCPU placement of this VM (the planner's transfer.ns):
#   bench/home-forwarding/line-cost/run.sh [--trials N] [--rounds N] [--slots K] [SIZE_KIB...]
# Builds line_cost.c and the placement probe (../probe/probe.c), then runs N trials (default 30), each a short
# line_cost run (--rounds, default 2000; sizes default 16 64 KiB) bracketed by the probe, and prints per placement
# (shared, near, far, as ../measure.py tells them; a trial counts only when both probes agree) the median and
# min-max of the per-line pull and taken-back costs over its trials; a CSV goes to bench/results/line-cost.csv
# (line-cost-slotsK.csv with --slots K: the threads take turns over K buffers, as a merge group's K slots) and the
# table next to it. A trial lasts well under a second, so most trials fall within one placement.
# No preesm row: this measures one hardware cost (a line moving between two cores), not generated code, so there is
# no strategy to compare; bench/home-forwarding/run.sh compares the generated programs against preesm.
set -euo pipefail

. "$(dirname "$0")/../../lib.sh" python3
bench_options trials=30 rounds=2000 slots=1 SIZE_KIB... -- "$@"
here=$bench_here
root=$bench_root
sizes=()
for size in "${bench_operands[@]}"; do
    [[ "$size" =~ ^[0-9]+$ ]] || bench_usage "a size is a whole number of KiB, got '$size'"
    sizes+=("$size")
done
[[ "$trials" =~ ^[0-9]+$ ]] && [ "$trials" -ge 1 ] || die "--trials must be a positive number, got '$trials'"
[[ "$rounds" =~ ^[0-9]+$ ]] && [ "$rounds" -ge 10 ] || die "--rounds must be at least 10, got '$rounds'"
[[ "$slots" =~ ^[0-9]+$ ]] && [ "$slots" -ge 1 ] && [ "$slots" -le 64 ] || die "--slots must be 1 to 64, got '$slots'"
name=line-cost$([ "$slots" = 1 ] || echo "-slots$slots")
[ ${#sizes[@]} -gt 0 ] || sizes=(16 64)
[ "$(nproc)" -ge 2 ] || die "needs 2 CPUs"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"${CC:-cc}" -O2 -march=native -pthread "$here/line_cost.c" -o "$work/line_cost" || die "line_cost.c does not build"
"${CC:-cc}" -O2 -pthread "$here/../probe/probe.c" -o "$work/probe" || die "the placement probe does not build"
mkdir -p "$root/bench/results"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
python3 - "$work" "$trials" "$rounds" "$slots" "$root/bench/results/$name.csv" "$here/.." "${sizes[@]}" <<'PY' | tee "$work/table"
import csv, re, statistics, subprocess, sys
work, trials, rounds, slots, out, measure_dir = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]
sizes = sys.argv[7:]
sys.path.insert(0, measure_dir)
from measure import PLACEMENTS, placement_of, run_probe
probe = f"{work}/probe"
found = {}  # (placement, KiB) -> {"pull": [...], "taken back": [...]}
counts = {p: 0 for p in PLACEMENTS + ("mixed", "unknown")}
for trial in range(trials):
    before = run_probe(probe)
    done = subprocess.run([f"{work}/line_cost", "--rounds", rounds, "--slots", slots] + sizes, capture_output=True,
                          text=True)
    after = run_probe(probe)
    if done.returncode != 0:
        sys.exit(f"line_cost failed: {done.stderr.strip()}")
    placement = placement_of(before, after)
    counts[placement] += 1
    for m in re.finditer(r"line-cost: (\d+) KiB(?: x \d+ slots)?, \d+ lines: pull (-?[0-9.]+) ns/line, taken back (-?[0-9.]+)", done.stdout):
        cell = found.setdefault((placement, int(m.group(1))), {"pull": [], "taken back": []})
        cell["pull"].append(float(m.group(2)))
        cell["taken back"].append(float(m.group(3)))
print(f"trials by placement (probe before and after): " + ", ".join(f"{n} {p}" for p, n in counts.items() if n))
print(f"{'placement':<9} {'KiB':>5} {'trials':>6} {'pull ns/line':>22} {'taken back ns/line':>22}")
rows = []
for placement in PLACEMENTS:
    for kib in sorted({k for p, k in found if p == placement}):
        cell, line = found[(placement, kib)], f"{placement:<9} {kib:>5} {len(found[(placement, kib)]['pull']):>6}"
        for what in ("pull", "taken back"):
            values = cell[what]
            median = statistics.median(values)
            line += f" {f'{median:.2f} ({min(values):.2f}-{max(values):.2f})':>22}"
            rows.append(dict(placement=placement, size_kib=kib, metric=what.replace(" ", "_"), median=f"{median:.4g}",
                             low=f"{min(values):.4g}", high=f"{max(values):.4g}", unit="ns/line", trials=len(values)))
        print(line)
with open(out, "w", newline="") as f:
    writer = csv.DictWriter(f, fieldnames=["placement", "size_kib", "metric", "median", "low", "high", "unit", "trials"])
    writer.writeheader()
    writer.writerows(rows)
print(f"\nCSV: {out.rsplit('/', 1)[-1]} ({len(rows)} rows); per line = (across - local) / lines, each trial the median "
      f"of {rounds} hand-offs (line_cost.c).")
PY
{
    echo "# bench/home-forwarding/line-cost/run.sh ($trials trials of $rounds rounds, $slots slot(s)), $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "# machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) CPUs"
    echo "# load average (1, 5, 15 min) before: $load_before; after: $(cut -d' ' -f1-3 /proc/loadavg)"
    cat "$work/table"
} >"$root/bench/results/$name.txt"
