#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Chapter V of the graph-memory thesis (seed 004, ../shared/specs/graph_memory_hierarchy.md
section 6; docs/results/graph-memory.md "Implementation strategies"): BFS and SSSP each as
topology-driven (TPLGY: Harish's flag arrays), warp-centric (WARPC), data-driven (DD: a block
queue in shared memory) and kernel-unrolled (LonestarGPU's drelax), and H-BFS's edge loop with
software prefetching and unrolling (section 5.5: SWP, SWPNC, UNR2, UNR3, UNR2_SWP, UNR2_SWPNC), on
generated graphs shaped like its five DIMACS inputs (Table 15), on the k40c preset (the Tesla
K40c the thesis measured on; gtx980 stood in before it existed). Per input: kernel time, warp
instructions, DRAM transactions and the ranking, beside the thesis's orderings (sections
6.3-6.5, Table 17). Prints markdown.

Usage: experiments/chapter5_study.py [--build build] [--jobs N] [--from-sweep DIR]
"""
import os

import simulate as sim
from simulate import simulate

CONFIG = "k40c"
# Table 15's inputs at 1/32 to 1/1000 of their vertices, degrees and shapes kept where the size
# allows (the road network's depth scales with its length).
GRAPHS = {"in-2004": ("rmat:scale=15,edge_factor=20", "web crawl: degree 19.7, power law, BFS depth 26"),
          "coPapersDBLP": ("rmat:scale=13,edge_factor=56", "co-authorship: degree 56.4, depth 15"),
          "great-britain": ("grid:rows=8,cols=512", "street network: degree 2.1, depth 6,389"),
          "er-22": ("random:n=32768,m=750000", "Erdos-Renyi: degree 22.9, depth 7"),
          "rgg-22": ("rgg:n=32768,radius=0.0119", "random geometric: degree 14.5, depth 1,141")}
STRATEGIES = {"TPLGY": "harish", "WARPC": "warp_centric", "DD": "data_shared", "unrolled": "unrolled"}
EDGE_LOOPS = {"Base": "harish", "SWP": "harish_swp", "SWPNC": "harish_swpnc", "UNR2": "harish_unr2",
              "UNR3": "harish_unr3", "UNR2_SWP": "harish_unr2_swp", "UNR2_SWPNC": "harish_unr2_swpnc",
              "HOISTED": "harish_hoisted"}  # Figure 75's loop: Base with its edge range and cost in registers
# The thesis's orderings, fastest first where it gives them (sections 6.3-6.4, Table 17 [G L1595-L1603]).
PAPER = {("bfs", "in-2004"): "WARPC < TPLGY < DD < unrolled", ("bfs", "coPapersDBLP"): "WARPC best",
         ("bfs", "great-britain"): "DD < TPLGY < WARPC", ("bfs", "er-22"): "WARPC < TPLGY < ... < unrolled",
         ("bfs", "rgg-22"): "TPLGY < DD < ... WARPC much worse",
         ("sssp", "in-2004"): "WARPC < TPLGY", ("sssp", "coPapersDBLP"): "WARPC < TPLGY",
         ("sssp", "great-britain"): "TPLGY < WARPC (DD close)", ("sssp", "er-22"): "WARPC < TPLGY",
         ("sssp", "rgg-22"): "WARPC < TPLGY"}
# CLR [G L1591, Table 17]: TPLGY typically best, DD comparable, WARPC slower on every input (by
# Table 17's times, 2.2-5.5x TPLGY's).
CLR = {"TPLGY": "topology", "WARPC": "warp_centric", "DD": "data_shared"}
CLR_GRAPHS = ["great-britain", "er-22", "rgg-22"]  # CLR's rounds on in-2004 and coPapersDBLP: hundreds
CLR_WARPC_OVER_TPLGY = {"in-2004": 6817.73 / 3104.86, "coPapersDBLP": 1551.16 / 428.10, "great-britain": 97.45 / 17.56,
                        "er-22": 2836.51 / 731.83, "rgg-22": 328.74 / 125.33}
CLOCK_HZ = 745e6  # k40c's core clock (configs/k40c.yaml): kernel cycles to time


def run(irrgpu, workload, variant, graph, tmp):
    cmd = [irrgpu, "run", "-q", "-c", CONFIG, "--workload", workload, "--variant", variant, "--graph", GRAPHS[graph][0]]
    stats = simulate(cmd, os.path.join(tmp, f"{workload}-{variant}-{graph}"))["stats"]

    def total(suffix):
        return sum(v["value"] for k, v in stats.items() if k.endswith(suffix) and ".total." not in k)

    return {"cycles": stats["gpu.kernel_cycles"]["value"], "warp": stats["gpu.total.warp_instructions"]["value"],
            "dram": total(".dram.reads") + total(".dram.writes")}


def main():
    a, irrgpu = sim.study_options(__doc__)
    jobs = [(w, v, g) for g in GRAPHS for w in ("bfs", "sssp") for v in STRATEGIES.values()]
    jobs += [("bfs", v, g) for g in GRAPHS for v in EDGE_LOOPS.values() if v != "harish"]
    jobs += [("color", v, g) for g in CLR_GRAPHS for v in CLR.values()]
    results = sim.run_all(jobs, lambda *j: run(irrgpu, *j), a.jobs)
    if sim.planning():
        return

    for w in ("bfs", "sssp"):
        print(f"\n#### {w.upper()}: kernel time (ms at the K40c's clock), warp instructions (M), DRAM transactions (K)\n")
        print("| input | " + " | ".join(STRATEGIES) + " | ours, fastest first | thesis |")
        print("|---" * (len(STRATEGIES) + 3) + "|")
        for g in GRAPHS:
            rs = {s: results[(w, v, g)] for s, v in STRATEGIES.items()}
            cells = [f"{r['cycles'] / CLOCK_HZ * 1e3:.2f} / {r['warp'] / 1e6:.2f} / {r['dram'] / 1e3:.0f}" for r in rs.values()]
            order = " < ".join(sorted(rs, key=lambda s: rs[s]["cycles"]))
            print(f"| {g} | " + " | ".join(cells) + f" | {order} | {PAPER[(w, g)]} |")

    print("\n#### CLR: kernel time (ms at the K40c's clock), warp instructions (M), DRAM transactions (K)\n")
    print("| input | " + " | ".join(CLR) + " | ours, fastest first | WARPC / TPLGY time: ours | thesis (Table 17) |")
    print("|---" * (len(CLR) + 4) + "|")
    for g in CLR_GRAPHS:
        rs = {s: results[("color", v, g)] for s, v in CLR.items()}
        cells = [f"{r['cycles'] / CLOCK_HZ * 1e3:.2f} / {r['warp'] / 1e6:.2f} / {r['dram'] / 1e3:.0f}" for r in rs.values()]
        order = " < ".join(sorted(rs, key=lambda s: rs[s]["cycles"]))
        print(f"| {g} | " + " | ".join(cells) + f" | {order} | {rs['WARPC']['cycles'] / rs['TPLGY']['cycles']:.2f} | "
              f"{CLR_WARPC_OVER_TPLGY[g]:.2f} |")

    print("\n#### H-BFS's edge loop (section 5.5): time, warp instructions and DRAM transactions against Base\n")
    loops = [s for s in EDGE_LOOPS if s != "Base"]
    print("| input | Base (ms) | " + " | ".join(loops) + " |")
    print("|---" * (len(loops) + 2) + "|")
    for g in GRAPHS:
        b = results[("bfs", "harish", g)]
        cells = []
        for s in loops:
            r = results[("bfs", EDGE_LOOPS[s], g)]
            cells.append(f"{b['cycles'] / r['cycles']:.2f}x / {r['warp'] / b['warp'] - 1:+.0%} / {r['dram'] / b['dram'] - 1:+.0%}")
        print(f"| {g} | {b['cycles'] / CLOCK_HZ * 1e3:.2f} | " + " | ".join(cells) + " |")
    print("\n#### The edge loops against Figure 75's Base (HOISTED: the edge range and the cost in registers, "
          "as every edge loop has them): speedup\n")
    loops = [s for s in EDGE_LOOPS if s not in ("Base", "HOISTED")]
    print("| input | HOISTED (ms) | " + " | ".join(loops) + " |")
    print("|---" * (len(loops) + 2) + "|")
    for g in GRAPHS:
        h = results[("bfs", "harish_hoisted", g)]
        cells = [f"{h['cycles'] / results[('bfs', EDGE_LOOPS[s], g)]['cycles']:.2f}x" for s in loops]
        print(f"| {g} | {h['cycles'] / CLOCK_HZ * 1e3:.2f} | " + " | ".join(cells) + " |")
    print("\n(Each edge-loop cell in the first table: speedup over Base / warp instructions / DRAM transactions. The thesis: SWP "
          "degrades in-2004 and is neutral elsewhere, SWPNC removes that, SWP/SWPNC leave DRAM transactions as "
          "Base's; UNR2 and UNR3 cut instructions and DRAM requests on in-2004, coPapersDBLP and er-22, not on "
          "great-britain or rgg-22; UNR2_SWP is slightly slower than UNR2 [G L1732-L1742].)")


if __name__ == "__main__":
    main()
