#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The graph-aware memory hierarchy study, part 1, on all of the thesis's kernels and inputs
(docs/results/graph-memory.md "All ten kernels on three inputs"): Table 4/9's kernels but CLR
(H-BFS, BFS-WC, BFS-DD, H-SSSP, MIS, STCON with H-MST, LS-BFS, LS-SSSP, LS-MST) on Table 5's three
inputs (R4_2e20 added), with the headline mechanisms (sector cache, OBM, OBM + sector) and the
thesis's own (bypass + copyback, region exclusion) at 100.8 GB/s. Each kernel runs with the L1 /
shared-memory split the thesis gives it: LS-BFS and LS-SSSP with a 16 KB L1 and 48 KB of shared
memory [G L680], the others 48 KB / 16 KB. The measure is graph_memory_study.py's (the thesis's
per-invocation IPC ratio). Prints markdown.

Usage: experiments/graph_memory_kernels.py [--build build] [--jobs N] [--from-sweep DIR]
"""

import simulate as sim
from graph_memory_study import (GRAPHS, KERNELS, MIN_WARP_INSTRUCTIONS, PAPER, bus_share, hmean, kernel_speedup, run,
                                thesis_speedup)

FERMI_48 = ("l1.size=48KiB", "l1.ways=6", "core.shared_memory=16KiB")  # the preset's own split
FERMI_16 = ("l1.size=16KiB", "l1.ways=4", "core.shared_memory=48KiB")  # Fermi's 16 KB L1 is 4-way
ALL = [k + (FERMI_48,) for k in KERNELS] + [
    ("H-MST", "boruvka", "harish", FERMI_48), ("LS-BFS", "bfs", "unrolled", FERMI_16),
    ("LS-SSSP", "sssp", "unrolled", FERMI_16), ("LS-MST", "boruvka", "lonestar", FERMI_48)]
MECHS = ["sector", "obm", "obm+sector", "b+c", "region_exclusion"]
THESIS = {**PAPER["graphmem"], "region_exclusion": 1.05}


def main():
    a, irrgpu = sim.study_options(__doc__)
    graphs = list(GRAPHS)
    jobs = [("graphmem", k, g, m) for k in ALL for g in graphs for m in ["base"] + MECHS]
    results = sim.run_all(jobs, lambda *j: run(irrgpu, *j), a.jobs)
    if sim.planning():
        return

    print("\n#### Speedup over the baseline, 100.8 GB/s, per kernel and input\n")
    print("Each cell: the harmonic mean over the kernel's invocations of 62,500 warp instructions or more of the IPC "
          "ratio (-: none that long); per kernel: over its three inputs; all: over kernels.\n")
    print("| kernel | " + " | ".join(f"{m} {g}" for m in MECHS for g in graphs) + " | " + " | ".join(MECHS) + " |")
    print("|---" * (len(MECHS) * (len(graphs) + 1) + 1) + "|")
    per = {m: [] for m in MECHS}
    for k in ALL:
        cells = []
        for m in MECHS:
            for g in graphs:
                xs = thesis_speedup(results[("graphmem", k, g, "base")], results[("graphmem", k, g, m)])
                cells.append(f"{hmean(xs):.2f}" if xs else "-")
        for m in MECHS:
            per[m].append(kernel_speedup(results, "graphmem", k, graphs, m))
        print(f"| {k[0]} | " + " | ".join(cells) + " | " + " | ".join(f"{per[m][-1]:.2f}" for m in MECHS) + " |")
    print("| **all (ours)** | " + " | " * (len(MECHS) * len(graphs) - 1) + " | " +
          " | ".join(f"**{hmean(per[m]):.2f}**" for m in MECHS) + " |")
    print("| thesis | " + " | " * (len(MECHS) * len(graphs) - 1) + " | " +
          " | ".join(f"{THESIS[m]:.2f}" for m in MECHS) + " |")

    print("\n#### Bypass + copyback's decisions per kernel (sums over the three inputs)\n")
    print("| kernel | L1 fills bypassed (PCs without L1 reuse) | misses sent private (bypass the L2, copy back) | "
          "misses sent without reuse (bypass the L2) | L1 misses |")
    print("|---|---|---|---|---|")
    for k in ALL:
        s = {key: sum(results[("graphmem", k, g, "b+c")][key] for g in graphs)
             for key in ("l1_bypassed", "l1_decided", "copyback_hints", "bypass_hints", "l1_misses")}
        print(f"| {k[0]} | {s['l1_bypassed'] / s['l1_decided'] if s['l1_decided'] else 0:.1%} of {s['l1_decided']:.0f} | "
              f"{s['copyback_hints']:.0f} | {s['bypass_hints']:.0f} | {s['l1_misses']:.0f} |")

    print("\n#### The baseline per kernel and input: kernel cycles, invocations counted, DRAM bus busy\n")
    print("| kernel | input | kernel cycles | invocations (counted / all) | DRAM bus busy | L1 hit rate |")
    print("|---|---|---|---|---|---|")
    for k in ALL:
        for g in graphs:
            r = results[("graphmem", k, g, "base")]
            inv = r["invocations"]
            counted = sum(1 for i in inv if i[2] >= MIN_WARP_INSTRUCTIONS)
            accesses = r["l1_hits"] + r["l1_misses"]
            print(f"| {k[0]} | {g} | {r['cycles']:.0f} | {counted} / {len(inv)} | {bus_share(r):.0%} | "
                  f"{r['l1_hits'] / accesses if accesses else 0:.0%} |")


if __name__ == "__main__":
    main()
