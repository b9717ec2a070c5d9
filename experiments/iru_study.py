#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The IRU study (docs/results/iru.md): BFS, SSSP and PageRank in the IRU paper's frontier form on
the gtx980 preset (the paper's Table 2), each plain and with the contraction reading through the
reorder unit, on generated graphs shaped like the paper's Table 3; then the unit's sensitivity to
its hash size, timeout, data-processing rate, banks, classifier queues, L2 bypass and L2 access; then SSSP
and PageRank with atomics coalesced by line, as GPGPU-Sim (the paper's simulator) does; then SSSP's
baseline with a software duplicate filter (the paper's has one); then PageRank with its next frontier
built in the contraction or by a pass over the vertices; then each algorithm at its nearest form on
the paper's Table 3 graphs at their own size. Prints
markdown tables; --plot DIR writes PNG charts (matplotlib).

Usage: experiments/iru_study.py [--build build] [--jobs N] [--graph NAME ...] [--workload W ...]
                               [--sections study,sensitivity,atomics,timeout,pagerank,culling,fused,paper_size]
                               [--on GRAPH]
                               [--plot DIR]
"""
import argparse
import concurrent.futures
import importlib.util
import json
import math
import os
import tempfile

import simulate as sim
from simulate import simulate

# The paper's Table 3 [S L228-L235], each as a generated graph that simulates in minutes. Its
# degrees count both directions; ours are out-degrees of a symmetric (grid, rgg) or directed
# (rmat, random) graph. BFS's and SSSP's target arrays (4 bytes a vertex) are larger than the
# 32 KB L1, as the paper's are (88 KB to 2.8 MB). PageRank runs some 75 sweeps to its 1e-4 / n
# threshold, so it takes each shape at 1/4 to 1/8 of the size; its contraction's atomics execute
# at the L2 whatever the L1 holds.
GRAPHS = {  # name: (BFS and SSSP input, PageRank input, the paper's graph; ours)
    "ca": ("grid:rows=128,cols=128", "grid:rows=64,cols=64",
           "California roads: 710 k vertices, degree 9.8 (both ways); a road-like mesh, 16 k (PR 4 k), degree 4"),
    "cond": ("rmat:scale=15,edge_factor=8", "rmat:scale=12,edge_factor=8",
             "arXiv collaboration: 40 k, 17.4; R-MAT, 32 k (PR 4 k), 8"),
    "delaunay": ("rgg:n=32768,radius=0.0077", "rgg:n=4096,radius=0.0216",
                 "Delaunay mesh: 524 k, 12; random geometric, 32 k (PR 4 k), 6"),
    "human": ("random:n=16384,m=1048576", "random:n=2048,m=65536",
              "gene network: 22 k, 2214; uniform random, 16 k, 64 (PR 2 k, 32)"),
    "kron": ("rmat:scale=14,edge_factor=32", "rmat:scale=11,edge_factor=32",
             "Graph500 Kronecker: 262 k, 156; R-MAT, 16 k, 32 (PR 2 k, 32)"),
    "msdoor": ("rgg:n=16384,radius=0.022", "rgg:n=4096,radius=0.044",
               "3-D object mesh: 415 k, 97; random geometric, 16 k (PR 4 k), 25"),
}
# Not in the study by default (--graph, --on): labels that fit the L1 (32 KB), unlike the paper's.
# The paper's Table 3 at its own size [S L228-L235] (the paper_size section). Its "Edges" are each
# matrix's stored entries, both directions (DIMACS10/kron_g500-logn18: 262,144 rows, 21,165,908
# entries, sparse.tamu.edu), its degree twice entries over vertices. Each input is the main table's
# kind of generator at the paper's vertex and entry count where the generator has the knobs (the
# grid's degree is 4), delaunay the Delaunay triangulation of random points, as DIMACS10's
# delaunay_n19 is.
PAPER_SIZE = {  # name: (input, the paper's vertices and edges)
    "ca": ("grid:rows=843,cols=843", 710e3, 3.48e6),
    "cond": ("rmat:scale=15,edge_factor=11", 40e3, 0.35e6),
    "delaunay": ("delaunay:n=524288", 524e3, 3.4e6),
    "human": ("random:n=22283,m=24669643", 22e3, 24.6e6),
    "kron": ("rmat:scale=18,edge_factor=81", 262e3, 21e6),
    "msdoor": ("rgg:n=415863,radius=0.0061", 415e3, 20.2e6),
}
# Runs at the paper's size not made: each takes longer than a quarter of an hour here (SSSP's
# baselines on ca and msdoor ran 17 and 14 minutes without finishing: some 1,700 and 160 levels of
# 3-20 M edges, each relaxing again; PageRank on the three largest, 20-25 M edges and some 75
# sweeps, would take hours, where on ca's and delaunay's 3 M a run takes 15-20 minutes).
NOT_RUN = {("sssp", "ca"), ("sssp", "msdoor"), ("pr", "human"), ("pr", "kron"), ("pr", "msdoor")}
SMALL = {"kron8k": ("rmat:scale=13,edge_factor=64", "rmat:scale=11,edge_factor=32", "R-MAT, 8 k, 64: 32 KB of labels")}
ALL_GRAPHS = {**GRAPHS, **SMALL}


def graph_for(workload, name):
    return ALL_GRAPHS[name][1 if workload == "pr" else 0]


WORKLOADS = ["bfs", "sssp", "pr"]
# The kernels the IRU serves (the rest of each application runs the same code in both forms).
CONTRACTION = {"bfs": ["bfs_contract"], "sssp": ["sssp_compaction", "sssp_compaction_culled"],
               "pr": ["pr_contract", "pr_contract_fused"]}
# The paper's figures [S L243-L275].
PAPER = {"speedup": {"bfs": 1.16, "sssp": 1.14, "pr": 1.40, "all": 1.33}, "l1": 67, "l2": 56, "traffic": 54,
         "requests": "4 -> 3", "filtered": {"sssp": 23, "pr": 79, "all": 48.5},
         "energy": {"bfs": 0.83, "sssp": 0.95, "pr": 0.85, "all": 0.87}, "own": 0.5}  # [S L281]
# The paper's Figure 14 counts line requests per memory instruction; ours counts them for the
# contraction's irregular accesses, the loads and atomics indexed by the edge frontier's element,
# each on a line of frontier.cu marked so (with --profile: per PTX instruction, its CUDA line).
FRONTIER_CU = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "workloads", "kernels", "frontier.cu")
IRREGULAR = {i + 1 for i, text in enumerate(open(FRONTIER_CU)) if "irregular access (Fig. 14)" in text}
SENSITIVITY_GRAPH = "cond"  # the default of --on
SENSITIVITY_WORKLOADS = ["bfs", "sssp"]  # PageRank's sweeps make each of its runs minutes long
ATOMIC_WORKLOADS = ["sssp", "pr"]  # their contractions are atomics on the target array
SECTIONS = ["study", "sensitivity", "atomics", "timeout", "pagerank", "culling", "fused", "paper_size"]
# The paper gives no timeout for a request waiting on the hash [S L155]: the timeout section measures the IRU's
# gain at these on every input of the study, the way ours was chosen (docs/results/iru.md).
TIMEOUTS = [100, 300, 1000, 3000, 10000, 30000, 100000]
SENSITIVITY = [("iru.sets", [256, 1024, 4096]), ("iru.timeout", [100, 1000, 10000]),
               ("iru.process_width", [2, 4, 8]), ("iru.banks", [2, 4]), ("iru.classifier_queues", [2, 4]),
               ("iru.bypass_l2", ["false", "true"]), ("l2.unit_latency", [20, 120])]


def total(stats, suffix):
    return sum(v["value"] for k, v in stats.items() if k.endswith(suffix))


def run(irrgpu, workload, variant, graph, sets, tmp):
    out = tempfile.mkdtemp(dir=tmp)
    # No launch overhead: GPGPU-Sim, the paper's simulator, models none (docs/results/iru.md).
    cmd = [irrgpu, "run", "-q", "-c", "gtx980", "--workload", workload, "--variant", variant, "--graph", graph,
           "-s", "host.launch_overhead=0us", "--profile=true"]
    for s in sets:
        cmd += ["-s", s]
    j = simulate(cmd, out)
    s = j["stats"]
    size = {} if sim.planning() else sim.record(out)
    value = lambda k: s[k]["value"] if k in s else 0
    # Inside the kernels the IRU serves, from the kernel snapshots: cycles, and warp loads with the
    # line requests they made (the paper's Figure 14 metric).
    contraction = loads = requests = 0
    inside = {"l1": 0, "l2": 0, "traffic": 0}  # the contraction kernels' share of the run's accesses
    kernels = {}  # per kernel: cycles, warp loads, their line requests
    for a, b in zip(j["snapshots"][::2], j["snapshots"][1::2]):
        delta = lambda suffix: sum(v - a["values"].get(k, 0) for k, v in b["values"].items() if k.endswith(suffix))
        name, cycles = b["label"].split(": ", 1)[1], b["values"]["gpu.kernel_cycles"] - a["values"]["gpu.kernel_cycles"]
        k = kernels.setdefault(name, {"cycles": 0, "loads": 0, "requests": 0})
        k_loads, k_requests = delta(".global_loads"), delta(".global_load_requests")
        k["cycles"] += cycles
        k["loads"] += k_loads
        k["requests"] += k_requests
        if name in CONTRACTION[workload]:
            contraction += cycles
            loads += k_loads
            requests += k_requests
            inside["l1"] += delta(".l1.accesses")
            inside["l2"] += delta(".l2.accesses")
            inside["traffic"] += delta("gpu.interconnect.request.bytes") + delta("gpu.interconnect.reply.bytes")
    irregular = [0, 0, 0]  # warp instructions, line requests, threads at the atomics
    for line in [] if sim.planning() else json.load(open(os.path.join(out, "profile.json")))["ptx_lines"]:
        at = [line[k] for k in ("source", "inlined_at") if k in line]
        if line["function"] in CONTRACTION[workload] and line["op"] in ("ld", "atom") and any(
                os.path.basename(a["file"]) == "frontier.cu" and a["line"] in IRREGULAR for a in at):
            irregular[0] += line["issued"]
            irregular[1] += line["memory_requests"]
            irregular[2] += line["thread_instructions"] if line["op"] == "atom" else 0
    return {"cycles": value("gpu.total.kernel_cycles"), "contraction": contraction, "kernels": kernels,
            "l1": total(s, ".l1.accesses"), "l2": total(s, ".l2.accesses"),
            "traffic": value("gpu.interconnect.request.bytes") + value("gpu.interconnect.reply.bytes"),
            "dram": total(s, ".dram.reads") + total(s, ".dram.writes"),
            "requests_per_load": requests / loads if loads else 0.0, "inside": inside,
            "requests_per_irregular": irregular[1] / irregular[0] if irregular[0] else 0.0, "atomic_threads": irregular[2],
            "requests_per_load_all": total(s, ".global_load_requests") / max(total(s, ".global_loads"), 1),
            "elements": value("iru.elements"), "merged": value("iru.merged"),
            "lines_per_reply": value("iru.lines_per_reply"), "timeouts": value("iru.timeouts"),
            "replies": value("iru.replies"), "prefetch_latency": value("iru.prefetch_latency"),
            "full_stalls": value("iru.entry_full_stalls"), "thread_instructions": value("gpu.total.thread_instructions"),
            "vertices": size.get("vertices", 0), "edges": size.get("edges", 0),
            "energy": value("energy.total"), "energy_units": value("energy.units") + value("energy.static.units")}


_runs = {}


def submit(pool, *args):
    """One simulation per distinct command line, however many sections ask for it (the study's
    plain runs are also the sensitivity's baseline)."""
    if args not in _runs:
        _runs[args] = pool.submit(run, *args)
    return _runs[args]


def gmean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def pct(a, b):
    return 100.0 * a / b if b else float("nan")


def study(pool, irrgpu, graphs, workloads, tmp):
    jobs = {(w, g, v): submit(pool, irrgpu, w, v, graph_for(w, g), (), tmp)
            for w in workloads for g in graphs for v in ("frontier", "iru")}
    r = {k: f.result() for k, f in jobs.items()}
    print("\n## Inputs (the paper's Table 3 beside ours)\n")
    print("| name | BFS, SSSP | PageRank | the paper's graph; ours |")
    print("|---|---|---|---|")
    for g in graphs:
        print(f"| {g} | `{graph_for('bfs', g)}` | `{graph_for('pr', g)}` | {ALL_GRAPHS[g][2]} |")
    norm = {}
    for w in workloads:
        print(f"\n## {w}: IRU off (plain loads) against on (load_iru), gtx980\n")
        print("| graph | cycles off | cycles on | speedup | contraction kernel: cycles off / on | L1 accesses | "
              "L2 accesses | interconnect bytes | DRAM accesses | requests per warp load in the contraction, off -> on | "
              "requests per irregular access (Figure 14), off -> on | filtered | lines per IRU reply | IRU replies by timeout | elements per contraction cycle, off / on | "
              "in the contraction: L1, L2, interconnect bytes |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for g in graphs:
            off, on = r[(w, g, "frontier")], r[(w, g, "iru")]
            n = {"speedup": off["cycles"] / on["cycles"], "l1": pct(on["l1"], off["l1"]), "l2": pct(on["l2"], off["l2"]),
                 "traffic": pct(on["traffic"], off["traffic"]), "dram": pct(on["dram"], off["dram"]),
                 "filtered": pct(on["merged"], on["elements"]),
                 **{k + "_in": pct(on["inside"][k], off["inside"][k]) for k in ("l1", "l2", "traffic")}}
            norm[(w, g)] = n
            print(f"| {g} | {off['cycles']:,.0f} | {on['cycles']:,.0f} | {n['speedup']:.2f} | "
                  f"{off['contraction']:,.0f} / {on['contraction']:,.0f} | {n['l1']:.0f} % | {n['l2']:.0f} % | "
                  f"{n['traffic']:.0f} % | {n['dram']:.0f} % | {off['requests_per_load']:.2f} -> "
                  f"{on['requests_per_load']:.2f} | {off['requests_per_irregular']:.2f} -> {on['requests_per_irregular']:.2f} | "
                  f"{n['filtered']:.1f} % | {on['lines_per_reply']:.2f} | "
                  f"{pct(on['timeouts'], on['replies']):.0f} % | {on['elements'] / off['contraction']:.1f} / "
                  f"{on['elements'] / on['contraction']:.1f} | "
                  + ", ".join(f"{n[k + '_in']:.0f} %" for k in ("l1", "l2", "traffic")) + " |")
    print("\n## Summary beside the paper [S L243-L275]\n")
    print("| metric | paper | ours |")
    print("|---|---|---|")
    for w in workloads:
        print(f"| speedup, {w} (geometric mean) | {PAPER['speedup'][w]:.2f} | "
              f"{gmean([norm[(w, g)]['speedup'] for g in graphs]):.2f} |")
    everything = list(norm.values())
    print(f"| speedup, all (geometric mean) | {PAPER['speedup']['all']:.2f} | "
          f"{gmean([n['speedup'] for n in everything]):.2f} |")
    mean = lambda key, ns: sum(n[key] for n in ns) / len(ns)
    print(f"| L1 accesses, IRU on / off (mean) | {PAPER['l1']} % | {mean('l1', everything):.0f} % |")
    print(f"| L2 accesses, IRU on / off (mean) | {PAPER['l2']} % | {mean('l2', everything):.0f} % |")
    print(f"| interconnect traffic, on / off (mean) | {PAPER['traffic']} % | {mean('traffic', everything):.0f} % |")
    print(f"| DRAM accesses, on / off (mean) | 96 % | {mean('dram', everything):.0f} % |")
    print(f"| the same inside the contraction kernels: L1, L2, interconnect (mean) | — | "
          f"{mean('l1_in', everything):.0f} %, {mean('l2_in', everything):.0f} %, {mean('traffic_in', everything):.0f} % |")
    # The energy model (docs/power.md): the whole run's energy, IRU on / off, and the IRU's own share.
    energy = {w: gmean([r[(w, g, "iru")]["energy"] / r[(w, g, "frontier")]["energy"] for g in graphs]) for w in workloads}
    for w in workloads:
        print(f"| energy, {w}, on / off (geometric mean) | {PAPER['energy'][w]:.2f} | {energy[w]:.2f} |")
    print(f"| energy, all, on / off (geometric mean) | {PAPER['energy']['all']:.2f} | "
          f"{gmean([r[(w, g, 'iru')]['energy'] / r[(w, g, 'frontier')]['energy'] for w in workloads for g in graphs]):.2f} |")
    own = [pct(r[(w, g, "iru")]["energy_units"], r[(w, g, "iru")]["energy"]) for w in workloads for g in graphs]
    print(f"| the IRU's own energy, share of the GPU's (mean) | {PAPER['own']} % | {sum(own) / len(own):.3f} % |")
    rpl = lambda v, key: sum(r[(w, g, v)][key] for w in workloads for g in graphs) / len(everything)
    print(f"| requests per irregular access (Figure 14: line requests per warp load or atomic indexed by the frontier's "
          f"element), off -> on (mean) | {PAPER['requests']} | {rpl('frontier', 'requests_per_irregular'):.2f} -> "
          f"{rpl('iru', 'requests_per_irregular'):.2f} |")
    print(f"| requests per warp load in the contraction, off -> on (mean) | — | {rpl('frontier', 'requests_per_load'):.2f} -> "
          f"{rpl('iru', 'requests_per_load'):.2f} |")
    print(f"| requests per warp load or atomic, whole run, off -> on (mean) | — | "
          f"{rpl('frontier', 'requests_per_load_all'):.2f} -> {rpl('iru', 'requests_per_load_all'):.2f} |")
    for w in ("sssp", "pr"):
        if w in workloads:
            print(f"| elements filtered, {w} (mean) | {PAPER['filtered'][w]} % | "
                  f"{mean('filtered', [norm[(w, g)] for g in graphs]):.1f} % |")
    return r, norm


def sensitivity(pool, irrgpu, workloads, on, tmp):
    workloads = [w for w in workloads if w in SENSITIVITY_WORKLOADS]
    graph = graph_for("bfs", on)
    cases = [(w, key, v) for w in workloads for key, values in SENSITIVITY for v in values]
    jobs = {c: submit(pool, irrgpu, c[0], "iru", graph, (f"{c[1]}={c[2]}",), tmp) for c in cases}
    plain = {w: submit(pool, irrgpu, w, "frontier", graph, (), tmp) for w in workloads}
    print(f"\n## Sensitivity on {on} (`{graph}`): one key changed from the defaults\n")
    print("| workload | key = value | cycles | speedup over IRU off | contraction kernel cycles | L1 accesses, on / off "
          "| lines per reply | replies by timeout | prefetch latency (L2 cycles) | insertions waiting on a full entry "
          "(cycles) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    rows = []
    for w, key, v in cases:
        r, off = jobs[(w, key, v)].result(), plain[w].result()
        rows.append((w, key, v, off["cycles"] / r["cycles"]))
        print(f"| {w} | {key} = {v} | {r['cycles']:,.0f} | {off['cycles'] / r['cycles']:.2f} | {r['contraction']:,.0f} | "
              f"{pct(r['l1'], off['l1']):.0f} % | {r['lines_per_reply']:.2f} | {pct(r['timeouts'], r['replies']):.0f} % | "
              f"{r['prefetch_latency']:.0f} | {r['full_stalls']:,.0f} |")
    return rows


def atomics(pool, irrgpu, workloads, on, tmp):
    """IRU off and on with each atomic.coalescing, on the sensitivity graph: GPGPU-Sim sends a warp's
    atomics as one request per line [S L251]; ours by default one per thread."""
    workloads = [w for w in workloads if w in ATOMIC_WORKLOADS]
    cases = [(w, v, mode) for w in workloads for mode in ("thread", "line") for v in ("frontier", "iru")]
    jobs = {c: submit(pool, irrgpu, c[0], c[1], graph_for(c[0], on), (f"atomic.coalescing={c[2]}",), tmp)
            for c in cases}
    print(f"\n## Atomics coalesced by thread (ours) and by line (GPGPU-Sim), on {on}\n")
    print("| workload | atomic.coalescing | cycles off | cycles on | speedup | contraction kernel: cycles off / on | "
          "L2 accesses, on / off | interconnect bytes, on / off | requests per warp load in the contraction, off -> on | "
          "requests per irregular access, off -> on |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for w in workloads:
        for mode in ("thread", "line"):
            off, on = jobs[(w, "frontier", mode)].result(), jobs[(w, "iru", mode)].result()
            print(f"| {w} | {mode} | {off['cycles']:,.0f} | {on['cycles']:,.0f} | {off['cycles'] / on['cycles']:.2f} | "
                  f"{off['contraction']:,.0f} / {on['contraction']:,.0f} | {pct(on['l2'], off['l2']):.0f} % | "
                  f"{pct(on['traffic'], off['traffic']):.0f} % | {off['requests_per_load']:.2f} -> "
                  f"{on['requests_per_load']:.2f} | {off['requests_per_irregular']:.2f} -> {on['requests_per_irregular']:.2f} |")


def timeouts(pool, irrgpu, graphs, workloads, tmp):
    """The IRU's speedup over IRU off with each entry timeout, every algorithm on every input:
    geometric means per algorithm and over all, the elements filtered and replies by timeout."""
    on = {(w, g, t): submit(pool, irrgpu, w, "iru", graph_for(w, g), (f"iru.timeout={t}",), tmp)
          for w in workloads for g in graphs for t in TIMEOUTS}
    off = {(w, g): submit(pool, irrgpu, w, "frontier", graph_for(w, g), (), tmp) for w in workloads for g in graphs}
    speedup = {k: off[k[:2]].result()["cycles"] / f.result()["cycles"] for k, f in on.items()}
    print("\n## The entry timeout on every input (IRU on over off, geometric means)\n")
    print("| iru.timeout (cycles) | " + " | ".join(workloads) + " | all | elements filtered (mean) | replies by timeout (mean) |")
    print("|---|" + "---|" * (len(workloads) + 3))
    for t in TIMEOUTS:
        runs = [on[(w, g, t)].result() for w in workloads for g in graphs]
        filtered = sum(pct(r["merged"], r["elements"]) for r in runs) / len(runs)
        timed_out = sum(pct(r["timeouts"], r["replies"]) for r in runs) / len(runs)
        print(f"| {t:,} | " + " | ".join(f"{gmean([speedup[(w, g, t)] for g in graphs]):.3f}" for w in workloads) +
              f" | {gmean([speedup[(w, g, t)] for w in workloads for g in graphs]):.3f} | {filtered:.1f} % | {timed_out:.0f} % |")
    return speedup


def plot(directory, graphs, workloads, norm, sens, on):
    draw = sim.figures()
    if norm:
        fig, ax = draw.figure(1, 4, size=(15, 3.5))
        for axis, (key, title) in zip(ax, [("speedup", "speedup (Figure 16)"), ("l1", "L1 accesses, % of off (Figure 12)"),
                                           ("l2", "L2 accesses, % of off (Figure 12)"),
                                           ("traffic", "interconnect bytes, % of off (Figure 13)")]):
            draw.grouped_bars(axis, graphs, [(w, [norm[(w, g)][key] for g in graphs]) for w in workloads], "", title,
                              unit_line=1.0 if key == "speedup" else 100.0)
        draw.save(fig, os.path.join(directory, f"iru_study_{'_'.join(workloads)}.png"))
    if sens:
        workloads = list(dict.fromkeys(w for w, *_ in sens))  # those the sensitivity ran
        fig, ax = draw.figure(1, len(SENSITIVITY), size=(14, 3.2), sharey=True)
        for k, (axis, (key, values)) in enumerate(zip(ax, SENSITIVITY)):
            draw.grouped_bars(axis, values, [(w, [s for ww, kk, _, s in sens if ww == w and kk == key]) for w in workloads],
                              "speedup over IRU off" if k == 0 else "", key, unit_line=1.0)
        draw.save(fig, os.path.join(directory, f"iru_sensitivity_{'_'.join(workloads)}_{on}.png"))


def pagerank(pool, irrgpu, graphs, tmp):
    """PageRank on BFS's and SSSP's inputs, 4-8x the vertices of its main-table inputs and nearer
    the paper's Table 3 (22 k to 710 k vertices): IRU off and on."""
    jobs = {(g, v, size): submit(pool, irrgpu, "pr", v, graph_for(size, g), (), tmp)
            for g in graphs for v in ("frontier", "iru") for size in ("bfs", "pr")}  # the larger input, and PageRank's own
    print("\n## PageRank on the BFS and SSSP inputs (IRU off against on)\n")
    print("| graph | input | cycles off | cycles on | speedup | main table's input: speedup | filtered | "
          "replies by timeout | requests per irregular access, off -> on |")
    print("|---|---|---|---|---|---|---|---|---|")
    speedups = []
    for g in graphs:
        off, on = jobs[(g, "frontier", "bfs")].result(), jobs[(g, "iru", "bfs")].result()
        small = jobs[(g, "frontier", "pr")].result()["cycles"] / jobs[(g, "iru", "pr")].result()["cycles"]
        speedups.append(off["cycles"] / on["cycles"])
        print(f"| {g} | `{graph_for('bfs', g)}` | {off['cycles']:,.0f} | {on['cycles']:,.0f} | {speedups[-1]:.2f} | "
              f"{small:.2f} | {pct(on['merged'], on['elements']):.1f} % | {pct(on['timeouts'], on['replies']):.0f} % | "
              f"{off['requests_per_irregular']:.2f} -> {on['requests_per_irregular']:.2f} |")
    print(f"\nGeometric mean: {gmean(speedups):.2f} (the paper's PageRank: {PAPER['speedup']['pr']:.2f})")


def culling(pool, irrgpu, graphs, tmp):
    """SSSP's baseline with a software duplicate filter (warp culling, variant frontier_culled), as the
    paper's baseline filters in software what the IRU filters in hardware [S L268]: the IRU's gain
    over the baseline with and without it, the one parameter changed being the baseline's filter."""
    variants = ("frontier", "frontier_culled", "iru")
    jobs = {(g, v): submit(pool, irrgpu, "sssp", v, graph_for("sssp", g), (), tmp) for g in graphs for v in variants}
    print("\n## SSSP's baseline with a software duplicate filter (warp culling)\n")
    print("| graph | cycles: plain / culled / IRU | culled over plain | IRU over plain | IRU over culled | "
          "compaction cycles: plain / culled / IRU | L2 accesses: culled, IRU (% of plain) | "
          "thread instructions: culled, IRU (% of plain) | elements dropped: by the software filter, by the IRU |")
    print("|---|---|---|---|---|---|---|---|---|")
    over = {"plain": [], "culled": []}
    for g in graphs:
        plain, culled, on = (jobs[(g, v)].result() for v in variants)
        over["plain"].append(plain["cycles"] / on["cycles"])
        over["culled"].append(culled["cycles"] / on["cycles"])
        print(f"| {g} | {plain['cycles']:,.0f} / {culled['cycles']:,.0f} / {on['cycles']:,.0f} | "
              f"{plain['cycles'] / culled['cycles']:.2f} | {over['plain'][-1]:.2f} | {over['culled'][-1]:.2f} | "
              f"{plain['contraction']:,.0f} / {culled['contraction']:,.0f} / {on['contraction']:,.0f} | "
              f"{pct(culled['l2'], plain['l2']):.0f} %, {pct(on['l2'], plain['l2']):.0f} % | "
              f"{pct(culled['thread_instructions'], plain['thread_instructions']):.0f} %, "
              f"{pct(on['thread_instructions'], plain['thread_instructions']):.0f} % | "
              f"{100 - pct(culled['atomic_threads'], plain['atomic_threads']):.1f} %, {pct(on['merged'], on['elements']):.1f} % |")
    energy = {b: gmean([jobs[(g, "iru")].result()["energy"] / jobs[(g, v)].result()["energy"] for g in graphs])
              for b, v in (("plain", "frontier"), ("culled", "frontier_culled"))}
    print(f"\nGeometric mean of the IRU's SSSP speedup: over the plain baseline {gmean(over['plain']):.2f}, over the "
          f"culled baseline {gmean(over['culled']):.2f} (the paper's SSSP: {PAPER['speedup']['sssp']:.2f}); its energy, "
          f"IRU on / off: {energy['plain']:.2f} over the plain baseline, {energy['culled']:.2f} over the culled one "
          f"(the paper's: {PAPER['energy']['sssp']:.2f})")


def fused(pool, irrgpu, graphs, tmp):
    """PageRank with its next frontier built elsewhere than by a kernel over the edge frontier (ours,
    `split`): in the contraction (variants frontier_fused, iru_fused) or by a kernel over every vertex
    (frontier_vertices, iru_vertices). The IRU's gain with each form of the code, the one parameter
    changed being where the frontier is built (IRU off and on alike); then the vertex-order form on the
    pagerank section's larger inputs."""
    forms = {"split": ("frontier", "iru"), "fused": ("frontier_fused", "iru_fused"),
             "vertices": ("frontier_vertices", "iru_vertices")}
    jobs = {(g, v): submit(pool, irrgpu, "pr", v, graph_for("pr", g), (), tmp)
            for g in graphs for pair in forms.values() for v in pair}
    print("\n## PageRank with the next frontier built elsewhere\n")
    print("| graph | form | cycles off / on | speedup | frontier step, share of the run off | "
          "expansion cycles off / on | requests per warp load in the expansion, off -> on | "
          "contraction cycles off / on | filtered |")
    print("|---|---|---|---|---|---|---|---|---|")
    speedup, energy = {f: [] for f in forms}, {f: [] for f in forms}
    step = {"split": ("pr_frontier", "pr_clear"), "fused": (), "vertices": ("pr_frontier_vertices",)}
    for g in graphs:
        for f, (voff, von) in forms.items():
            off, on = jobs[(g, voff)].result(), jobs[(g, von)].result()
            speedup[f].append(off["cycles"] / on["cycles"])
            energy[f].append(on["energy"] / off["energy"])
            rest = sum(off["kernels"].get(k, {}).get("cycles", 0) for k in step[f])
            ex = [r["kernels"].get("pr_expand", {"cycles": 0, "loads": 0, "requests": 0}) for r in (off, on)]  # none when planning
            print(f"| {g} | {f} | {off['cycles']:,.0f} / {on['cycles']:,.0f} | {speedup[f][-1]:.2f} | "
                  f"{pct(rest, off['cycles']):.0f} % | {ex[0]['cycles']:,.0f} / {ex[1]['cycles']:,.0f} | "
                  f"{ex[0]['requests'] / max(ex[0]['loads'], 1):.2f} -> {ex[1]['requests'] / max(ex[1]['loads'], 1):.2f} | "
                  f"{off['contraction']:,.0f} / {on['contraction']:,.0f} | {pct(on['merged'], on['elements']):.1f} % |")
    print("\n| form | the IRU's PageRank speedup (geometric mean) | energy, IRU on / off | baseline cycles over split's |")
    print("|---|---|---|---|")
    print(f"| the paper | {PAPER['speedup']['pr']:.2f} | {PAPER['energy']['pr']:.2f} | — |")
    for f, (voff, _) in forms.items():
        base = gmean([jobs[(g, voff)].result()["cycles"] / jobs[(g, "frontier")].result()["cycles"] for g in graphs])
        print(f"| {f} | {gmean(speedup[f]):.2f} | {gmean(energy[f]):.2f} | {base:.2f} |")
    # The vertex-order form on the pagerank section's larger inputs (BFS's and SSSP's, 4-8x).
    larger = {(g, v): submit(pool, irrgpu, "pr", v, graph_for("bfs", g), (), tmp)
              for g in graphs for v in forms["vertices"]}
    print("\n### In vertex order on the larger inputs (BFS's and SSSP's)\n")
    print("| graph | input | cycles off / on | speedup | main table's input: speedup | contraction cycles off / on | filtered |")
    print("|---|---|---|---|---|---|---|")
    big = []
    for g, small in zip(graphs, speedup["vertices"]):
        off, on = (larger[(g, v)].result() for v in forms["vertices"])
        big.append(off["cycles"] / on["cycles"])
        print(f"| {g} | `{graph_for('bfs', g)}` | {off['cycles']:,.0f} / {on['cycles']:,.0f} | {big[-1]:.2f} | {small:.2f} | "
              f"{off['contraction']:,.0f} / {on['contraction']:,.0f} | {pct(on['merged'], on['elements']):.1f} % |")
    print(f"\nGeometric mean: {gmean(big):.2f} (the main table's inputs: {gmean(speedup['vertices']):.2f}; "
          f"the paper's PageRank: {PAPER['speedup']['pr']:.2f})")


def paper_size(pool, irrgpu, graphs, workloads, tmp):
    """Each algorithm at its nearest form to the paper's (BFS; SSSP over the baseline with the
    software filter; PageRank with its next frontier built over the vertices) on the paper's
    Table 3 graphs at their size, beside the same on the main table's inputs."""
    forms = {w: f for w, f in (("bfs", ("frontier", "iru")), ("sssp", ("frontier_culled", "iru")),
                               ("pr", ("frontier_vertices", "iru_vertices"))) if w in workloads}
    graphs = [g for g in graphs if g in PAPER_SIZE]
    where = {w: [g for g in graphs if (w, g) not in NOT_RUN] for w in forms}  # the graphs each runs on
    jobs = {(w, g, v): submit(pool, irrgpu, w, v, PAPER_SIZE[g][0], (), tmp)
            for w, pair in forms.items() for g in where[w] for v in pair + (("frontier",) if w == "sssp" else ())}
    small = {(w, g, v): submit(pool, irrgpu, w, v, graph_for(w, g), (), tmp)
             for w, pair in forms.items() for g in where[w] for v in pair}
    print("\n## At the paper's sizes (Table 3)\n")
    print("| name | input | vertices (of the paper's) | edges, both ways (of the paper's) |")
    print("|---|---|---|---|")
    for g in graphs:
        w = next((w for w in forms if g in where[w]), None)  # its size from any algorithm's run on it
        if w is None:
            continue
        r = jobs[(w, g, forms[w][0])].result()
        print(f"| {g} | `{PAPER_SIZE[g][0]}` | {r['vertices']:,.0f} ({r['vertices'] / PAPER_SIZE[g][1]:.2f}) | "
              f"{r['edges']:,.0f} ({r['edges'] / PAPER_SIZE[g][2]:.2f}) |")
    print("\n| algorithm (baseline, IRU form) | graph | cycles off / on | speedup | on the main table's input | "
          "L1, L2, interconnect bytes (on / off) | filtered | requests per irregular access, off -> on | "
          "energy, on / off |")
    print("|---|---|---|---|---|---|---|---|---|")
    speedup, before, energy = {w: [] for w in forms}, {w: [] for w in forms}, {w: [] for w in forms}
    for w, (voff, von) in forms.items():
        for g in where[w]:
            off, on = jobs[(w, g, voff)].result(), jobs[(w, g, von)].result()
            speedup[w].append(off["cycles"] / on["cycles"])
            before[w].append(small[(w, g, voff)].result()["cycles"] / small[(w, g, von)].result()["cycles"])
            energy[w].append(on["energy"] / off["energy"])
            print(f"| {w} ({voff}, {von}) | {g} | {off['cycles']:,.0f} / {on['cycles']:,.0f} | {speedup[w][-1]:.2f} | "
                  f"{before[w][-1]:.2f} | " + ", ".join(f"{pct(on[k], off[k]):.0f} %" for k in ("l1", "l2", "traffic")) +
                  f" | {pct(on['merged'], on['elements']):.1f} % | {off['requests_per_irregular']:.2f} -> "
                  f"{on['requests_per_irregular']:.2f} | {energy[w][-1]:.2f} |")
    print("\n| algorithm | the paper | at the paper's sizes | on the main table's inputs | energy, on / off: the paper, "
          "ours |")
    print("|---|---|---|---|---|")
    for w in forms:
        label = w + (f" ({', '.join(where[w])})" if len(where[w]) < len(graphs) else "")
        print(f"| {label} | {PAPER['speedup'][w]:.2f} | {gmean(speedup[w]):.2f} | {gmean(before[w]):.2f} | "
              f"{PAPER['energy'][w]:.2f}, {gmean(energy[w]):.2f} |")
    every = [x for w in forms for x in speedup[w]]
    print(f"| all | {PAPER['speedup']['all']:.2f} | {gmean(every):.2f} | "
          f"{gmean([x for w in forms for x in before[w]]):.2f} | {PAPER['energy']['all']:.2f}, "
          f"{gmean([x for w in forms for x in energy[w]]):.2f} |")
    runs = [(jobs[(w, g, voff)].result(), jobs[(w, g, von)].result()) for w, (voff, von) in forms.items() for g in where[w]]
    mean = lambda f: sum(f(off, on) for off, on in runs) / len(runs)
    print(f"\nMeans over these runs: L1, L2, interconnect bytes on / off " +
          ", ".join(f"{mean(lambda off, on: pct(on[k], off[k])):.0f} %" for k in ("l1", "l2", "traffic")) +
          f" (the paper's {PAPER['l1']} %, {PAPER['l2']} %, {PAPER['traffic']} %); requests per irregular access "
          f"{mean(lambda off, on: off['requests_per_irregular']):.2f} -> {mean(lambda off, on: on['requests_per_irregular']):.2f} "
          f"(the paper's {PAPER['requests']})")
    # grid: and delaunay: number vertices along space (neighbours get near ids); scrambled, no locality.
    meshes = lambda w: [g for g in where[w] if PAPER_SIZE[g][0].startswith(("grid:", "delaunay:"))]
    scramble = lambda w, v, g: submit(pool, irrgpu, w, v, PAPER_SIZE[g][0] + ",scramble=1", (), tmp)
    if "bfs" in forms:
        # gtx980's L2 slices index their sets by their own addresses, as GPGPU-Sim's (l2.set_index
        # local, since 2026-12-07); by the line address (global) 4 partitions reach a quarter of the sets.
        quarter = {(g, v): submit(pool, irrgpu, "bfs", v, PAPER_SIZE[g][0], ("l2.set_index=global",), tmp)
                   for g in where["bfs"] for v in forms["bfs"]}
        ratio = [quarter[(g, "frontier")].result()["cycles"] / quarter[(g, "iru")].result()["cycles"] for g in where["bfs"]]
        print("\nBFS with the L2 sets indexed by the line address (l2.set_index global, a quarter of them reachable, "
              "the one parameter changed): " + ", ".join(f"{g} {x:.2f}" for g, x in zip(where["bfs"], ratio)) +
              f"; geometric mean {gmean(ratio):.2f} (with every set reachable {gmean(speedup['bfs']):.2f})")
        spatial = meshes("bfs")
        scrambled = {(g, v): scramble("bfs", v, g) for g in spatial for v in forms["bfs"]}
        print("\nBFS with the mesh's vertices numbered in a random order (scramble=1, the one parameter changed): " +
              "; ".join(f"{g} {scrambled[(g, 'frontier')].result()['cycles'] / scrambled[(g, 'iru')].result()['cycles']:.2f} "
                        f"(numbered along space {jobs[('bfs', g, 'frontier')].result()['cycles'] / jobs[('bfs', g, 'iru')].result()['cycles']:.2f}; "
                        f"the baseline's cycles x{scrambled[(g, 'frontier')].result()['cycles'] / jobs[('bfs', g, 'frontier')].result()['cycles']:.2f})"
                        for g in spatial))
    if "pr" in forms:
        # PageRank on the meshes, where it loses, with the vertices numbered in a random order.
        voff, von = forms["pr"]
        for g in meshes("pr"):
            mixed = {v: scramble("pr", v, g) for v in (voff, von)}
            off, on = jobs[("pr", g, voff)].result(), jobs[("pr", g, von)].result()
            moff, mon = mixed[voff].result(), mixed[von].result()
            print(f"\nPageRank on {g} with its vertices numbered in a random order (scramble=1, the one parameter "
                  f"changed): {moff['cycles'] / mon['cycles']:.2f} (numbered along space {off['cycles'] / on['cycles']:.2f}; "
                  f"the baseline's cycles x{moff['cycles'] / off['cycles']:.2f}, the IRU's x{mon['cycles'] / on['cycles']:.2f}; "
                  f"requests per irregular access, off -> on, {moff['requests_per_irregular']:.2f} -> "
                  f"{mon['requests_per_irregular']:.2f})")
    # One parameter of the IRU on the meshes, where PageRank loses: the entry timeout at 1,000 cycles
    # (10,000 was chosen on the main table's inputs; the paper gives none), and on delaunay four
    # times the prefetcher's reads in flight (8 [S L209]).
    ablations = [(w, g, k) for w, g, k in (("bfs", "ca", "iru.timeout=1000"), ("bfs", "delaunay", "iru.timeout=1000"),
                                           ("pr", "ca", "iru.timeout=1000"), ("pr", "delaunay", "iru.timeout=1000"),
                                           ("pr", "delaunay", "iru.prefetches=32"))
                 if w in forms and g in where[w]]
    ablated = {a: submit(pool, irrgpu, a[0], forms[a[0]][1], PAPER_SIZE[a[1]][0], (a[2],), tmp) for a in ablations}
    if ablated:
        print("\n| algorithm | graph | one parameter changed | speedup (as above) | IRU cycles, of as above | elements merged | "
              "replies by timeout |")
        print("|---|---|---|---|---|---|---|")
        for (w, g, key), r in ablated.items():
            off, on, ab = jobs[(w, g, forms[w][0])].result(), jobs[(w, g, forms[w][1])].result(), r.result()
            print(f"| {w} | {g} | `{key}` | {off['cycles'] / ab['cycles']:.2f} ({off['cycles'] / on['cycles']:.2f}) | "
                  f"{ab['cycles'] / on['cycles']:.3f} | {pct(ab['merged'], ab['elements']):.1f} % "
                  f"({pct(on['merged'], on['elements']):.1f} %) | {pct(ab['timeouts'], ab['replies']):.0f} % "
                  f"({pct(on['timeouts'], on['replies']):.0f} %) |")
    if "sssp" in forms:
        plain = [jobs[("sssp", g, "frontier")].result()["cycles"] / jobs[("sssp", g, "iru")].result()["cycles"]
                 for g in where["sssp"]]
        print(f"\nSSSP over the plain baseline (no software filter) at the paper's sizes: {gmean(plain):.2f}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default="build")
    sim.add_sweep_option(p)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="simulations run at once")
    p.add_argument("--graph", action="append", choices=list(ALL_GRAPHS), help="repeatable (default: all but kron8k)")
    p.add_argument("--workload", action="append", choices=WORKLOADS, help="repeatable (default: all)")
    p.add_argument("--sections", default=",".join(SECTIONS), help="comma-separated: " + ", ".join(SECTIONS))
    p.add_argument("--on", default=SENSITIVITY_GRAPH, choices=list(ALL_GRAPHS),
                   help="the graph of the sensitivity and atomics sections")
    p.add_argument("--plot", default="")
    a = p.parse_args()
    sim.use_sweep(a.from_sweep)
    irrgpu = os.path.join(a.build, "apps", "irrgpu", "irrgpu")
    sections = a.sections.split(",")
    if unknown := [x for x in sections if x not in SECTIONS]:
        p.error(f"--sections: unknown {', '.join(unknown)} ({', '.join(SECTIONS)})")
    if a.plot and importlib.util.find_spec("matplotlib") is None:  # before hours of simulation, not after
        p.error("--plot needs matplotlib: the Debian package python3-matplotlib (make deps), run by /usr/bin/python3")
    graphs, workloads = a.graph or list(GRAPHS), a.workload or WORKLOADS
    norm, sens = {}, []
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        if "study" in sections:
            _, norm = study(pool, irrgpu, graphs, workloads, tmp)
        if "sensitivity" in sections:
            sens = sensitivity(pool, irrgpu, workloads, a.on, tmp)
        if "atomics" in sections:
            atomics(pool, irrgpu, workloads, a.on, tmp)
        if "timeout" in sections:
            timeouts(pool, irrgpu, graphs, workloads, tmp)
        if "pagerank" in sections and "pr" in workloads:
            pagerank(pool, irrgpu, graphs, tmp)
        if "culling" in sections and "sssp" in workloads:
            culling(pool, irrgpu, graphs, tmp)
        if "fused" in sections and "pr" in workloads:
            fused(pool, irrgpu, graphs, tmp)
        if "paper_size" in sections:
            paper_size(pool, irrgpu, graphs, workloads, tmp)
    if a.plot:
        plot(a.plot, graphs, workloads, norm, sens, a.on)


if __name__ == "__main__":
    main()
