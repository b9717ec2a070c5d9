# SPDX-License-Identifier: Apache-2.0
"""irrgpu plot: figures from a sweep's collected results (irrgpu sweep collect DIR -> results.csv).

  irrgpu plot bars   RESULTS.csv --metric gpu.total.core_cycles --baseline variant=data --x graph --series variant -o f.png
  irrgpu plot lines  RESULTS.csv --metric gpu.total.core_cycles --x hwwl.bank_entries --series variant -o f.pdf
  irrgpu plot stalls RESULTS.csv --label workload,variant -o stalls.png
  irrgpu plot energy RESULTS.csv|RUN_DIR ... -o energy.png

bars: the metric normalised to a baseline run (--baseline KEY=VALUE: the run with the same
parameters but KEY=VALUE), as a speedup (baseline / run: cycles, lower is better) or --ratio (run /
baseline); one group of bars per --x value, one bar per --series value. lines: the metric (or its
speedup over --baseline) over a numeric --x. stalls: each run's scheduler-cycle breakdown
(gpu.total.stall.* by default, --stats GLOB for others), stacked. energy: each run's energy by
component (docs/power.md), stacked, from a results table or from run folders (their stats.json). --where KEY=VALUE keeps matching
runs (repeatable; KEY= keeps runs that do not set KEY; baselines are found among all runs); only
runs whose state is done are plotted. --match KEYS pairs a run with its baseline by those columns
only; --hline VALUE[:LABEL] draws a reference line (a paper's figure). -o names the file; its suffix (.png,
.pdf, .svg) the format; --also pdf writes the same figure in another format beside it.
"""
import argparse
import csv
import fnmatch
import json
import math
import os
import re
import sys

KEY_COLUMNS = ("id", "group", "state", "seconds", "max_rss_mb", "error")


def load(path, where):
    """The finished runs of a results table: (those --where keeps, all, the columns)."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.exit(f"irrgpu plot: error: {path}: {e.strerror}")
    if not rows:
        sys.exit(f"irrgpu plot: error: {path}: no runs")
    columns = list(rows[0].keys())
    rows = [r for r in rows if r.get("state", "done") == "done"]
    every = rows
    for w in where:
        key, _, value = w.partition("=")
        if key not in columns:
            sys.exit(f"irrgpu plot: error: --where {w}: no column '{key}' in {path}")
        rows = [r for r in rows if r[key] == value]  # KEY= keeps the runs that do not set KEY
    if not rows:
        sys.exit(f"irrgpu plot: error: {path}: no finished run matches")
    return rows, every, columns


def params_of(columns):
    """The parameter columns: those between state and the run's own figures."""
    if "seconds" in columns:
        return columns[columns.index("state") + 1:columns.index("seconds")]
    return [c for c in columns if c not in KEY_COLUMNS and not c.startswith("gpu.")]


def value(row, metric, path):
    if metric not in row:
        sys.exit(f"irrgpu plot: error: no column '{metric}' in {path} (irrgpu sweep collect --stats selects them)")
    try:
        return float(row[metric])
    except ValueError:
        sys.exit(f"irrgpu plot: error: run {row.get('id', '?')}: '{metric}' is '{row[metric]}', not a number")


def normalise(rows, every, columns, metric, baseline, ratio, path, match=""):
    """Each row's metric over its baseline run's: the run with KEY=VALUE and the same parameters
    (or the same `match` columns)."""
    key, _, want = baseline.partition("=")
    if key not in columns:
        sys.exit(f"irrgpu plot: error: --baseline {baseline}: no column '{key}'")
    others = match.split(",") if match else [p for p in params_of(columns) if p != key]
    for p in others:
        if p not in columns:
            sys.exit(f"irrgpu plot: error: --match: no column '{p}'")
    base = {}
    for r in every:
        if r[key] == want:
            k = tuple(r[p] for p in others)
            if k in base:
                sys.exit(f"irrgpu plot: error: --baseline {baseline}: several runs with {dict(zip(others, k))} "
                         "(--match more columns)")
            base[k] = value(r, metric, path)
    out = []
    for r in rows:
        b = base.get(tuple(r[p] for p in others))
        if b is None:
            sys.exit(f"irrgpu plot: error: run {r['id']} has no baseline run with {baseline} and its other parameters")
        v = value(r, metric, path)
        out.append((r, (v / b if ratio else b / v) if v and b else math.nan))
    return out


