# SPDX-License-Identifier: Apache-2.0
"""irrgpu plot: figures from a sweep's collected results (irrgpu sweep collect DIR -> results.csv).

  irrgpu plot bars   RESULTS.csv --metric gpu.total.core_cycles --baseline variant=data --x graph --series variant -o f.png
  irrgpu plot lines  RESULTS.csv --metric gpu.total.core_cycles --x hwwl.bank_entries --series variant -o f.pdf
  irrgpu plot stalls RESULTS.csv --label workload,variant -o stalls.png

bars: the metric normalised to a baseline run (--baseline KEY=VALUE: the run with the same
parameters but KEY=VALUE), as a speedup (baseline / run: cycles, lower is better) or --ratio (run /
baseline); one group of bars per --x value, one bar per --series value. lines: the metric (or its
speedup over --baseline) over a numeric --x. stalls: each run's scheduler-cycle breakdown
(gpu.total.stall.* by default, --stats GLOB for others), stacked. --where KEY=VALUE keeps matching
runs (repeatable; KEY= keeps runs that do not set KEY; baselines are found among all runs); only
runs whose state is done are plotted. --match KEYS pairs a run with its baseline by those columns
only; --hline VALUE[:LABEL] draws a reference line (a paper's figure). -o names the file; its suffix (.png,
.pdf, .svg) the format; --also pdf writes the same figure in another format beside it.
"""
import argparse
import csv
import fnmatch
import math
import os
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


def ordered(values):
    """Distinct values in first-seen order, numbers sorted numerically."""
    seen = list(dict.fromkeys(values))
    try:
        return sorted(seen, key=float)
    except ValueError:
        return seen


def references(ax, lines):
    """--hline VALUE[:LABEL]: reference lines, a paper's figure say."""
    for h in lines:
        v, _, label = h.partition(":")
        try:
            ax.axhline(float(v), color="grey", linestyle="--", linewidth=0.8, label=label or None)
        except ValueError:
            sys.exit(f"irrgpu plot: error: --hline {h}: VALUE[:LABEL]")


def save(fig, out, also):
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    fig.tight_layout()
    for path in [out] + [os.path.splitext(out)[0] + "." + fmt for fmt in also]:
        fig.savefig(path, dpi=100, bbox_inches="tight")
    print(f"irrgpu plot: wrote {out}" + "".join(f", {os.path.splitext(out)[0]}.{f}" for f in also))


def bars(a, plt):
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
    series = ordered(r[a.series] for r, _ in pairs) if a.series else [""]
    fig, ax = plt.subplots(figsize=(max(4, 1 + 0.5 * len(xs) * len(series)), 3.5))
    width = 0.8 / len(series)
    for i, s in enumerate(series):
        heights = []
        for x in xs:
            vals = [v for r, v in pairs if (not a.x or r[a.x] == x) and (not a.series or r[a.series] == s)]
            heights.append(math.exp(sum(map(math.log, vals)) / len(vals)) if vals and all(v > 0 for v in vals)
                           else (vals[0] if vals else math.nan))  # geometric mean where several runs share a bar
        ax.bar([j + i * width for j in range(len(xs))], heights, width, label=s or None)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(xs))], xs, rotation=30, ha="right", fontsize=8)
    if a.baseline:
        ax.axhline(1.0, color="grey", linewidth=0.8)
    references(ax, a.hline)
    ax.set_ylabel(label, fontsize=8)
    if a.series or a.hline:
        ax.legend(fontsize=7, title=a.series or None, title_fontsize=7)
    ax.set_title(a.title or a.metric, fontsize=9)
    save(fig, a.output, a.also)


def lines(a, plt):
    rows, every, columns = load(a.results, a.where)
    if a.x not in columns:
        sys.exit(f"irrgpu plot: error: no column '{a.x}'")
    pairs = (normalise(rows, every, columns, a.metric, a.baseline, a.ratio, a.results, a.match) if a.baseline
             else [(r, value(r, a.metric, a.results)) for r in rows])
    fig, ax = plt.subplots(figsize=(5, 3.5))
    for s in (ordered(r[a.series] for r, _ in pairs) if a.series else [""]):
        pts = sorted((float(r[a.x]), v) for r, v in pairs if not a.series or r[a.series] == s)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=s or None)
    if a.log_x:
        ax.set_xscale("log", base=2)
    ax.set_xlabel(a.x, fontsize=8)
    ax.set_ylabel(a.ylabel or (f"speedup over {a.baseline}" if a.baseline else a.metric), fontsize=8)
    references(ax, a.hline)
    if a.series:
        ax.legend(fontsize=7, title=a.series, title_fontsize=7)
    ax.set_title(a.title or a.metric, fontsize=9)
    save(fig, a.output, a.also)


def stalls(a, plt):
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
    labels = ["/".join(r[k] for k in keys) for r in rows]
    fig, ax = plt.subplots(figsize=(max(4, 0.6 * len(rows) + 2), 3.5))
    bottom = [0.0] * len(rows)
    for c in cats:
        vals = []
        for r in rows:
            total = sum(float(r[x] or 0) for x in cats)
            vals.append(float(r[c] or 0) / total if a.share and total else float(r[c] or 0))
        ax.bar(range(len(rows)), vals, bottom=bottom, label=c.split(".")[-1])
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax.set_xticks(range(len(rows)), labels, rotation=30, ha="right", fontsize=7)
    ax.set_ylabel("share of scheduler cycles" if a.share else "scheduler cycles", fontsize=8)
    ax.legend(fontsize=7, bbox_to_anchor=(1.0, 1.0), loc="upper left")
    ax.set_title(a.title or "stall breakdown", fontsize=9)
    save(fig, a.output, a.also)


def main():
    p = argparse.ArgumentParser(prog="irrgpu plot", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="kind", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("results", help="results.csv from irrgpu sweep collect")
    common.add_argument("-o", "--output", required=True, help="the figure (.png, .pdf or .svg)")
    common.add_argument("--also", action="append", default=[], choices=["png", "pdf", "svg"],
                        help="also write this format beside it")
    common.add_argument("--where", action="append", default=[], help="KEY=VALUE: only these runs (repeatable)")
    common.add_argument("--title", default="")
    for name, f in (("bars", bars), ("lines", lines)):
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
    s.set_defaults(func=stalls)
    a = p.parse_args()
    if os.path.splitext(a.output)[1] not in (".png", ".pdf", ".svg"):
        sys.exit(f"irrgpu plot: error: -o {a.output}: a .png, .pdf or .svg file")
    try:
        import matplotlib
    except ImportError:
        sys.exit("irrgpu plot: error: needs matplotlib: the Debian package python3-matplotlib (make deps)")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    a.func(a, plt)


if __name__ == "__main__":
    main()
