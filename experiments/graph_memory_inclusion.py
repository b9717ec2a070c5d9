#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The graph-aware memory hierarchy study, part 2: inclusion between the L1s and the L2
(docs/results/graph-memory.md "Inclusion"): exclusion, flexclusion and region-based exclusion
(l2.inclusion) against the non-inclusive baseline, at 100.8 GB/s (graphmem) and 144 GB/s (graphmem144), on part 1's kernels
and inputs (graph_memory_study.py). Beside the thesis's section 4.4 [G L952-L1005]: the speedup
(its per-invocation IPC ratio), L2 misses per kilo-instruction, on-chip traffic (request and
reply flits) and L2 insertions (fills installed and copy-backs); then Table 11's set-up, the baseline,
exclusion and flexclusion with a 1 KB victim buffer per L1. Prints markdown.

Usage: experiments/graph_memory_inclusion.py [--build build] [--jobs N] [--from-sweep DIR]
"""

import simulate as sim
from graph_memory_study import INCLUSION, KERNELS, STUDIED, hmean, kernel_speedup, run, thesis_speedup

CONFIGS = ("graphmem", "graphmem144")
MECHS = ["exclusive", "flexclusion", "region_exclusion"]
TABLE11 = ["exclusive+vc", "flexclusion+vc", "region_exclusion"]  # against base+vc
# The thesis's averages [G L952, L961, L975, L983, L992, L1003].
PAPER = {"graphmem": {"exclusive": (1.06, -0.06, 0.34, 0.06), "flexclusion": (1.04, -0.04, 0.22, 0.13),
                      "region_exclusion": (1.05, -0.06, 0.07, 0.00)},
         "graphmem144": {"exclusive": (1.03, None, None, None), "flexclusion": (1.03, None, None, None),
                         "region_exclusion": (1.03, None, None, None)}}


def insertions(r):
    """Lines installed in the L2: DRAM fills (all, less those bypassed) and copy-backs."""
    return r["dram_reads"] - r["fills_bypassed"] + r["copybacks"]


def main():
    a, irrgpu = sim.study_options(__doc__)
    jobs = [(c, k, g, m) for c in CONFIGS for k in KERNELS for g in STUDIED for m in ["base"] + list(INCLUSION)]
    results = sim.run_all(jobs, lambda *j: run(irrgpu, *j), a.jobs)
    if sim.planning():
        return

    def change(config, mech, key):  # summed over kernels and inputs, against the baseline's sum
        base = sum(key(results[(config, k, g, "base")]) for k in KERNELS for g in STUDIED)
        return sum(key(results[(config, k, g, mech)]) for k in KERNELS for g in STUDIED) / base - 1

    for config, title in (("graphmem", "100.8 GB/s"), ("graphmem144", "144 GB/s")):
        print(f"\n#### Inclusion, {title}: speedup per kernel (the thesis's measure, both inputs)\n")
        print("| kernel | " + " | ".join(MECHS) + " |")
        print("|---" * (len(MECHS) + 1) + "|")
        per = {m: [] for m in MECHS}
        for k in KERNELS:
            for m in MECHS:
                per[m].append(kernel_speedup(results, config, k, STUDIED, m))
            print(f"| {k[0]} | " + " | ".join(f"{per[m][-1]:.2f}" for m in MECHS) + " |")
        print("| **all (ours)** | " + " | ".join(f"**{hmean(per[m]):.2f}**" for m in MECHS) + " |")
        print("| thesis | " + " | ".join(f"{PAPER[config][m][0]:.2f}" for m in MECHS) + " |")

        print(f"\n#### Inclusion, {title}: what changed against the baseline (sums over kernels and inputs)\n")
        print("| mechanism | L2 MPKI | on-chip traffic (flits) | L2 insertions | DRAM reads | L2 hits moved to an L1 | "
              "thesis: MPKI / traffic / insertions |")
        print("|---|---|---|---|---|---|---|")
        for m in MECHS:
            mpki = (sum(results[(config, k, g, m)]["l2_misses"] for k in KERNELS for g in STUDIED) /
                    sum(results[(config, k, g, m)]["instructions"] for k in KERNELS for g in STUDIED)) / (
                sum(results[(config, k, g, "base")]["l2_misses"] for k in KERNELS for g in STUDIED) /
                sum(results[(config, k, g, "base")]["instructions"] for k in KERNELS for g in STUDIED)) - 1
            paper = PAPER[config][m]
            thesis = " / ".join("-" if x is None else f"{x:+.0%}" for x in paper[1:])
            moved = sum(results[(config, k, g, m)]["moved"] for k in KERNELS for g in STUDIED)
            print(f"| {m} | {mpki:+.1%} | {change(config, m, lambda r: r['request_flits'] + r['reply_flits']):+.1%} | "
                  f"{change(config, m, insertions):+.1%} | {change(config, m, lambda r: r['dram_reads']):+.1%} | "
                  f"{moved:.0f} | {thesis} |")

    print("\n#### Table 11's set-up: the baseline, exclusion and flexclusion with a 1 KB victim buffer per L1, "
          "R-EX without; speedup over the baseline with it\n")
    print("| kernel | " + " | ".join(f"{m} ({c})" for c in CONFIGS for m in TABLE11) + " |")
    print("|---" * (len(TABLE11) * len(CONFIGS) + 1) + "|")
    per = {(c, m): [] for c in CONFIGS for m in TABLE11}
    for k in KERNELS:
        cells = []
        for c in CONFIGS:
            for m in TABLE11:
                per[(c, m)].append(hmean([x for g in STUDIED for x in thesis_speedup(
                    results[(c, k, g, "base+vc")], results[(c, k, g, m)])]))
                cells.append(f"{per[(c, m)][-1]:.2f}")
        print(f"| {k[0]} | " + " | ".join(cells) + " |")
    print("| **all (ours)** | " + " | ".join(f"**{hmean(per[(c, m)]):.2f}**" for c in CONFIGS for m in TABLE11) + " |")
    print("| thesis | " + " | ".join(f"{PAPER[c][m.split('+')[0]][0]:.2f}" for c in CONFIGS for m in TABLE11) + " |")
    vc = {g: sum(results[("graphmem", k, g, "base+vc")]["victim_hits"] for k in KERNELS) for g in STUDIED}
    l1 = {g: sum(results[("graphmem", k, g, "base+vc")]["l1_hits"] for k in KERNELS) for g in STUDIED}
    alone = hmean([kernel_speedup(results, "graphmem", k, STUDIED, "base+vc") for k in KERNELS])
    print(f"\nThe victim buffer alone (base+vc against base, 100.8 GB/s): {alone:.3f}; its hits " +
          ", ".join(f"{vc[g] / l1[g]:.1%} of the L1 hits on {g}" for g in STUDIED) + ".")

    print("\n#### Inclusion at 100.8 GB/s per kernel and input: DRAM reads and L2 hits against the baseline\n")
    print("| kernel | input | base L2 hits | " + " | ".join(f"{m} L2 hits | {m} DRAM reads" for m in MECHS) + " |")
    print("|---|---|---" + "|---|---" * len(MECHS) + "|")
    for k in KERNELS:
        for g in STUDIED:
            b = results[("graphmem", k, g, "base")]
            cells = [f"{results[('graphmem', k, g, m)]['l2_hits']:.0f} | "
                     f"{results[('graphmem', k, g, m)]['dram_reads'] / b['dram_reads'] - 1:+.0%}" for m in MECHS]
            print(f"| {k[0]} | {g} | {b['l2_hits']:.0f} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