# A configuration value with a unit (docs/configuration.md): each unit's factor to its base unit.
UNITS = {"B": (1, "B"), "KiB": (2**10, "B"), "KB": (2**10, "B"), "MiB": (2**20, "B"), "MB": (2**20, "B"),
         "GiB": (2**30, "B"), "GB": (2**30, "B"), "Hz": (1, "Hz"), "kHz": (1e3, "Hz"), "MHz": (1e6, "Hz"),
         "GHz": (1e9, "Hz"), "ps": (1e-12, "s"), "ns": (1e-9, "s"), "us": (1e-6, "s"), "ms": (1e-3, "s"),
         "s": (1, "s"), "B/s": (1, "B/s"), "KB/s": (1e3, "B/s"), "MB/s": (1e6, "B/s"), "GB/s": (1e9, "B/s"),
         "": (1, "")}
QUANTITY = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-z/]*)\s*$")


def quantity(text):
    """(number, unit) of a plain number or a value with a unit ('48KiB' -> (48.0, 'KiB')); None if neither."""
    m = QUANTITY.match(text)
    return (float(m.group(1)), m.group(2)) if m and m.group(2) in UNITS else None


def axis(values, column):
    """Numbers for an axis of values that may carry units, and the unit for its label: in the values'
    own unit when they share one (16KiB, 32KiB -> 16, 32 'KiB'), else in the base unit (B, Hz, s)."""
    parsed = [quantity(v) for v in values]
    for v, q in zip(values, parsed):
        if q is None:
            sys.exit(f"irrgpu plot: error: --x {column}: '{v}' is not a number or a value with a unit "
                     "(a line needs a numeric axis; plot bars groups by any value)")
    units = {u for _, u in parsed}
    if len(units) == 1:
        return [n for n, _ in parsed], units.pop()
    bases = {UNITS[u][1] for u in units}
    return [n * UNITS[u][0] for n, u in parsed], (bases.pop() if len(bases) == 1 else "")


def ordered(values):
    """Distinct values in first-seen order, numbers (with or without units) sorted by magnitude."""
    seen = list(dict.fromkeys(values))
    parsed = [quantity(v) for v in seen]
    if all(parsed):
        magnitude = {v: n * UNITS[u][0] for v, (n, u) in zip(seen, parsed)}
        return sorted(seen, key=magnitude.get)
    return seen


# Drawing, shared by the command line below and the studies' scripts (experiments/), so that every
# figure of docs/results is drawn the same way.

def pyplot():
    """matplotlib's pyplot on a file backend, or an exit saying what to install."""
    try:
        import matplotlib
    except ImportError:
        sys.exit("irrgpu plot: error: needs matplotlib: the Debian package python3-matplotlib (make deps), "
                 "run by /usr/bin/python3")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def figure(rows=1, cols=1, size=(5, 3.5), sharey=False):
    """A figure and its axes as a flat list."""
    fig, ax = pyplot().subplots(rows, cols, figsize=size, sharey=sharey, squeeze=False)
    return fig, list(ax.flat)


def grouped_bars(ax, groups, series, ylabel="", title="", hlines=(), unit_line=None, colors=None, legend_title=None):
    """One group of bars per entry of `groups`, one bar per series: `series` is [(label, [value per
    group])] (label None: unlabelled). `hlines` are (value, label) reference lines, `unit_line` a
    plain one (1.0 for a speedup); `colors` one colour per group for a single series."""
    width = 0.8 / max(1, len(series))
    for i, (label, values) in enumerate(series):
        ax.bar([j + i * width for j in range(len(groups))], values, width, label=label,
               color=colors if colors and len(series) == 1 else None)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(groups))], [str(g) for g in groups], rotation=30,
                  ha="right", fontsize=8)
    if unit_line is not None:
        ax.axhline(unit_line, color="grey", linewidth=0.8)
    for value_, label in hlines:
        ax.axhline(value_, color="grey", linestyle="--", linewidth=0.8, label=label or None)
    finish(ax, ylabel, title, any(label for label, _ in series) or any(label for _, label in hlines), legend_title)


