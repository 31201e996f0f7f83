#!/usr/bin/env python3
"""Draws the charts of bench/RESULTS.md from the tidy CSVs in bench/results/ (Python 3 standard library only).

usage: bench/charts.py [--results DIR] [--out DIR]

Every CSV in DIR (default bench/results) with the columns benchmark, variant, size, metric, median, low,
high and unit is read; other CSVs are skipped with a note. Extra columns whose values are not numbers (for
example `type` = int or float) split the charts further; numeric extras (run counts, cores) are ignored.
One SVG per (file, benchmark, metric, extra categories) is written to DIR/charts (default): grouped bars
(one group per size, one bar per variant, whiskers from low to high) or, when there are three or more
numeric sizes, lines over the sizes with the same whiskers. A chart's file name is
<csv name>-<benchmark>-<metric>[-<categories>].svg, so RESULTS.md can link it.
"""
import csv
import math
import os
import re
import sys

REQUIRED = ["benchmark", "variant", "size", "metric", "median", "low", "high", "unit"]
COLOURS = ["#999999", "#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#1f78b4",
           "#b2df8a"]


def fail(message):
    sys.exit("charts.py: " + message)


def is_number(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


def slug(text):
    return re.sub(r"[^A-Za-z0-9.-]+", "_", text).strip("_")


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def read(path):
    """Rows of a tidy CSV as dicts with floats, or None when the file lacks the tidy columns."""
    with open(path, newline="") as handle:
        reader = csv.DictReader(handle)
        if reader.fieldnames is None or any(column not in reader.fieldnames for column in REQUIRED):
            return None, []
        extras = [c for c in reader.fieldnames if c not in REQUIRED]
        rows = []
        for line, row in enumerate(reader, start=2):
            try:
                for column in ("median", "low", "high"):
                    row[column] = float(row[column])
            except (TypeError, ValueError):
                fail(f"{path}:{line}: median, low and high must be numbers, got "
                     f"{row.get('median')!r}, {row.get('low')!r}, {row.get('high')!r}")
            rows.append(row)
    # Extra columns split the charts only when they name categories, not counts.
    categorical = [c for c in extras if any(row[c] and not is_number(row[c]) for row in rows)]
    return categorical, rows


def nice_ceiling(value):
    if value <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if value <= step * power:
            return step * power
    return 10 * power


def label(value):
    return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"


def chart(title, unit, sizes, variants, values, as_lines):
    """values[(size, variant)] = (median, low, high). Returns the SVG text."""
    left, right, top, bottom = 70, 170, 40, 60
    plot_width = max(360, len(sizes) * (len(variants) * 18 + 30))
    plot_height = 260
    width, height = left + plot_width + right, top + plot_height + bottom
    lowest = min(min(v[1], v[0]) for v in values.values())
    highest = max(max(v[2], v[0]) for v in values.values())
    # Round ticks: a nice step, and both ends on a multiple of it (0 always on the axis).
    step = nice_ceiling((max(highest, 0.0) - min(lowest, 0.0)) / 5) or 1.0
    floor = math.floor(min(0.0, lowest) / step) * step
    ceiling = math.ceil(max(0.0, highest) / step) * step
    if ceiling == floor:
        ceiling = floor + step
    ticks = int(round((ceiling - floor) / step))

    def y(value):
        return top + plot_height * (ceiling - value) / (ceiling - floor)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
           f'font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="10" y="22" font-size="14" font-weight="bold">{escape(title)}</text>']
    for i in range(ticks + 1):
        value = floor + step * i
        out.append(f'<line x1="{left}" y1="{y(value):.1f}" x2="{left + plot_width}" y2="{y(value):.1f}" '
                   f'stroke="#e0e0e0"/>')
        out.append(f'<text x="{left - 6}" y="{y(value) + 4:.1f}" text-anchor="end">{label(value)}</text>')
    out.append(f'<text x="14" y="{top + plot_height / 2:.1f}" transform="rotate(-90 14 {top + plot_height / 2:.1f})" '
               f'text-anchor="middle">{escape(unit)}</text>')
    out.append(f'<line x1="{left}" y1="{y(0) if floor < 0 else top + plot_height:.1f}" x2="{left + plot_width}" '
               f'y2="{y(0) if floor < 0 else top + plot_height:.1f}" stroke="black"/>')
    group = plot_width / len(sizes)
    for s, size in enumerate(sizes):
        out.append(f'<text x="{left + group * (s + 0.5):.1f}" y="{top + plot_height + 18}" text-anchor="middle">'
                   f'{escape(size)}</text>')
    for v, variant in enumerate(variants):
        colour = COLOURS[v % len(COLOURS)]
        points = []
        for s, size in enumerate(sizes):
            if (size, variant) not in values:
                continue
            median, low, high = values[(size, variant)]
            if as_lines:
                x = left + group * (s + 0.5)
            else:
                bar = min(18.0, (group - 20) / len(variants))
                x0 = left + group * s + (group - bar * len(variants)) / 2 + bar * v
                x = x0 + bar / 2
                base = y(0) if floor < 0 else top + plot_height
                out.append(f'<rect x="{x0:.1f}" y="{min(y(median), base):.1f}" width="{bar - 2:.1f}" '
                           f'height="{abs(base - y(median)):.1f}" fill="{colour}"><title>{escape(variant)} '
                           f'{escape(size)}: {label(median)} {escape(unit)} ({label(low)}-{label(high)})</title>'
                           f'</rect>')
            points.append((x, y(median)))
            if high > low:
                out.append(f'<line x1="{x:.1f}" y1="{y(low):.1f}" x2="{x:.1f}" y2="{y(high):.1f}" stroke="black"/>')
                for end in (low, high):
                    out.append(f'<line x1="{x - 3:.1f}" y1="{y(end):.1f}" x2="{x + 3:.1f}" y2="{y(end):.1f}" '
                               f'stroke="black"/>')
        if as_lines and points:
            path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
            out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
            out += [f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" fill="{colour}"/>' for px, py in points]
        legend_y = top + 14 + 18 * v
        out.append(f'<rect x="{left + plot_width + 14}" y="{legend_y - 10}" width="12" height="12" fill="{colour}"/>')
        out.append(f'<text x="{left + plot_width + 32}" y="{legend_y}">{escape(variant)}</text>')
    out.append(f'<text x="{left}" y="{height - 14}" fill="#555555">median; whiskers: low-high</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv):
    results = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
    out_dir = None
    while argv:
        option = argv.pop(0)
        if option in ("--results", "--out") and argv:
            value = argv.pop(0)
            if option == "--results":
                results = value
            else:
                out_dir = value
        elif option in ("-h", "--help"):
            print(__doc__.strip())
            return
        else:
            fail(f"unknown or incomplete option '{option}' (see --help)")
    out_dir = out_dir or os.path.join(results, "charts")
    if not os.path.isdir(results):
        fail(f"no results folder {results}")
    os.makedirs(out_dir, exist_ok=True)
    written = 0
    for name in sorted(os.listdir(results)):
        if not name.endswith(".csv"):
            continue
        path = os.path.join(results, name)
        categorical, rows = read(path)
        if categorical is None:
            print(f"charts.py: skipped {name} (not a tidy CSV: needs columns {', '.join(REQUIRED)})", file=sys.stderr)
            continue
        charts = {}
        for row in rows:
            key = (row["benchmark"], row["metric"]) + tuple(f"{c}={row[c]}" for c in categorical if row[c])
            charts.setdefault(key, []).append(row)
        for key, chart_rows in charts.items():
            benchmark, metric, categories = key[0], key[1], key[2:]
            sizes = list(dict.fromkeys(r["size"] for r in chart_rows))
            variants = list(dict.fromkeys(r["variant"] for r in chart_rows))
            values = {(r["size"], r["variant"]): (r["median"], r["low"], r["high"]) for r in chart_rows}
            as_lines = len(sizes) >= 3 and all(is_number(s) for s in sizes)
            if as_lines:
                sizes.sort(key=float)
            units = sorted({r["unit"] for r in chart_rows})
            title = f"{benchmark}: {metric}" + (f" ({', '.join(categories)})" if categories else "") + \
                f" - {name}"
            svg = chart(title, "/".join(units), sizes, variants, values, as_lines)
            stem = "-".join([name[:-4], benchmark, metric] + list(categories))
            with open(os.path.join(out_dir, slug(stem) + ".svg"), "w") as handle:
                handle.write(svg)
            written += 1
    print(f"charts.py: wrote {written} charts into {os.path.relpath(out_dir)}")


if __name__ == "__main__":
    main(sys.argv[1:])
