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
6.3-6.5, Table 17), and each strategy's average power and energy beside the thesis's NVML
measurements (section 5.4.1, the power claims of Figures 55-63). Prints markdown.

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
# BFS's power as two inputs grow toward the thesis's size, the one parameter changed (docs/results/
# power.md: at 1/66 and 1/128 DRAM traffic cannot tell the strategies apart).
LARGER = {"coPapersDBLP": {"1/16": "rmat:scale=15,edge_factor=56",
                           "the thesis's size (524 K vertices, 29.4 M arcs; coPapersDBLP 540 K, 30.5 M)":
                               "rmat:scale=19,edge_factor=56"},
          "er-22": {"1/32": "random:n=131072,m=3000000", "1/8 (12 M edges)": "random:n=524288,m=12000000"}}
SMALL = {"coPapersDBLP": "1/66", "er-22": "1/128"}
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


def spec(graph):
    """A graph's generator: GRAPHS' by name, LARGER's given as their spec."""
    return GRAPHS[graph][0] if graph in GRAPHS else graph


def run(irrgpu, workload, variant, graph, tmp):
    cmd = [irrgpu, "run", "-q", "-c", CONFIG, "--workload", workload, "--variant", variant, "--graph", spec(graph)]
    stats = simulate(cmd, os.path.join(tmp, f"{workload}-{variant}-{graph}"))["stats"]

    def total(suffix):
        return sum(v["value"] for k, v in stats.items() if k.endswith(suffix) and ".total." not in k)

    return {"cycles": stats["gpu.kernel_cycles"]["value"], "warp": stats["gpu.total.warp_instructions"]["value"],
            "thread": stats["gpu.total.thread_instructions"]["value"],
            "dram": total(".dram.reads") + total(".dram.writes"), "power": stats["energy.average_power"]["value"],
            "energy": stats["energy.total"]["value"], "dynamic": stats["energy.dynamic"]["value"]}


# The thesis's power findings for BFS (section 5.4.1, NVML board power [G L1468-L1474]; the figures
# themselves did not survive the text extraction): which strategy draws the most or the least.
POWER_CLAIMS = {
    "in-2004": ("WARPC highest (~95 W), the others 70-80 W; energy follows time [G L1494]",
                lambda p: max(p, key=p.get) == "WARPC"),
    "coPapersDBLP": ("DD highest; WARPC the least energy [G L1503]", lambda p: max(p, key=p.get) == "DD"),
    "great-britain": ("DD lowest, WARPC highest [G L1518]",
                      lambda p: min(p, key=p.get) == "DD" and max(p, key=p.get) == "WARPC"),
    "er-22": ("all the same [G L1530]", lambda p: max(p.values()) / min(p.values()) <= 1.10),
    "rgg-22": ("DD lowest, the others similar [G L1542]", lambda p: min(p, key=p.get) == "DD"),
}


def pearson(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / (sxx * syy) ** 0.5 if sxx > 0 and syy > 0 else float("nan")


def print_power(results):
    """Average power inside kernels and energy per strategy, BFS against the thesis's claims, SSSP as
    ours only; and how power follows DRAM transactions and instructions a cycle [G L1748]."""
    for w in ("bfs", "sssp"):
        print(f"\n#### {w.upper()}: average power inside kernels (W) / energy (mJ)\n")
        head = "| input | " + " | ".join(STRATEGIES) + " | ours: power, highest first | least energy, fastest |"
        print(head + (" thesis | as the thesis |" if w == "bfs" else ""))
        print("|---" * (len(STRATEGIES) + 3 + (2 if w == "bfs" else 0)) + "|")
        for g in GRAPHS:
            rs = {s: results[(w, v, g)] for s, v in STRATEGIES.items()}
            power = {s: r["power"] for s, r in rs.items()}
            cells = [f"{r['power']:.1f} / {r['energy'] / 1e3:.2f}" for r in rs.values()]
            order = " > ".join(sorted(power, key=power.get, reverse=True))
            least = min(rs, key=lambda s: rs[s]["energy"])
            fastest = min(rs, key=lambda s: rs[s]["cycles"])
            row = f"| {g} | " + " | ".join(cells) + f" | {order} | {least}, {fastest} |"
            if w == "bfs":
                claim, holds = POWER_CLAIMS[g]
                row += f" {claim} | {'yes' if holds(power) else 'no'} |"
            print(row)
    runs = [results[(w, v, g)] for w in ("bfs", "sssp") for v in STRATEGIES.values() for g in GRAPHS]
    power = [r["power"] for r in runs]
    dram = [r["dram"] / r["cycles"] for r in runs]
    ipc = [r["warp"] / r["cycles"] for r in runs]
    same = sum(min(rs, key=lambda s: rs[s]["energy"]) == min(rs, key=lambda s: rs[s]["cycles"])
               for rs in ({s: results[(w, v, g)] for s, v in STRATEGIES.items()} for w in ("bfs", "sssp") for g in GRAPHS))
    print(f"\nOver the {len(runs)} BFS and SSSP runs, the correlation (Pearson) of average power with DRAM transactions "
          f"a cycle is {pearson(dram, power):.2f} and with warp instructions a cycle {pearson(ipc, power):.2f}; the "
          f"fastest strategy spends the least energy on {same} of {2 * len(GRAPHS)} inputs.")


def print_sizes(results):
    """BFS's power per strategy as coPapersDBLP and er-22 grow toward the thesis's size, beside what
    may order it: DRAM transactions a cycle [G L1748], and warp and thread (lane) instructions a cycle."""
    print("\n#### BFS power as the input grows (docs/results/power.md)\n")
    print("| input | vertices, edges | " + " | ".join(STRATEGIES) + " | power, highest first | "
          "DRAM transactions a cycle, " + " / ".join(STRATEGIES) + " | warp instructions a cycle | "
          "thread instructions a cycle | time (ms) | DRAM transactions (M) |")
    print("|---" * (len(STRATEGIES) + 8) + "|")
    for name, sizes in LARGER.items():
        rows = {f"{name}-like, {SMALL[name]}": name, **{f"the same, {k}": spec for k, spec in sizes.items()}}
        for label, g in rows.items():
            rs = {s: results[("bfs", v, g)] for s, v in STRATEGIES.items()}
            power = {s: r["power"] for s, r in rs.items()}
            ratio = lambda key, d: " / ".join(f"{r[key] / r['cycles']:.{d}f}" for r in rs.values())
            print(f"| {label} | `{spec(g)}` | " +
                  " | ".join(f"{p:.1f} W" for p in power.values()) +
                  f" | {' > '.join(sorted(power, key=power.get, reverse=True))} | {ratio('dram', 3)} | "
                  f"{ratio('warp', 2)} | {ratio('thread', 0)} | " +
                  " / ".join(f"{r['cycles'] / CLOCK_HZ * 1e3:.1f}" for r in rs.values()) + " | " +
                  " / ".join(f"{r['dram'] / 1e6:.2f}" for r in rs.values()) + " |")


def main():
    a, irrgpu = sim.study_options(__doc__)
    jobs = [(w, v, g) for g in GRAPHS for w in ("bfs", "sssp") for v in STRATEGIES.values()]
    jobs += [("bfs", v, g) for sizes in LARGER.values() for g in sizes.values() for v in STRATEGIES.values()]
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

    print_power(results)
    print_sizes(results)

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