def series_lines(ax, series, xlabel="", ylabel="", title="", log_x=False, ylim=None, marker="o", hlines=()):
    """One line per entry of `series`: [(label, xs, ys)]."""
    for label, xs, ys in series:
        ax.plot(xs, ys, marker=marker, linewidth=0.8, label=label)
    if log_x:
        ax.set_xscale("log", base=2)
    if ylim:
        ax.set_ylim(*ylim)
    for value_, label in hlines:
        ax.axhline(value_, color="grey", linestyle="--", linewidth=0.8, label=label or None)
    ax.set_xlabel(xlabel, fontsize=8)
    finish(ax, ylabel, title, any(label for label, *_ in series))


def stacked_bars(ax, labels, parts, ylabel="", title="", colors=None):
    """One bar per label, stacked from `parts`: [(name, [value per bar])]."""
    bottom = [0.0] * len(labels)
    for i, (name, values) in enumerate(parts):
        ax.bar(range(len(labels)), values, bottom=bottom, label=name, color=colors[i % len(colors)] if colors else None)
        bottom = [b + v for b, v in zip(bottom, values)]
    ax.set_xticks(range(len(labels)), labels, rotation=30, ha="right", fontsize=7)
    ax.set_ylabel(ylabel, fontsize=8)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7, bbox_to_anchor=(1.0, 1.0), loc="upper left")


def finish(ax, ylabel, title, legend, legend_title=None):
    ax.set_ylabel(ylabel, fontsize=8)
    ax.set_title(title, fontsize=9)
    if legend:  # beside the axes, where it cannot cover a bar or a point
        ax.legend(fontsize=7, title=legend_title, title_fontsize=7, bbox_to_anchor=(1.0, 1.0), loc="upper left")


def save(fig, out, also=()):
    """Writes the figure to `out` (its suffix the format) and in each format of `also` beside it."""
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    fig.tight_layout()
    for path in [out] + [os.path.splitext(out)[0] + "." + fmt for fmt in also]:
        fig.savefig(path, dpi=100, bbox_inches="tight")
    pyplot().close(fig)
    print(f"irrgpu plot: wrote {out}" + "".join(f", {os.path.splitext(out)[0]}.{f}" for f in also))


def references(options):
    """--hline VALUE[:LABEL] as (value, label)."""
    out = []
    for h in options:
        v, _, label = h.partition(":")
        try:
            out.append((float(v), label))
        except ValueError:
            sys.exit(f"irrgpu plot: error: --hline {h}: VALUE[:LABEL]")
    return out


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values)) if values and all(v > 0 for v in values) else \
        (values[0] if values else math.nan)


# The command line: figures from a results table.

def cmd_bars(a):
    rows, every, columns = load(a.results, a.where)
    if a.baseline:
        pairs = normalise(rows, every, columns, a.metric, a.baseline, a.ratio, a.results, a.match)
        label = a.ylabel or f"{'ratio to' if a.ratio else 'speedup over'} {a.baseline}"
    else:
        pairs = [(r, value(r, a.metric, a.results)) for r in rows]
        label = a.ylabel or a.metric
    for k in (a.x, a.series):
        if k and k not in columns:
            sys.exit(f"irrgpu plot: error: no column '{k}'")
    xs = ordered(r[a.x] for r, _ in pairs) if a.x else [""]
    names = ordered(r[a.series] for r, _ in pairs) if a.series else [None]
    # Runs sharing a bar (seeds, say) give their geometric mean.
    series = [(s, [geomean([v for r, v in pairs if (not a.x or r[a.x] == x) and (not a.series or r[a.series] == s)])
                   for x in xs]) for s in names]
    fig, (ax,) = figure(size=(max(4, 1 + 0.5 * len(xs) * len(names)), 3.5))
    grouped_bars(ax, xs, series, label, a.title or a.metric, references(a.hline), 1.0 if a.baseline else None,
                 legend_title=a.series or None)
    save(fig, a.output, a.also)


