# SPDX-License-Identifier: Apache-2.0
"""irrgpu plot (apps/irrgpu/plot.py): a line over a unit-valued axis (l1.size: 16KiB, 32KiB, ...) is
drawn in its unit, a non-numeric axis is a one-line error, a legend never covers a bar, and the
energy plot stacks a run folder's components (not its totals) or says why it cannot.

Usage: plot_test.py SOURCE_DIR (exits 77, skipped, where /usr/bin/python3 has no matplotlib)
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

SOURCE = sys.argv[1]
SCRIPT = os.path.join(SOURCE, "apps", "irrgpu", "plot.py")
failures = []


def expect(what, ok):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


try:
    import matplotlib  # noqa: F401
except ImportError:
    print("skipped: /usr/bin/python3 has no matplotlib (python3-matplotlib)")
    sys.exit(77)
sys.path.insert(0, os.path.dirname(SCRIPT))
import plot  # noqa: E402

with tempfile.TemporaryDirectory() as tmp:
    results = os.path.join(tmp, "results.csv")
    with open(results, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "group", "state", "l1.size", "variant", "seconds", "gpu.total.core_cycles"])
        for i, (size, variant, cycles) in enumerate([("48KiB", "a", 900), ("16KiB", "a", 1000), ("32KiB", "a", 950),
                                                     ("16KiB", "b", 1200), ("32KiB", "b", 1100), ("48KiB", "b", 1000)]):
            w.writerow([f"r{i}", "", "done", size, variant, "1", cycles])

    # sweeps.md's own example: a line over l1.size.
    out = os.path.join(tmp, "lines.png")
    p = subprocess.run([sys.executable, SCRIPT, "lines", results, "--x", "l1.size", "--series", "variant", "-o", out],
                       capture_output=True, text=True)
    expect(f"plot lines over l1.size draws ({p.stderr.strip()[-300:]})", p.returncode == 0 and os.path.getsize(out) > 1000)
    expect("no traceback", "Traceback" not in p.stderr)
    expect("the axis in the values' unit", plot.axis(["48KiB", "16KiB"], "l1.size") == ([48.0, 16.0], "KiB"))
    expect("mixed units in the base unit", plot.axis(["1.2GHz", "700MHz"], "clocks.core") == ([1.2e9, 700e6], "Hz"))
    expect("groups sorted by magnitude", plot.ordered(["48KiB", "2MiB", "16KiB"]) == ["16KiB", "48KiB", "2MiB"])

    p = subprocess.run([sys.executable, SCRIPT, "lines", results, "--x", "variant", "-o", out], capture_output=True, text=True)
    expect(f"a non-numeric axis is a one-line error ({p.stderr.strip()})",
           p.returncode != 0 and "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1
           and "'a' is not a number" in p.stderr)

    # The legend beside the bars: with bars of about the same height filling the axes, wherever a
    # legend inside them went it would cover one (it did, before); no bar's box meets the legend's.
    fig, (ax,) = plot.figure(size=(4, 3))
    plot.grouped_bars(ax, ["x", "y", "z"], [("first", [2.0, 2.1, 2.0]), ("second", [2.1, 2.0, 2.1]),
                                          ("third", [2.0, 2.1, 2.2])], "speedup", "t", hlines=[(1.5, "paper")])
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    legend = ax.get_legend().get_window_extent(renderer)
    bars = [patch.get_window_extent(renderer) for patch in ax.patches]
    expect(f"the legend covers none of the {len(bars)} bars", bars and not any(b.overlaps(legend) for b in bars))

    # irrgpu plot energy from run folders: the components stacked, the totals and per-SM sums not.
    run = os.path.join(tmp, "run")
    os.makedirs(run)
    stats = {"energy.core.fp": 2.0, "energy.l2": 3.0, "energy.static.sm": 5.0, "energy.total": 10.0, "energy.dynamic": 5.0,
             "energy.static": 5.0, "energy.average_power": 70.0, "energy.sm0": 2.0, "gpu.kernels": 1.0}
    with open(os.path.join(run, "stats.json"), "w") as f:
        json.dump({"stats": {k: {"value": v, "unit": "uJ"} for k, v in stats.items()}}, f)
    runs, comps = plot.energy_rows([run], [])
    expect(f"the energy components are the parts ({comps})", comps == ["energy.core.fp", "energy.l2", "energy.static.sm"])
    out = os.path.join(tmp, "energy.png")
    p = subprocess.run([sys.executable, SCRIPT, "energy", run, run, "-o", out], capture_output=True, text=True)
    expect(f"plot energy draws ({p.stderr.strip()[-300:]})", p.returncode == 0 and os.path.getsize(out) > 1000)
    p = subprocess.run([sys.executable, SCRIPT, "energy", results, "-o", out], capture_output=True, text=True)
    expect(f"no energy statistic is a one-line error ({p.stderr.strip()})",
           p.returncode != 0 and "Traceback" not in p.stderr and "no energy.* statistic" in p.stderr)

print(f"{len(failures)} failed" if failures else "plot: all passed")
sys.exit(1 if failures else 0)
