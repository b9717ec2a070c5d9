#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The HWWL study (docs/results/hwwl.md): BFS, BH, DMR, MST (Boruvka), SP and SSSP on the kim4x16 GPU, the best software
baseline against the hardware worklist with each redistribution scheme (unbounded banks, the
paper's Figure 6), the idealised FIFO and sorted HWWLs (Figure 5) and each bank size under
interval and on-demand virtualization (Figure 7), on each --graph; then the paper's Figure 8: the
share of hardware threads holding a work ID over time, single- against double-buffered BFS; then
the realistic HWWL as the road-like input grows; then the HVU's refill rate swept on R-MAT; then
BFS on a 1 M-vertex input on 4, 8 and 16 cores (the paper's scalability study). Prints markdown
tables; --plot DIR writes PNG charts (matplotlib).

Usage: experiments/hwwl_study.py [--build build] [--graph G ...] [--activity-graph G] [--plot DIR]
                                [--sections study,activity,scaling,refill,cores] [--workloads bfs,boruvka,sssp,bh,dmr,sp]
"""
import argparse
import os
import sys
import tempfile

import simulate as sim
from simulate import simulate

SOFTWARE = {"bfs": ["topology", "data", "data_vkc", "data_warp", "data_block", "wl"],
            "boruvka": ["harish", "lonestar", "wl"],  # MST: H-MST and LonestarGPU's, both over every vertex
            "sp": ["topology", "wl"],  # survey propagation: LonestarGPU's sweeps over every clause, the worklist API's
            "bh": ["topology", "wl"],  # Barnes-Hut: sweeps over every body or cell, the worklist API's
            "dmr": ["topology", "wl"],  # Delaunay mesh refinement: rounds over every triangle, the worklist API's
            "sssp": ["topology", "data", "data_vkc", "data_warp", "wl"]}
WORKLOADS = ["bfs", "boruvka", "sssp"]  # in the paper's figure order (BFS, BH, DMR, MST, SP, SSSP); BH, DMR and SP on OWN
TOPOLOGY = {"bfs": "topology", "boruvka": "lonestar", "sssp": "topology"}  # the topology-driven kernel
SCHEMES = ["none", "threshold", "lsorting", "gsorting", "magic"]
BANKS = [8, 16, 32, 64, 4096]  # 4096: "unbounded" (the largest bank the model takes)
GRAPHS = ["grid:rows=128,cols=128", "rmat:scale=12"]
# SP's input: random 3-SAT at LonestarGPU's ratio 4.2 (the paper names none), 2,000 variables and
# 8,400 clauses: half LonestarGPU's smaller SP input (random-16800-4000-3). Each HWWL run takes 10-20 minutes here, so SP has one table of the rows the
# paper's claims need: Figure 6's schemes (unbounded banks), the realistic HWWL under both
# virtualizations, the idealised FIFO.
SP_GRAPH = "sat:vars=2000,ratio=4.2,seed=1"
REALISTIC = ("lsorting, 32 entries, interval (the paper's realistic HWWL)", ["hwwl.redistribution=lsorting"])
IDEAL_FIFO = ("ideal fifo", ["hwwl.ideal=fifo"])
OWN_HWWL = [(f"{s}, unbounded banks", [f"hwwl.redistribution={s}", "hwwl.bank_entries=4096"])
            for s in ("none", "threshold", "lsorting")] + [
    REALISTIC, ("lsorting, 32 entries, on demand", ["hwwl.bank_entries=32", "hwwl.virtualization=on_demand"]), IDEAL_FIFO]
# BH's input: a Plummer cluster of 16,384 bodies, two time steps (the paper names none): its
# topology-driven run executes 1.15e8 warp instructions, 0.58x Table II's 2.0e8; SP's rows (a run
# takes 10-40 minutes here).
BH_GRAPH = "plummer:n=16384,seed=1"
# DMR's input: the Delaunay triangulation of 500 random points in the square (994 triangles; the
# paper names none, LonestarGPU's meshes have 250 k to 5 M triangles): refined, it ends near 6,000
# triangles, and its topology-driven run executes 6.9e7 warp instructions, Table II's 6.8e7.
DMR_GRAPH = "delaunay:n=500,seed=1"
# The workloads on inputs of their own (a formula, a body set): (input, HWWL rows, the paper's
# topology / data-driven dynamic instructions [K Table II]).
IDEAL_SORTED = [("ideal sorted", ["hwwl.ideal=sorted"])]
OWN = {"bh": (BH_GRAPH, OWN_HWWL, "2.0e8 / 1.6e8 = 1.25x"),
       "dmr": (DMR_GRAPH, OWN_HWWL + IDEAL_SORTED, "6.8e7 / 3.9e7 = 1.7x"),
       "sp": (SP_GRAPH, OWN_HWWL, "1.6e8 / 1.2e7 = 13x")}
# Other inputs of their own, with the software versions and the HWWL rows named: BH on a quarter
# of the bodies (a run takes 1-3 minutes), every row; DMR on four times the points (6-10 minutes),
# the realistic HWWL and the ideal FIFO.
OWN_OTHER = {"bh": [("plummer:n=4096,seed=1", OWN_HWWL + IDEAL_SORTED)],
             "dmr": [("delaunay:n=2000,seed=1", [REALISTIC, IDEAL_FIFO])]}
ACTIVITY_GRAPH = "rgg:n=32768,radius=0.012"  # road-like: a frontier of hundreds of vertices, ~100 levels
WIDE_GRAPH = "rmat:scale=14"  # a widest level of thousands of vertices: more than the 6,144 HW threads
HW_THREADS = 4 * 1536  # kim4x16: 4 cores x 48 warps x 32 threads
IDEAL = ["fifo", "sorted"]  # the limit study's idealised HWWLs [K L281-L288]
REFILL_GRAPH = "rmat:scale=12"
REFILL = {"hwwl.refill_loads": [4, 16, 64], "hwwl.refill_interval": [1, 10, 40], "hwwl.refill_per_bank": [1, 2]}
CORES_GRAPH = "grid:rows=1024,cols=1024"  # road-like, 1,048,576 vertices: the paper's ">1M nodes" [K L336]
CORES = [4, 8, 16]
SECTIONS = ("study", "activity", "scaling", "refill", "cores")
IDEAL_ROWS = []  # study(): each input's idealised HWWLs beside its best software, for ideal_summary()


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
         "moved": value("hwwl.wru.moved"), "sent": value("hwwl.icrn.sent"),
         "refill_loads": value("hwwl.hvu.refill_loads"), "refilled": value("hwwl.hvu.refilled")}
    misses = [stats[k]["value"] for k in stats if k.startswith("gpu.sm") and k.endswith(".l1.misses")]
    r["busiest_sm"] = max(misses) / max(1, sum(misses))  # where the memory work went
    if sample_every:
        r["series"] = j["samples"]["series"]["hwwl.active_threads"]
    return r


def table(title, rows, best, against="best software"):
    print(f"\n{title}\n")
    print(f"| configuration | core cycles | speedup over {against} | warp instructions | memory stalls | WAIT pulls "
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
    # Figure 5: one unbounded list with unlimited bandwidth, FIFO or sorted by ID [K L281-L288].
    ideal = [(f"ideal {o}", run(irrgpu, w, "hwwl", graph, [f"hwwl.ideal={o}"], tmp)) for o in IDEAL]
    # Figure 7: lsorting, bank sizes under interval and on-demand virtualization [K L324].
    banks = {v: [(f"{b} entries" if b < 4096 else "unbounded (4096)",
                  run(irrgpu, w, "hwwl", graph, [f"hwwl.bank_entries={b}", f"hwwl.virtualization={v}"], tmp))
                 for b in BANKS] for v in ("interval", "on_demand")}
    topo = dict(sw)[TOPOLOGY[w]]
    data_name, data = min(((n, r) for n, r in sw if n.startswith("data") or n == "wl"),
                          key=lambda x: x[1]["thread_instructions"])
    print(f"\n## {w} on {graph} (kim4x16); best software: {best_name}, {best['cycles']:,.0f} cycles")
    print(f"\nThread instructions, topology-driven / data-driven ({data_name}): {topo['thread_instructions']:,.0f} / "
          f"{data['thread_instructions']:,.0f} = {topo['thread_instructions'] / data['thread_instructions']:.1f}x "
          "(the paper's BFS input: 1.7e9 / 8.0e7 = 21x; SSSP: 7.5e9 / 7.4e9 = 1.0x [K Table II])")
    table("Software baselines", sw, best["cycles"])
    table("HWWL, each redistribution scheme (unbounded banks, as the paper's Figure 6; then 32-entry banks; then "
          "the idealised HWWLs of Figure 5)", schemes + finite + ideal, best["cycles"])
    IDEAL_ROWS.append((w, graph, best_name, best, dict(ideal), dict(sw)["wl"]))
    table("HWWL, bank sizes (lsorting, interval virtualization)", banks["interval"], best["cycles"])
    table("HWWL, bank sizes (lsorting, on-demand virtualization)", banks["on_demand"], best["cycles"])
    return best, schemes + ideal, banks


def own_study(irrgpu, w, tmp):
    """A workload on its own input (OWN): the software versions against its HWWL rows."""
    graph, rows, paper = OWN[w]
    sw = [(v, run(irrgpu, w, v, graph, [], tmp)) for v in SOFTWARE[w]]
    best_name, best = min(sw, key=lambda x: x[1]["cycles"])
    hw = [(name, run(irrgpu, w, "hwwl", graph, sets, tmp)) for name, sets in rows]
    topo, wl = dict(sw)["topology"], dict(sw)["wl"]
    print(f"\n## {w} on {graph} (kim4x16); best software: {best_name}, {best['cycles']:,.0f} cycles")
    print(f"\nThread instructions, topology-driven / data-driven (wl): {topo['thread_instructions']:,.0f} / "
          f"{wl['thread_instructions']:,.0f} = {topo['thread_instructions'] / wl['thread_instructions']:.2f}x "
          f"(the paper's {w.upper()}: {paper} [K Table II]; warp instructions here: {topo['warp_instructions']:,.0f} / "
          f"{wl['warp_instructions']:,.0f})")
    table("Software versions, then the HWWL", sw + hw, best["cycles"])
    IDEAL_ROWS.append((w, graph, best_name, best, {n: r for n, r in hw if n.startswith("ideal")}, wl))
    for other, rows in OWN_OTHER.get(w, []):
        sw = [(v, run(irrgpu, w, v, other, [], tmp)) for v in SOFTWARE[w]]
        best_name, best = min(sw, key=lambda x: x[1]["cycles"])
        hw = [(name, run(irrgpu, w, "hwwl", other, sets, tmp)) for name, sets in rows]
        table(f"The same on {other}; best software: {best_name}", sw + hw, best["cycles"])
        IDEAL_ROWS.append((w, other, best_name, best, {n: r for n, r in hw if n.startswith("ideal")}, dict(sw)["wl"]))


def ideal_summary():
    """Figure 5 gathered: the idealised HWWLs over the best software and over the same worklist-API
    kernel on the software worklist (`wl`)."""
    print("\n## Idealised HWWLs (Figure 5)\n")
    print("| input | best software | ideal FIFO | speedup | ideal sorted | speedup | sorted over FIFO "
          "| ideal FIFO over `wl` |")
    print("|---|---|---|---|---|---|---|---|")
    for w, graph, best_name, best, ideal, wl in IDEAL_ROWS:
        fifo = ideal["ideal fifo"]["cycles"]
        srt = ideal["ideal sorted"]["cycles"] if "ideal sorted" in ideal else None  # SP: FIFO only
        sorted_cells = f"{srt:,.0f} | {best['cycles'] / srt:.2f} | {fifo / srt:.2f}" if srt else "— | — | —"
        print(f"| {w}, {graph} | {best_name}: {best['cycles']:,.0f} | {fifo:,.0f} | {best['cycles'] / fifo:.2f} | "
              f"{sorted_cells} | {wl['cycles'] / fifo:.2f} |")


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


def refill(irrgpu, tmp):
    """The HVU's refill rate on R-MAT, where the banks overflow (32 entries, lsorting): refill loads
    a core keeps outstanding, the refill interval and the IDs a load writes into each bank (2 on 16
    lanes: a warp's worth, 32 IDs in one line), every combination; then the same banks with faster
    redistribution."""
    print(f"\n## Refill rate on {REFILL_GRAPH} (kim4x16, 32-entry banks, lsorting, interval virtualization)\n")
    print("| workload | refill loads outstanding | refill interval (cycles) | IDs per bank per load | core cycles "
          "| speedup over the default (16 / 10 / 1) | WAIT pulls | refill loads | IDs refilled |")
    print("|---|---|---|---|---|---|---|---|---|")
    keys = list(REFILL)
    for w in ("bfs", "sssp"):
        rows = []
        for loads in REFILL[keys[0]]:
            for interval in REFILL[keys[1]]:
                for per_bank in REFILL[keys[2]]:
                    sets = [f"{keys[0]}={loads}", f"{keys[1]}={interval}", f"{keys[2]}={per_bank}"]
                    rows.append(((loads, interval, per_bank), run(irrgpu, w, "hwwl", REFILL_GRAPH, sets, tmp)))
        default = dict(rows)[(16, 10, 1)]["cycles"]
        for (loads, interval, per_bank), r in rows:
            print(f"| {w} | {loads} | {interval} | {per_bank} | {r['cycles']:,.0f} | {default / r['cycles']:.2f} | "
                  f"{r['wait_pulls']:,.0f} | {r['refill_loads']:,.0f} | {r['refilled']:,.0f} |")
    # Against what redistribution can do: the same 32-entry banks redistributed every cycle, and
    # with the magic scheme (everything spread at once), beside unbounded banks.
    paper = ["hwwl.redistribution=lsorting"]
    cases = [("lsorting, interval 10 (the paper's)", paper), ("lsorting, interval 1", ["hwwl.interval=1"]),
             ("magic", ["hwwl.redistribution=magic"]), ("lsorting, unbounded banks", paper + ["hwwl.bank_entries=4096"])]
    for w in ("bfs", "sssp"):
        rows = [(name, run(irrgpu, w, "hwwl", REFILL_GRAPH, sets, tmp)) for name, sets in cases]
        table(f"{w} on {REFILL_GRAPH}: 32-entry banks redistributed faster, against unbounded banks", rows,
              rows[0][1]["cycles"], "the paper's lsorting")


def cores(irrgpu, tmp):
    """The paper's scalability study [K L336]: BFS on a road-like input of over a million vertices on
    kim4x16 with 4, 8 and 16 cores (gpu.num_sms; every other row of the preset as it is: the paper
    gives no other change). The data-driven software variants against the realistic HWWL (lsorting,
    32 entries) and the idealised FIFO HWWL; topology-driven BFS is not run (its work is vertices
    x levels: some 2,000 passes over a million vertices)."""
    print(f"\n## Scaling to 16 cores: BFS on {CORES_GRAPH} (kim4x16 with 4, 8 and 16 cores)\n")
    print("| cores | data_vkc | data_warp | HWWL, 32 entries | speedup over best software | IDs spilled | WAIT pulls "
          "| IDs sent over the ICRN | ideal FIFO HWWL | speedup |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for n in CORES:
        sets = [f"gpu.num_sms={n}"]
        sw = {v: run(irrgpu, "bfs", v, CORES_GRAPH, sets, tmp) for v in ("data_vkc", "data_warp")}
        best = min(r["cycles"] for r in sw.values())
        hw = run(irrgpu, "bfs", "hwwl", CORES_GRAPH, sets, tmp)
        ideal = run(irrgpu, "bfs", "hwwl", CORES_GRAPH, sets + ["hwwl.ideal=fifo"], tmp)
        print(f"| {n} | {sw['data_vkc']['cycles']:,.0f} | {sw['data_warp']['cycles']:,.0f} | {hw['cycles']:,.0f} | "
              f"{best / hw['cycles']:.2f} | {hw['spilled']:,.0f} | {hw['wait_pulls']:,.0f} | {hw['sent']:,.0f} | "
              f"{ideal['cycles']:,.0f} | {best / ideal['cycles']:.2f} |")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default="build")
    sim.add_sweep_option(p)
    p.add_argument("--graph", action="append", help=f"repeatable (default: {' and '.join(GRAPHS)})")
    p.add_argument("--activity-graph", default=ACTIVITY_GRAPH)
    p.add_argument("--wide-graph", default=WIDE_GRAPH, help="the double buffer's peak activity")
    p.add_argument("--sample-every", type=int, default=5000, help="cycles between activity samples")
    p.add_argument("--plot", default="")
    p.add_argument("--sections", default=",".join(SECTIONS),
                   help="which parts to run (comma-separated): study (the tables by input, Figures 5-7), activity "
                        "(Figure 8), scaling (input size), refill (the HVU's refill rate on R-MAT), cores (4 to 16 cores)")
    p.add_argument("--workloads", default=",".join(WORKLOADS + list(OWN)),
                   help="the study section's benchmarks (comma-separated); bh, dmr and sp run on their own inputs, "
                        "and only without --graph")
    a = p.parse_args()
    sim.use_sweep(a.from_sweep)
    irrgpu = os.path.join(a.build, "apps", "irrgpu", "irrgpu")
    sections = a.sections.split(",")
    if unknown := [x for x in sections if x not in SECTIONS]:
        p.error(f"--sections: unknown {', '.join(unknown)} ({', '.join(SECTIONS)})")
    chosen = a.workloads.split(",")
    if unknown := [x for x in chosen if x not in SOFTWARE]:
        p.error(f"--workloads: unknown {', '.join(unknown)} ({', '.join(SOFTWARE)})")
    results, act = {}, []
    with tempfile.TemporaryDirectory() as tmp:
        if "study" in sections:
            for graph in a.graph or GRAPHS:
                for w in (x for x in WORKLOADS if x in chosen):
                    results[(w, graph)] = study(irrgpu, w, graph, tmp)
            for w in (x for x in OWN if x in chosen and not a.graph):
                own_study(irrgpu, w, tmp)
            ideal_summary()
        if "activity" in sections:
            act = activity(irrgpu, a.activity_graph, a.wide_graph, tmp, a.sample_every)
        if "scaling" in sections:
            scaling(irrgpu, tmp)
        if "refill" in sections:
            refill(irrgpu, tmp)
        if "cores" in sections:
            cores(irrgpu, tmp)
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