def cmd_lines(a):
    rows, every, columns = load(a.results, a.where)
    if a.x not in columns:
        sys.exit(f"irrgpu plot: error: no column '{a.x}'")
    pairs = (normalise(rows, every, columns, a.metric, a.baseline, a.ratio, a.results, a.match) if a.baseline
             else [(r, value(r, a.metric, a.results)) for r in rows])
    xs, unit = axis([r[a.x] for r, _ in pairs], a.x)
    series = []
    for s in (ordered(r[a.series] for r, _ in pairs) if a.series else [None]):
        pts = sorted((x, v) for x, (r, v) in zip(xs, pairs) if not a.series or r[a.series] == s)
        series.append((s, [p[0] for p in pts], [p[1] for p in pts]))
    fig, (ax,) = figure()
    series_lines(ax, series, f"{a.x} ({unit})" if unit else a.x,
                 a.ylabel or (f"speedup over {a.baseline}" if a.baseline else a.metric),
                 a.title or a.metric, a.log_x, hlines=references(a.hline))
    save(fig, a.output, a.also)


def cmd_stalls(a):
    rows, _, columns = load(a.results, a.where)
    pattern = a.stats or "gpu.total.stall.*"
    # The top level of the breakdown only (stall.memory, not also stall.memory.l1), unless asked.
    cats = [c for c in columns if fnmatch.fnmatch(c, pattern)]
    if not a.stats:
        cats = [c for c in cats if c.count(".") == 3]
    if not cats:
        sys.exit(f"irrgpu plot: error: no column matches {pattern} (irrgpu sweep collect keeps every statistic by default)")
    keys = a.label.split(",") if a.label else params_of(columns)
    for k in keys:
        if k not in columns:
            sys.exit(f"irrgpu plot: error: --label: no column '{k}'")
    totals = [sum(float(r[x] or 0) for x in cats) for r in rows]
    parts = [(c.split(".")[-1], [float(r[c] or 0) / t if a.share and t else float(r[c] or 0) for r, t in zip(rows, totals)])
             for c in cats]
    fig, (ax,) = figure(size=(max(4, 0.6 * len(rows) + 2), 3.5))
    stacked_bars(ax, ["/".join(r[k] for k in keys) for r in rows], parts,
                 "share of scheduler cycles" if a.share else "scheduler cycles", a.title or "stall breakdown")
    save(fig, a.output, a.also)


# energy.* statistics that are sums of the components, not components (docs/power.md).
ENERGY_TOTALS = ("energy.total", "energy.dynamic", "energy.static", "energy.average_power")


def energy_rows(inputs, where):
    """(label, {component: uJ}) per run: a results table's finished runs, or run folders' stats.json."""
    out = []
    for path in inputs:
        if os.path.isdir(path):
            stats = os.path.join(path, "stats.json")
            try:
                with open(stats) as f:
                    values = {k: v["value"] for k, v in json.load(f)["stats"].items()}
            except (OSError, ValueError, KeyError) as e:
                sys.exit(f"irrgpu plot: error: {stats}: not a run's statistics ({e})")
            out.append((os.path.basename(os.path.normpath(path)), values))
        else:
            rows, _, columns = load(path, where)
            keys = params_of(columns)
            out += [("/".join(r[k] for k in keys) or r["id"], {c: float(r[c] or 0) for c in columns if c.startswith("energy.")})
                    for r in rows]
    comps = sorted({c for _, v in out for c in v if c.startswith("energy.") and c not in ENERGY_TOTALS
                    and not re.fullmatch(r"energy\.sm\d+", c)})
    if not comps:
        sys.exit("irrgpu plot: error: no energy.* statistic in the input (runs with power.enabled=false, or a sweep "
                 "collected without them)")
    return out, comps


