#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The HWWL study (docs/results/hwwl.md): BFS and SSSP on the kim4x16 GPU, the best software
baseline against the hardware worklist with each redistribution scheme (unbounded banks, the
paper's Figure 6) and with each bank size under interval and on-demand virtualization (Figure 7),
on each --graph; then the paper's Figure 8: the share
of hardware threads holding a work ID over time, single- against double-buffered BFS; then the
realistic HWWL as the road-like input grows. Prints
markdown tables; --plot DIR writes PNG charts (matplotlib).

Usage: experiments/hwwl_study.py [--build build] [--graph G ...] [--activity-graph G] [--plot DIR]
                                [--sections study,activity,scaling]
"""
import argparse
import os
import sys
import tempfile

import simulate as sim
from simulate import simulate

SOFTWARE = {"bfs": ["topology", "data", "data_vkc", "data_warp", "data_block", "wl"],
            "sssp": ["topology", "data", "data_vkc", "data_warp", "wl"]}
SCHEMES = ["none", "threshold", "lsorting", "gsorting", "magic"]
BANKS = [8, 16, 32, 64, 4096]  # 4096: "unbounded" (the largest bank the model takes)
GRAPHS = ["grid:rows=128,cols=128", "rmat:scale=12"]
ACTIVITY_GRAPH = "rgg:n=32768,radius=0.012"  # road-like: a frontier of hundreds of vertices, ~100 levels
WIDE_GRAPH = "rmat:scale=14"  # a widest level of thousands of vertices: more than the 6,144 HW threads
HW_THREADS = 4 * 1536  # kim4x16: 4 cores x 48 warps x 32 threads


def run(irrgpu, workload, variant, graph, sets, tmp, sample_every=0):
    out = os.path.join(tmp, "run")
    cmd = [irrgpu, "run", "-q", "-c", "kim4x16", "--workload", workload, "--variant", variant, "--graph", graph]
    for s in sets:
        cmd += ["-s", s]
    if sample_every:
        cmd += ["--sample-every", str(sample_every)]
    j = simulate(cmd, out)
    stats = j["stats"]
    value = lambda k: stats[k]["value"] if k in stats else 0
    r = {"cycles": value("gpu.total.core_cycles"), "warp_instructions": value("gpu.total.warp_instructions"),
         "thread_instructions": value("gpu.total.thread_instructions"),
         "memory_stalls": value("gpu.total.stall.memory"), "wait_pulls": value("hwwl.wait_pulls"),
         "spilled": value("hwwl.hvu.spilled"), "pushes": value("hwwl.pushes"), "l1_hit_rate": value("gpu.total.l1_hit_rate"),
         "moved": value("hwwl.wru.moved"), "sent": value("hwwl.icrn.sent")}
    misses = [value(f"gpu.sm{i}.l1.misses") for i in range(4)]
    r["busiest_sm"] = max(misses) / max(1, sum(misses))  # where the memory work went
    if sample_every:
        r["series"] = j["samples"]["series"]["hwwl.active_threads"]
    return r


def table(title, rows, best):
    print(f"\n{title}\n")
    print("| configuration | core cycles | speedup over best software | warp instructions | memory stalls | WAIT pulls "
          "| IDs spilled | IDs moved in cores / over the ICRN | busiest SM's share of L1 misses |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, r in rows:
        print(f"| {name} | {r['cycles']:,.0f} | {best / r['cycles']:.2f} | {r['warp_instructions']:,.0f} | "
              f"{r['memory_stalls']:,.0f} | {r['wait_pulls']:,.0f} | {r['spilled']:,.0f} | "
              f"{r['moved']:,.0f} / {r['sent']:,.0f} | {100 * r['busiest_sm']:.0f} % |")


def study(irrgpu, w, graph, tmp):
    sw = [(v, run(irrgpu, w, v, graph, [], tmp)) for v in SOFTWARE[w]]
    best_name, best = min(sw, key=lambda x: x[1]["cycles"])
    # Figure 6: the schemes with infinite-capacity banks, isolating redistribution [K L303].
    schemes = [(s, run(irrgpu, w, "hwwl", graph, [f"hwwl.redistribution={s}", "hwwl.bank_entries=4096"], tmp))
               for s in SCHEMES]
    # Without redistribution an empty bank answers DONE [K L233], so only finite banks, whose
    # spilled work keeps threads waiting for refills, give the baseline WAIT pulls to compare.
    finite = [(f"{s}, 32 entries", run(irrgpu, w, "hwwl", graph, [f"hwwl.redistribution={s}"], tmp))
              for s in ("none", "lsorting")]
    # Figure 7: lsorting, bank sizes under interval and on-demand virtualization [K L324].
    banks = {v: [(f"{b} entries" if b < 4096 else "unbounded (4096)",
                  run(irrgpu, w, "hwwl", graph, [f"hwwl.bank_entries={b}", f"hwwl.virtualization={v}"], tmp))
                 for b in BANKS] for v in ("interval", "on_demand")}
    topo = dict(sw)["topology"]
    data_name, data = min(((n, r) for n, r in sw if n != "topology"), key=lambda x: x[1]["thread_instructions"])
    print(f"\n## {w} on {graph} (kim4x16); best software: {best_name}, {best['cycles']:,.0f} cycles")
    print(f"\nThread instructions, topology-driven / data-driven ({data_name}): {topo['thread_instructions']:,.0f} / "
          f"{data['thread_instructions']:,.0f} = {topo['thread_instructions'] / data['thread_instructions']:.1f}x "
          "(the paper's BFS input: 1.7e9 / 8.0e7 = 21x; SSSP: 7.5e9 / 7.4e9 = 1.0x [K Table II])")
    table("Software baselines", sw, best["cycles"])
    table("HWWL, each redistribution scheme (unbounded banks, as the paper's Figure 6; then 32-entry banks)",
          schemes + finite, best["cycles"])
    table("HWWL, bank sizes (lsorting, interval virtualization)", banks["interval"], best["cycles"])
    table("HWWL, bank sizes (lsorting, on-demand virtualization)", banks["on_demand"], best["cycles"])
    return best, schemes, banks


def activity(irrgpu, graph, wide, tmp, every):
    """Figure 8: BFS single- against double-buffered, threads holding a work ID over time, with the
    realistic memory system and with magic memory (l1.perfect); then the double buffer's peak on
    an input whose widest level exceeds the hardware threads. LRR scheduling: under GTO the oldest
    warps spinning on WAIT starve the warps holding work, which in single-buffer mode is a livelock
    (docs/results/hwwl.md)."""
    cases = [(f"{m}-buffered, {mem} memory, {graph.split(':')[0]}", graph,
              [f"hwwl.mode={m}", "core.scheduler=lrr"] + (["l1.perfect=true"] if mem == "magic" else []))
             for m in ("single", "double") for mem in ("realistic", "magic")]
    cases += [(f"double-buffered, {b}-entry banks, {wide.split(':')[0]}", wide,
               ["hwwl.mode=double", "core.scheduler=lrr", f"hwwl.bank_entries={b}"]) for b in (32, 4096)]
    runs = [(name, run(irrgpu, "bfs", "hwwl", g, sets, tmp, every)) for name, g, sets in cases]
    print(f"\n## Active hardware threads over time: BFS on {graph} and {wide} (kim4x16, LRR scheduling)\n")
    print("| run | core cycles | peak active | mean active | samples at >= 80 % active | WAIT pulls | pushes "
          "| L1 hit rate |")
    print("|---|---|---|---|---|---|---|---|")
    for name, r in runs:
        share = [100.0 * x / HW_THREADS for x in r["series"]]
        print(f"| {name} | {r['cycles']:,.0f} | {max(share):.1f} % | {sum(share) / len(share):.1f} % | "
              f"{100.0 * sum(s >= 80 for s in share) / len(share):.1f} % | {r['wait_pulls']:,.0f} | {r['pushes']:,.0f} | "
              f"{100.0 * r['l1_hit_rate']:.1f} % |")
    return runs


def scaling(irrgpu, tmp):
    """The realistic HWWL (lsorting, 32 entries) and unbounded banks against the software
    variants as the road-like grid grows: BFS's frontier grows with the grid and still fits the
    banks; SSSP's pushes per kernel outgrow them. Topology-driven runs only where it is affordable
    (its work grows with vertices x levels); it is already the slowest there."""
    cases = [("bfs", "grid:rows=128,cols=128", ["topology", "data_vkc", "data_warp"]),
             ("bfs", "grid:rows=256,cols=256", ["topology", "data_vkc", "data_warp"]),
             ("bfs", "grid:rows=512,cols=512", ["data_vkc", "data_warp"]),
             ("sssp", "grid:rows=128,cols=128", ["topology", "data_vkc", "data_warp"]),
             ("sssp", "grid:rows=256,cols=256", ["data_vkc", "data_warp"])]
    print("\n## Input size: road-like grids (kim4x16)\n")
    print("| workload | graph | best software (of those run) | HWWL, 32 entries | speedup | IDs spilled | WAIT pulls "
          "| HWWL, unbounded | speedup |")
    print("|---|---|---|---|---|---|---|---|---|")
    for w, graph, variants in cases:
        sw = [(v, run(irrgpu, w, v, graph, [], tmp)) for v in variants]
        name, best = min(sw, key=lambda x: x[1]["cycles"])
        hw = run(irrgpu, w, "hwwl", graph, [], tmp)
        unb = run(irrgpu, w, "hwwl", graph, ["hwwl.bank_entries=4096"], tmp)
        print(f"| {w} | {graph} | {name}: {best['cycles']:,.0f} | {hw['cycles']:,.0f} | {best['cycles'] / hw['cycles']:.2f} | "
              f"{hw['spilled']:,.0f} | {hw['wait_pulls']:,.0f} | {unb['cycles']:,.0f} | {best['cycles'] / unb['cycles']:.2f} |")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default="build")
    sim.add_sweep_option(p)
    p.add_argument("--graph", action="append", help=f"repeatable (default: {' and '.join(GRAPHS)})")
    p.add_argument("--activity-graph", default=ACTIVITY_GRAPH)
    p.add_argument("--wide-graph", default=WIDE_GRAPH, help="the double buffer's peak activity")
    p.add_argument("--sample-every", type=int, default=5000, help="cycles between activity samples")
    p.add_argument("--plot", default="")
    p.add_argument("--sections", default="study,activity,scaling",
                   help="which parts to run (comma-separated): study (the tables by input), activity (Figure 8), "
                        "scaling (input size)")
    a = p.parse_args()
    sim.use_sweep(a.from_sweep)
    irrgpu = os.path.join(a.build, "apps", "irrgpu", "irrgpu")
    sections = a.sections.split(",")
    if unknown := [x for x in sections if x not in ("study", "activity", "scaling")]:
        p.error(f"--sections: unknown {', '.join(unknown)} (study, activity, scaling)")
    results, act = {}, []
    with tempfile.TemporaryDirectory() as tmp:
        if "study" in sections:
            for graph in a.graph or GRAPHS:
                for w in ("bfs", "sssp"):
                    results[(w, graph)] = study(irrgpu, w, graph, tmp)
        if "activity" in sections:
            act = activity(irrgpu, a.activity_graph, a.wide_graph, tmp, a.sample_every)
        if "scaling" in sections:
            scaling(irrgpu, tmp)
    if not a.plot:
        return
    draw = sim.figures()
    for (w, graph), (best, schemes, banks) in results.items():
        fig, ax = draw.figure(1, 2, size=(10, 3.5))
        name = graph.split(":")[0]
        draw.grouped_bars(ax[0], [n for n, _ in schemes], [(None, [best["cycles"] / r["cycles"] for _, r in schemes])],
                          "speedup over best software", f"{w} on {name}: by scheme (unbounded banks)", unit_line=1.0)
        draw.grouped_bars(ax[1], [n.split(" ")[0] for n, _ in banks["interval"]],
                          [(v, [best["cycles"] / r["cycles"] for _, r in rows]) for v, rows in banks.items()],
                          "speedup over best software", f"{w} on {name}: lsorting, by bank entries", unit_line=1.0)
        draw.save(fig, os.path.join(a.plot, f"hwwl_{w}_{name}.png"))
    if not act:
        return
    fig, ax = draw.figure(3, 2, size=(10, 8), sharey=True)
    for axis, (name, r) in zip(ax, act):
        draw.series_lines(axis, [(None, [i * a.sample_every for i in range(len(r["series"]))],
                                  [100.0 * x / HW_THREADS for x in r["series"]])],
                          "core cycles", "% HW threads active", f"BFS, {name}", ylim=(0, 100), marker=None)
    draw.save(fig, os.path.join(a.plot, "hwwl_activity.png"))


if __name__ == "__main__":
    main()
