#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The spare-register prefetching study (docs/results/graph-memory.md "Spare-register prefetching"):
Table 6's variants (SPREF1, C-SPREF1, SPREF, C-SPREF, SPREF1-C), Base-64KB and the stride, stream
and GHB prefetchers against the baseline
(configs/graphmem.yaml, Table 3) on the thesis's seven chapter III kernels (H-BFS, H-SSSP, H-MST,
LS-BFS, LS-SSSP, LS-MST, STCON) as their `restrict` variants (arrays `__restrict__`, edge loops not
unrolled), on Table 5's three inputs at 1/16 of their vertices (experiments/spref.yaml). Each figure beside
Table 7: per kernel the harmonic mean over its invocations of the IPC ratio (the thesis's measure
[G L591], graph_memory_study.thesis_speedup), and what the prefetcher did. Prints markdown.

Usage: experiments/spref_study.py [--build build] [--jobs N] [--graph NAME ...] [--kernel K ...]
                                  [--from-sweep DIR]
"""
import argparse
import concurrent.futures
import os
import tempfile

import simulate as sim
from graph_memory_study import GRAPHS, SPREF, hmean, run, thesis_speedup

# Each with its L1 / shared-memory split (experiments/spref.yaml): LS-BFS and LS-SSSP a 16 KB,
# 4-way L1, their 48 KB of shared memory taking the rest [G L680].
SMALL = ["l1.size=48KiB", "l1.ways=6", "core.shared_memory=16KiB"]
LS = ["l1.size=16KiB", "l1.ways=4", "core.shared_memory=48KiB"]
KERNELS = [("H-BFS", "bfs", "harish_restrict", SMALL), ("H-SSSP", "sssp", "harish_restrict", SMALL),
           ("H-MST", "boruvka", "harish_restrict", SMALL), ("LS-BFS", "bfs", "unrolled_restrict", LS),
           ("LS-SSSP", "sssp", "unrolled_restrict", LS), ("LS-MST", "boruvka", "lonestar_restrict", SMALL),
           ("STCON", "stcon", "harish_restrict", SMALL)]
VARIANTS = ["Stream", "Stride", "GHB", "SPREF1", "C-SPREF1", "SPREF", "C-SPREF", "SPREF1-C", "Base-64KB"]
assert set(VARIANTS) == set(SPREF)
# Table 7 [G L606-L618].
PAPER = {"H-BFS": {"Stream": 0.95, "Stride": 1.00, "GHB": 1.00, "SPREF1": 1.12, "C-SPREF1": 1.14, "SPREF": 1.12, "C-SPREF": 1.15, "SPREF1-C": 1.06, "Base-64KB": 1.02},
         "H-SSSP": {"Stream": 0.99, "Stride": 1.00, "GHB": 1.01, "SPREF1": 1.01, "C-SPREF1": 1.01, "SPREF": 1.01, "C-SPREF": 1.01, "SPREF1-C": 0.99, "Base-64KB": 1.04},
         "H-MST": {"Stream": 1.00, "Stride": 1.00, "GHB": 1.00, "SPREF1": 1.02, "C-SPREF1": 1.04, "SPREF": 1.05, "C-SPREF": 1.05, "SPREF1-C": 0.83, "Base-64KB": 1.02},
         "LS-BFS": {"Stream": 0.99, "Stride": 1.00, "GHB": 1.00, "SPREF1": 1.04, "C-SPREF1": 1.04, "SPREF": 1.04, "C-SPREF": 1.05, "SPREF1-C": 1.01, "Base-64KB": 1.07},
         "LS-SSSP": {"Stream": 0.99, "Stride": 1.00, "GHB": 1.00, "SPREF1": 1.03, "C-SPREF1": 1.03, "SPREF": 1.03, "C-SPREF": 1.04, "SPREF1-C": 0.99, "Base-64KB": 1.10},
         "LS-MST": {"Stream": 0.99, "Stride": 1.00, "GHB": 0.99, "SPREF1": 1.20, "C-SPREF1": 1.20, "SPREF": 1.23, "C-SPREF": 1.25, "SPREF1-C": 0.88, "Base-64KB": 1.03},
         "STCON": {"Stream": 0.99, "Stride": 1.00, "GHB": 1.02, "SPREF1": 1.04, "C-SPREF1": 1.05, "SPREF": 1.04, "C-SPREF": 1.05, "SPREF1-C": 1.03, "Base-64KB": 1.00},
         "HM(all)": {"Stream": 0.98, "Stride": 1.00, "GHB": 1.00, "SPREF1": 1.06, "C-SPREF1": 1.07, "SPREF": 1.07, "C-SPREF": 1.08, "SPREF1-C": 0.96, "Base-64KB": 1.04}}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", default="build")
    p.add_argument("--jobs", type=int, default=os.cpu_count())
    p.add_argument("--graph", nargs="*", default=list(GRAPHS), choices=list(GRAPHS))
    p.add_argument("--kernel", nargs="*", default=[k[0] for k in KERNELS], choices=[k[0] for k in KERNELS])
    p.add_argument("--plot", default="", help="draw the speedups (ours and Table 7's) into this folder")
    sim.add_sweep_option(p)
    a = p.parse_args()
    sim.use_sweep(a.from_sweep)
    irrgpu = os.path.join(a.build, "apps", "irrgpu", "irrgpu")
    kernels = [k for k in KERNELS if k[0] in a.kernel]
    jobs = [("graphmem", k, g, m) for k in kernels for g in a.graph for m in ["base"] + VARIANTS]
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        results = dict(zip([(k[0], g, m) for _, k, g, m in jobs], pool.map(lambda j: run(irrgpu, *j, tmp), jobs)))
    if sim.planning():
        return

    print("### Speedup over the baseline (Table 7's measure)\n")
    print("Per kernel: the harmonic mean over its invocations (of 62,500 warp instructions or more) on the "
          "three inputs of the IPC ratio; whole runs: the ratio of all kernel cycles, harmonic mean over inputs. "
          "Thesis in brackets.\n")
    print("| kernel | " + " | ".join(VARIANTS) + " |")
    print("|---" * (len(VARIANTS) + 1) + "|")
    per = {m: [] for m in VARIANTS}
    plotted = ["Stream", "Stride", "GHB", "SPREF1", "C-SPREF", "Base-64KB"]
    for k in kernels:
        cells = []
        for m in VARIANTS:
            x = hmean([s for g in a.graph for s in thesis_speedup(results[(k[0], g, "base")], results[(k[0], g, m)])])
            per[m].append(x)
            cells.append(f"{x:.2f} ({PAPER[k[0]][m]:.2f})")
        print(f"| {k[0]} | " + " | ".join(cells) + " |")
    if a.plot:
        draw = sim.figures()
        os.makedirs(a.plot, exist_ok=True)
        names = [k[0] for k in kernels] + ["HM"]
        fig, axes = draw.figure(rows=2, size=(10, 6.5))
        for ax, (title, values) in zip(axes, [
                ("ours (Table 7's measure)", lambda m: per[m] + [hmean(per[m])]),
                ("the thesis's Table 7", lambda m: [PAPER[k[0]][m] for k in kernels] + [PAPER["HM(all)"][m]])]):
            draw.grouped_bars(ax, names, [(m, values(m)) for m in plotted], "speedup over the baseline", title, unit_line=1.0)
        draw.save(fig, os.path.join(a.plot, "spref_speedup.png"))
    print("| **HM (ours; thesis: all seven kernels)** | " + " | ".join(
        f"**{hmean(per[m]):.2f}** ({PAPER['HM(all)'][m]:.2f})" for m in VARIANTS) + " |")
    print("| whole runs | " + " | ".join(f"{hmean([results[(k[0], g, 'base')]['cycles'] / results[(k[0], g, m)]['cycles'] for k in kernels for g in a.graph]):.2f}"
                                      for m in VARIANTS) + " |")

    print("\n### Per input (whole-run speedup in kernel cycles)\n")
    print("| kernel | input | " + " | ".join(VARIANTS) + " |")
    print("|---|---" + "|---" * len(VARIANTS) + "|")
    for k in kernels:
        for g in a.graph:
            b = results[(k[0], g, "base")]["cycles"]
            print(f"| {k[0]} | {g} | " + " | ".join(f"{b / results[(k[0], g, m)]['cycles']:.3f}" for m in VARIANTS) + " |")

    print("\n### What the prefetcher did (summed over inputs)\n")
    print("| kernel | variant | invocations prefetching | mean distance | head / tail prefetches | demand loads made movs "
          "(share of global loads) | movs that waited | memory-stall cycles vs base |")
    print("|---|---|---|---|---|---|---|---|")
    for k in kernels:
        base_stall = sum(results[(k[0], g, "base")]["stall_memory"] for g in a.graph)
        base_loads = sum(results[(k[0], g, "base")]["loads"] for g in a.graph)
        for m in VARIANTS:
            if m in ("Base-64KB", "Stream", "Stride", "GHB"):
                continue
            s = {key: sum(results[(k[0], g, m)][key] for g in a.graph) for key in
                 ("spref_invocations", "spref_distance", "spref_heads", "spref_tails", "spref_moves", "spref_waited", "stall_memory")}
            inv = s["spref_invocations"]
            print(f"| {k[0]} | {m} | {inv:.0f} | {s['spref_distance'] / inv if inv else 0:.2f} | {s['spref_heads']:.0f} / {s['spref_tails']:.0f} | "
                  f"{s['spref_moves']:.0f} ({s['spref_moves'] / base_loads:.0%}) | {s['spref_waited'] / max(1, s['spref_moves']):.0%} | "
                  f"{s['stall_memory'] / base_stall:.2f} |")

    print("\n### What the comparison prefetchers did (summed over inputs)\n")
    print("| kernel | prefetcher | lines prefetched | loaded before they left the L1 |")
    print("|---|---|---|---|")
    for k in kernels:
        for m in ("Stream", "Stride", "GHB"):
            pf = sum(results[(k[0], g, m)]["l1_prefetches"] for g in a.graph)
            useful = sum(results[(k[0], g, m)]["l1_prefetch_useful"] for g in a.graph)
            print(f"| {k[0]} | {m} | {pf:.0f} | {useful / pf if pf else 0:.0%} |")


if __name__ == "__main__":
    main()