def cmd_energy(a):
    runs, comps = energy_rows(a.results, a.where)
    scale, unit = (1e-3, "mJ") if max(sum(v.get(c, 0) for c in comps) for _, v in runs) >= 1e3 else (1, "uJ")
    totals = [sum(v.get(c, 0) for c in comps) for _, v in runs]
    if a.share:
        scale, unit = 1, "share of the run's total"
    parts = [(c[len("energy."):], [v.get(c, 0) * scale / (t if a.share and t else 1) for (_, v), t in zip(runs, totals)])
             for c in comps]
    parts = [(n, vals) for n, vals in parts if any(vals)]  # components no run used stay out of the legend
    fig, (ax,) = figure(size=(max(4, 0.6 * len(runs) + 2), 3.5))
    import matplotlib  # loaded by pyplot() already
    colors = [matplotlib.colormaps["tab20"](i) for i in range(20)]  # more parts than tab10 has colours
    stacked_bars(ax, [label for label, _ in runs], parts, unit if a.share else f"energy ({unit})",
                 a.title or "energy by component", colors)
    save(fig, a.output, a.also)


def main():
    p = argparse.ArgumentParser(prog="irrgpu plot", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="kind", required=True)
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument("-o", "--output", required=True, help="the figure (.png, .pdf or .svg)")
    options.add_argument("--also", action="append", default=[], choices=["png", "pdf", "svg"],
                         help="also write this format beside it")
    options.add_argument("--where", action="append", default=[], help="KEY=VALUE: only these runs (repeatable)")
    options.add_argument("--title", default="")
    common = argparse.ArgumentParser(add_help=False, parents=[options])
    common.add_argument("results", help="results.csv from irrgpu sweep collect")
    for name, f in (("bars", cmd_bars), ("lines", cmd_lines)):
        s = sub.add_parser(name, parents=[common])
        s.add_argument("--metric", default="gpu.total.core_cycles")
        s.add_argument("--baseline", default="", help="KEY=VALUE: normalise each run to this run")
        s.add_argument("--ratio", action="store_true", help="run / baseline instead of baseline / run")
        s.add_argument("--match", default="", help="comma-separated columns pairing a run with its baseline "
                                                 "(default: every parameter but the baseline's)")
        s.add_argument("--hline", action="append", default=[], help="VALUE[:LABEL]: a reference line (repeatable)")
        s.add_argument("--ylabel", default="")
        s.add_argument("--series", default="", help="one bar or line per value of this column")
        s.add_argument("--x", default="" if name == "bars" else None, required=name == "lines",
                       help="the groups (bars) or the numeric axis (lines)")
        if name == "lines":
            s.add_argument("--log-x", action="store_true")
        s.set_defaults(func=f)
    s = sub.add_parser("stalls", parents=[common])
    s.add_argument("--stats", default="", help="glob of the stacked columns (default: gpu.total.stall.*, top level)")
    s.add_argument("--label", default="", help="comma-separated columns naming each bar (default: every parameter)")
    s.add_argument("--share", action="store_true", help="each bar as shares of its total")
    s.set_defaults(func=cmd_stalls)
    s = sub.add_parser("energy", parents=[options])
    s.add_argument("results", nargs="+", help="results.csv from irrgpu sweep collect, or run folders (-o of irrgpu run)")
    s.add_argument("--share", action="store_true", help="each bar as shares of its total")
    s.set_defaults(func=cmd_energy)
    a = p.parse_args()
    if os.path.splitext(a.output)[1] not in (".png", ".pdf", ".svg"):
        sys.exit(f"irrgpu plot: error: -o {a.output}: a .png, .pdf or .svg file")
    pyplot()
    a.func(a)


if __name__ == "__main__":
    main()
