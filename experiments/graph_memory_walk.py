#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The graph-memory study's ablation walk (docs/results/graph-memory.md "The walk to the thesis's
machine"): the policies whose sign or ordering differs from the thesis's, on graphmem as it was and
then one step at a time toward Table 3, each step keeping the ones before. Per step the thesis's
speedup (graph_memory_study.py's measure) of each policy, the baseline's state (kernel cycles, L2
hit rate, DRAM bus and row conflicts), and for each of the thesis's claims the first step at which
ours agrees with it, or none. Prints markdown.

Usage: experiments/graph_memory_walk.py [--build build] [--jobs N] [--from-sweep DIR]
"""
import os
from collections import namedtuple

import graph_memory_study as gm
import simulate as sim

# Every mechanism names the same five keys, the baseline too (graphmem_walk.yaml's zip).
KEYS = ("l1.granularity", "l2.granularity", "l1.bypass", "l2.bypass", "l2.inclusion")
MECHANISMS = {"base": ("line", "line", "none", "none", "non_inclusive"),
              "sector": ("sector", "sector", "none", "none", "non_inclusive"),
              "nap": ("nap", "sector", "none", "none", "non_inclusive"),
              "nap L1+L2": ("nap", "nap", "none", "none", "non_inclusive"),
              "obm": ("line", "line", "obm", "obm", "non_inclusive"),
              "obm+sector": ("sector", "sector", "obm", "obm", "non_inclusive"),
              "exclusive": ("line", "line", "none", "none", "exclusive")}
EIGHT = ["l2.partitions=8", "dram.bus_width=3B"]
PAGES = EIGHT + ["address_map.granularity=2KiB"]
# share: the inputs' share of the thesis's vertices (1/16 or 1/4)
Step = namedtuple("Step", "label settings graphs channels share")
STEPS = [Step("0 the preset before 2026-12-07: the line-address L2 index (384 of 768 sets)", ["l2.set_index=global"],
              ["graph1m", "rmat20"], 6, 16),
         Step("1 Table 3's 768 sets [G L963]: l2.set_index local (the preset)", [], ["graph1m", "rmat20"], 6, 16),
         Step("2 Table 3's 8 channels [G L537], 3 B each (100.8 GB/s kept)", EIGHT, ["graph1m", "rmat20"], 8, 16),
         Step("3 page interleaving [G L536] over the channels too: 2 KB, not 256 B", PAGES, ["graph1m", "rmat20"], 8, 16),
         Step("4 inputs at 1/4 of the thesis's vertices, not 1/16", PAGES, ["graph1m_4", "rmat20_4"], 8, 4)]
gm.GRAPHS.update({"graph1m_4": ("random:n=262144,m=1572864", "Graph1M at 1/4"),
                  "rmat20_4": ("rmat:scale=18,edge_factor=8", "RMAT20 at 1/4")})
# The thesis's figures and the claims they make [G L1278, L1295-L1302, L1163, L1329, L1321].
THESIS = {"sector": "1.39", "nap": "1.40", "nap L1+L2": "below L1 only", "obm": "1.14", "obm+sector": "1.54",
          "exclusive": "1.06"}
CLAIMS = [("sector cache gains", lambda s: s["sector"] > 1, "1.39"),
          ("NAP (L1 only) gains", lambda s: s["nap"] > 1, "1.40"),
          ("NAP at the L1 only at or above NAP at both levels", lambda s: s["nap"] >= s["nap L1+L2"], "1.40 > L1+L2"),
          ("OBM gains", lambda s: s["obm"] > 1, "1.14"),
          ("OBM + sector above OBM", lambda s: s["obm+sector"] > s["obm"], "1.54 > 1.14"),
          ("exclusion gains", lambda s: s["exclusive"] > 1, "1.06")]


def main():
    a, irrgpu = sim.study_options(__doc__)
    gm.SETTINGS.update({m: [f"{k}={v}" for k, v in zip(KEYS, values)] for m, values in MECHANISMS.items()})
    jobs = [(i, k, g, m) for i, step in enumerate(STEPS) for k in gm.KERNELS for g in step.graphs for m in MECHANISMS]

    def one(i, k, g, m, tmp):
        out = os.path.join(tmp, str(i))  # the steps' runs share names
        os.makedirs(out, exist_ok=True)
        return gm.run(irrgpu, "graphmem", (*k, STEPS[i].settings), g, m, out)

    results = sim.run_all(jobs, one, a.jobs)
    if sim.planning():
        return

    def total(i, m, key):  # over the step's kernels and inputs
        return sum(results[(i, k, g, m)][key] for k in gm.KERNELS for g in STEPS[i].graphs)

    def change(i, m, num, den=None):  # m's total (or ratio of totals) against the baseline's, as +x %
        ratio = lambda n: total(i, n, num) / (total(i, n, den) if den else 1)
        return f"{ratio(m) / ratio('base') - 1:+.1%}"

    mechs = [m for m in MECHANISMS if m != "base"]
    print("\n### The walk: each policy's speedup over the baseline after each step\n")
    print("The thesis's measure (graph_memory_study.py): per kernel the harmonic mean of the IPC ratio over its "
          "invocations of 1 M warp instructions or more, scaled to the input (62,500 at 1/16, 250,000 at 1/4), on both "
          "inputs; the harmonic mean over the six kernels.\n")
    print("| step | " + " | ".join(mechs) + " |")
    print("|---" * (len(mechs) + 1) + "|")
    speed = []
    for i, step in enumerate(STEPS):
        gm.MIN_WARP_INSTRUCTIONS = 1_000_000 / step.share
        s = {m: gm.hmean([gm.kernel_speedup(results, i, k, step.graphs, m) for k in gm.KERNELS]) for m in mechs}
        speed.append(s)
        print(f"| {step.label} | " + " | ".join(f"{s[m]:.2f}" for m in mechs) + " |")
    print("| thesis | " + " | ".join(THESIS[m] for m in mechs) + " |")

    print("\n### The baseline after each step (sums over the six kernels and both inputs)\n")
    print("| step | kernel cycles | L2 hit rate | DRAM bus busy in kernel time | DRAM accesses that were row conflicts | "
          "sector cache: DRAM bus busy, row conflicts |")
    print("|---|---|---|---|---|---|")
    for i, step in enumerate(STEPS):
        def busy(m):  # the data buses' share of kernel time, each run weighted by its cycles
            return gm.bus_share({"dram_busy": total(i, m, "dram_busy"), "cycles": total(i, m, "cycles")}, step.channels)

        def conflicts(m):
            return total(i, m, "row_conflicts") / sum(total(i, m, key) for key in ("row_conflicts", "row_hits", "row_misses"))

        hits = total(i, "base", "l2_hits") / (total(i, "base", "l2_hits") + total(i, "base", "l2_misses"))
        print(f"| {i} | {total(i, 'base', 'cycles'):,.0f} | {hits:.2f} | {busy('base'):.0%} | "
              f"{conflicts('base'):.0%} | {busy('sector'):.0%}, {conflicts('sector'):.0%} |")

    print("\n### Exclusion's costs after each step, against the baseline (sums over kernels and inputs)\n")
    print("| step | L2 MPKI | on-chip traffic (flits) | DRAM reads |")
    print("|---|---|---|---|")
    for i in range(len(STEPS)):
        flits = {m: total(i, m, "request_flits") + total(i, m, "reply_flits") for m in ("base", "exclusive")}
        print(f"| {i} | {change(i, 'exclusive', 'l2_misses', 'instructions')} | {flits['exclusive'] / flits['base'] - 1:+.1%} | "
              f"{change(i, 'exclusive', 'dram_reads')} |")
    print("| thesis | -6% | +34% | |")

    print("\n### The thesis's claims: the first step at which ours agrees\n")
    print("| claim | thesis | ours at each step | first step that agrees |")
    print("|---|---|---|---|")
    for claim, holds, thesis in CLAIMS:
        agree = [i for i, s in enumerate(speed) if holds(s)]
        marks = " ".join("yes" if holds(s) else "no" for s in speed)
        print(f"| {claim} | {thesis} | {marks} | {agree[0] if agree else 'none'} |")


if __name__ == "__main__":
    main()
