#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Lock delegation against global spin locks (seed 001 chapter 4; docs/results/delegate.md): HT
(65,536 inserts: more than the GPU holds threads at once), ATM (16,384 transfers, two nested
locks) and SGD (16,384 ratings, two nested locks) at collision factors from the dissertation's to
none, global and delegated, timed on the gtx480 preset; HT's delegated version against the number
of server blocks; MST (one lock a component) on three graph classes, with Table 4.2's hand-off; MF
(push-relabel, two locks a push) on three meshes. For
each run: kernel cycles, speedup, atomic operations and serialisation stalls at the L2 partitions,
L2 accesses, SM cycles with no CTA. Then SSSP (chapter 5): ADDS against near-far (NF-OPT, one
launch; and a launch a step), the LonestarGPU-style data-driven worklist and the frontier SSSP on
the chapter's four graph classes: cycles, speedups, vertices processed, warp instructions. Prints
markdown tables.

Usage: experiments/delegate_study.py [--build build] [--jobs N] [--from-sweep DIR]
"""
import argparse
import math
import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import simulate as sim
from simulate import simulate

COLLISIONS = [256, 1024, 32768, 131072]
ATM_COLLISIONS = [1024, 4096, 32768, 131072]  # global at 1,024: tens of millions of cycles, not run
SGD_MOVIES = [256, 1024, 4096]
SERVERS = [4, 8, 15, 30, 40]
# MST's inputs at 4,096 vertices, as the dissertation's rmat22, USA-road-d.USA and r4-2e23 (§3.5).
MST_GRAPHS = {"rmat": "rmat:scale=12,edge_factor=8", "road": "grid:rows=64,cols=64", "r4": "random:n=4096,m=8192"}
# MF's inputs: Washington-style meshes shaped as the dissertation's 2k x 2k, 4k x 4k, 8k x 4k.
MF_GRAPHS = {"2k x 2k": "mesh:rows=16,cols=16", "4k x 4k": "mesh:rows=32,cols=32", "8k x 4k": "mesh:rows=32,cols=16"}
# Table 4.2's MST rows: hand-off cycles baseline -> delegated, and run time delegated / global.
PAPER_MST = {"rmat": (3601, 490, 0.11), "r4": (3537, 533, 0.13)}
# SSSP on the chapter's graph classes (§4.7), and the variants compared.
GRAPHS = {"road": "grid:rows=128,cols=128", "mesh": "rgg:n=16384,radius=0.03", "social": "rmat:scale=14,edge_factor=8",
          "random": "random:n=16384,m=65536"}
SSSP = ["adds", "adds_spin", "nearfar", "nearfar_host", "data", "frontier"]
# Table 4.2: lock hand-off latency in cycles, baseline and delegated (GTX 1080 Ti).
PAPER_HANDOFF = {256: (2192, 248), 1024: (2679, 863)}
PAPER_ATM_HANDOFF = {256: (24269, 8292), 1024: (18234, 13831)}
# The dissertation's run time of delegated over global locks (Table 4.2, GTX 1080 Ti).
# The presets the lock benchmarks and the SSSPs run on (--config, --sssp-config).
CONFIG = {"locks": "gtx480", "sssp": "gtx480"}
PAPER = {("ht", 256): 0.13, ("ht", 1024): 0.25, ("atm", 256): 0.31, ("atm", 1024): 0.68}


def measure(irrgpu, workload, variant, collisions, servers, tmp):
    out = os.path.join(tmp, f"{workload}_{variant}_{collisions}_{servers}")
    cmd = [irrgpu, "run", "-q", "-c", CONFIG["locks"], "--workload", workload, "--variant", variant, "--collisions", str(collisions)]
    if workload == "ht":
        cmd += ["--scale", "4"]
    if servers != 15:
        cmd += ["--servers", str(servers)]
    j = simulate(cmd, out)
    if sim.planning():
        return None
    s = {k: v["value"] for k, v in j["stats"].items() if "value" in v and not isinstance(v["value"], list)}
    total = lambda suffix: sum(v for k, v in s.items() if k.startswith("gpu.") and ".total." not in k and k.endswith(suffix))
    return {"cycles": s["gpu.total.kernel_cycles"], "atomics": total(".atomic.operations"),
            "serialised": total(".atomic.serialisation_stalls"), "l2": total(".l2.accesses"),
            "idle": s["gpu.total.idle_sm_cycles"], "atomic_stall": s["gpu.total.stall.memory.atomic"]}


def locked_cycles(j, prefix):
    """Kernel cycles of the launches whose kernel starts with `prefix` (the per-launch snapshots)."""
    total, start = 0, 0
    for snap in j["snapshots"]:
        cycles = snap["values"]["gpu.kernel_cycles"]
        if snap["label"].endswith(" start"):
            start = cycles
        elif snap["label"].split(": ", 1)[1].startswith(prefix):
            total += cycles - start
    return total


def measure_graph(irrgpu, workload, variant, graph, handoff, tmp):
    out = os.path.join(tmp, f"{workload}_{variant}_{graph.replace(':', '_').replace(',', '_')}_{handoff}")
    cmd = [irrgpu, "run", "-q", "-c", CONFIG["locks"], "--workload", workload, "--variant", variant, "--graph", graph]
    j = simulate(cmd + (["--handoff=true"] if handoff else []), out)
    if sim.planning():
        return None
    return {"cycles": j["stats"]["gpu.total.kernel_cycles"]["value"], "counters": sim.record(out)["counters"],
            "locked": locked_cycles(j, {"mst": "mst_merge", "mf": "mf_push"}[workload])}


def measure_handoff(irrgpu, workload, variant, collisions, tmp):
    out = os.path.join(tmp, f"handoff_{workload}_{variant}_{collisions}")
    simulate([irrgpu, "run", "-q", "-c", CONFIG["locks"], "--workload", workload, "--variant", variant, "--collisions",
              str(collisions)] + (["--scale", "4"] if workload == "ht" else []) + ["--handoff=true"], out)
    return None if sim.planning() else sim.record(out)["counters"]


def measure_sssp(irrgpu, variant, graph, tmp):
    out = os.path.join(tmp, f"sssp_{variant}_{graph.replace(':', '_').replace(',', '_')}")
    j = simulate([irrgpu, "run", "-q", "-c", CONFIG["sssp"], "--workload", "sssp", "--variant", variant, "--graph", graph], out)
    if sim.planning():
        return None
    counters = sim.record(out).get("counters", {})
    value = lambda name: j["stats"][name]["value"]
    # A run's time: every cycle of the host program (uploads, launch overheads, kernels), and its kernels' alone.
    return {"run": value("gpu.total.core_cycles"), "kernel": value("gpu.total.kernel_cycles"),
            "warp": value("gpu.total.warp_instructions"), "launches": sim.record(out)["kernel_launches"],
            "vertices": counters.get("vertices_processed"), "counters": counters}


def mst_tables(mst):
    print("mst (4,096 vertices): kernel cycles, merges, and Table 4.2's hand-off (instrumented kernels)\n")
    print("| input | graph | global cycles | delegated cycles | speedup | paper | merge kernels' cycles global / delegated "
          "| merge launches global / delegated | merges tried global / delegated | hand-off / section cycles global "
          "| delegated | paper hand-off |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, graph in MST_GRAPHS.items():
        g, d = mst[("global", graph, False)], mst[("delegated", graph, False)]
        paper = PAPER_MST.get(name)
        cells = [f"{g['cycles']:,.0f}", f"{d['cycles']:,.0f}", f"{g['cycles'] / d['cycles']:.2f}x",
                 f"{1 / paper[2]:.1f}x" if paper else "", f"{g['locked']:,.0f} / {d['locked']:,.0f}",
                 f"{g['counters']['merge_launches']} / {d['counters']['merge_launches']}",
                 f"{g['counters']['merges_tried']:,} / {d['counters']['merges_tried']:,}"]
        if ("global", graph, True) in mst:
            hg, hd = mst[("global", graph, True)]["counters"], mst[("delegated", graph, True)]["counters"]
            cells += [f"{hg['handoff_cycles_mean']:,} / {hg['section_cycles_mean']:,}",
                      f"{hd['handoff_cycles_mean']:,} / {hd['section_cycles_mean']:,}",
                      f"{paper[0]:,} -> {paper[1]:,}" if paper else ""]
        else:
            cells += ["", "", ""]
        print(f"| {name} | `{graph}` | " + " | ".join(cells) + " |")
    print()


def mf_table(mf):
    print("mf: kernel cycles, the push kernels' alone, rounds and pushes tried\n")
    print("| input (paper) | graph | global cycles | delegated cycles | speedup | push kernels global / delegated "
          "| speedup | rounds global / delegated | pushes tried global / delegated | flow |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, graph in MF_GRAPHS.items():
        g, d = mf[("global", graph)], mf[("delegated", graph)]
        print(f"| {name} | `{graph}` | {g['cycles']:,.0f} | {d['cycles']:,.0f} | {g['cycles'] / d['cycles']:.2f}x "
              f"| {g['locked']:,.0f} / {d['locked']:,.0f} | {g['locked'] / d['locked']:.2f}x "
              f"| {g['counters']['rounds']} / {d['counters']['rounds']} "
              f"| {g['counters']['pushes_tried']:,} / {d['counters']['pushes_tried']:,} | {g['counters']['flow']:,} |")
    print()


def sssp_tables(results):
    print("sssp: run cycles, the whole program (speedup of adds over each)\n")
    print("| class | graph | " + " | ".join(SSSP) + " |")
    print("|---|---|" + "---|" * len(SSSP))
    speedups = {v: [] for v in SSSP}
    for cls, graph in GRAPHS.items():
        a = results[("adds", graph)]["run"]
        for v in SSSP:
            speedups[v].append(results[(v, graph)]["run"] / a)
        cells = [f"{results[(v, graph)]['run']:,.0f}" + ("" if v == "adds" else f" ({results[(v, graph)]['run'] / a:.2f}x)")
                 for v in SSSP]
        print(f"| {cls} | `{graph}` | " + " | ".join(cells) + " |")
    mean = lambda x: sum(x) / len(x)
    geo = lambda x: math.exp(sum(math.log(v) for v in x) / len(x))
    print("| mean | arithmetic (geometric) | | " + " | ".join(f"{mean(speedups[v]):.2f}x ({geo(speedups[v]):.2f}x)" for v in SSSP[1:]) + " |")
    print("\nsssp: kernel cycles alone, and kernel launches\n")
    print("| class | " + " | ".join(SSSP) + " |")
    print("|---|" + "---|" * len(SSSP))
    for cls, graph in GRAPHS.items():
        print(f"| {cls} | " + " | ".join(f"{results[(v, graph)]['kernel']:,.0f} ({results[(v, graph)]['launches']})" for v in SSSP) + " |")
    print("\nsssp: vertices processed (adds / nearfar), warp instructions, adds's delta\n")
    print("| class | adds vertices | nearfar vertices | ratio | adds warp instr. | adds_spin warp instr. | nearfar warp instr. "
          "| adds delta first / last (changes) | nearfar delta, steps |")
    print("|---|---|---|---|---|---|---|---|---|")
    for cls, graph in GRAPHS.items():
        a, s, n = results[("adds", graph)], results.get(("adds_spin", graph)), results[("nearfar", graph)]
        c, nc = a["counters"], n["counters"]
        spin = f"{s['warp']:,.0f}" if s else "not run"
        print(f"| {cls} | {a['vertices']:,} | {n['vertices']:,} | {a['vertices'] / n['vertices']:.2f} | {a['warp']:,.0f} "
              f"| {spin} | {n['warp']:,.0f} | {c['initial_delta']:,} / {c['final_delta']:,} ({c['delta_changes']}) "
              f"| {nc['delta']:,}, {nc['steps']:,} |")
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--config", default="gtx480", help="preset of the lock benchmarks (chapter 4: gtx1080ti is the paper's)")
    ap.add_argument("--sssp-config", default="gtx480", help="preset of the SSSPs (ADDS: rtx2080ti is the paper's)")
    ap.add_argument("--without", action="append", default=[], choices=SSSP[1:], metavar="VARIANT",
                    help="leave this SSSP variant out (its runs not in the sweep); repeatable")
    sim.add_sweep_option(ap)
    a = ap.parse_args()
    CONFIG.update(locks=a.config, sssp=a.sssp_config)
    for v in a.without:
        SSSP.remove(v)
    sim.use_sweep(a.from_sweep)
    irrgpu = os.path.join(a.build, "apps", "irrgpu", "irrgpu")
    runs = [("ht", v, c, 15) for c in COLLISIONS for v in ("global", "delegated")]
    runs += [("ht", "delegated", c, n) for c in (256, 32768) for n in SERVERS if n != 15]
    runs += [("atm", v, c, 15) for c in ATM_COLLISIONS for v in ("global", "delegated") if (v, c) != ("global", 1024)]
    runs += [("sgd", v, c, 15) for c in SGD_MOVIES for v in ("global", "delegated")]
    msts = [(v, g, h) for g in MST_GRAPHS.values() for v in ("global", "delegated") for h in (False, True)
            if not h or g != MST_GRAPHS["road"]]
    sssp = [(v, g) for g in GRAPHS.values() for v in SSSP]
    handoffs = [("ht", v, c) for c in PAPER_HANDOFF for v in ("global", "delegated")]
    handoffs += [("atm", "delegated", c) for c in PAPER_ATM_HANDOFF] + [("atm", v, 4096) for v in ("global", "delegated")]
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(a.jobs) as pool:
        results = dict(zip(runs, pool.map(lambda r: measure(irrgpu, *r, tmp), runs)))
        results.update(zip(sssp, pool.map(lambda r: measure_sssp(irrgpu, *r, tmp), sssp)))
        handoff = dict(zip(handoffs, pool.map(lambda r: measure_handoff(irrgpu, *r, tmp), handoffs)))
        mst = dict(zip(msts, pool.map(lambda r: measure_graph(irrgpu, "mst", *r, tmp), msts)))
        mfs = [(v, g) for g in MF_GRAPHS.values() for v in ("global", "delegated")]
        mf = dict(zip(mfs, pool.map(lambda r: measure_graph(irrgpu, "mf", *r, False, tmp), mfs)))
    if sim.planning():
        return
    for workload, collisions in (("ht", COLLISIONS), ("atm", ATM_COLLISIONS), ("sgd", SGD_MOVIES)):
        print(f"{workload}:\n")
        print("| collisions | global cycles | delegated cycles | speedup | paper | L2 atomic operations global / delegated "
              "| L2 atomic serialisation stalls global / delegated | L2 accesses global / delegated |")
        print("|---|---|---|---|---|---|---|---|")
        for c in collisions:
            g, d = results.get((workload, "global", c, 15)), results[(workload, "delegated", c, 15)]
            paper = f"{1 / PAPER[(workload, c)]:.1f}x" if (workload, c) in PAPER else ""
            if g is None:
                print(f"| {c} | not run | {d['cycles']:,.0f} | | {paper} | / {d['atomics']:,.0f} | / {d['serialised']:,.0f} "
                      f"| / {d['l2']:,.0f} |")
                continue
            print(f"| {c} | {g['cycles']:,.0f} | {d['cycles']:,.0f} | {g['cycles'] / d['cycles']:.2f}x | {paper} "
                  f"| {g['atomics']:,.0f} / {d['atomics']:,.0f} | {g['serialised']:,.0f} / {d['serialised']:,.0f} "
                  f"| {g['l2']:,.0f} / {d['l2']:,.0f} |")
        print()
    print("ht, server blocks:\n")
    print("| collisions | servers | delegated cycles | speedup over global | SM cycles with no CTA |")
    print("|---|---|---|---|---|")
    for c in (256, 32768):
        for n in SERVERS:
            d = results[("ht", "delegated", c, n)]
            print(f"| {c} | {n} | {d['cycles']:,.0f} | {results[('ht', 'global', c, 15)]['cycles'] / d['cycles']:.2f}x "
                  f"| {d['idle']:,.0f} |")
    print()
    print("ht, lock hand-off latency (Table 4.2; instrumented kernels, 65,536 inserts):\n")
    print("| collisions | global: hand-off / section cycles | delegated: hand-off / section cycles | delegated / global | paper |")
    print("|---|---|---|---|---|")
    for c, (pg, pd) in PAPER_HANDOFF.items():
        g, d = handoff[("ht", "global", c)], handoff[("ht", "delegated", c)]
        print(f"| {c} | {g['handoff_cycles_mean']:,} / {g['section_cycles_mean']:,} | {d['handoff_cycles_mean']:,} / "
              f"{d['section_cycles_mean']:,} | {d['handoff_cycles_mean'] / g['handoff_cycles_mean']:.2f} "
              f"| {pg:,} -> {pd:,} ({pd / pg:.2f}) |")
    print()
    print("atm, lock hand-off latency (Table 4.2; instrumented kernels, 16,384 transfers, both locks' hand-offs):\n")
    print("| accounts | global: hand-off / section cycles | delegated: hand-off / section cycles | paper baseline -> ours |")
    print("|---|---|---|---|")
    for c in (256, 1024, 4096):
        g, d = handoff.get(("atm", "global", c)), handoff[("atm", "delegated", c)]
        paper = PAPER_ATM_HANDOFF.get(c)
        print(f"| {c} | " + (f"{g['handoff_cycles_mean']:,} / {g['section_cycles_mean']:,}" if g else "does not finish")
              + f" | {d['handoff_cycles_mean']:,} / {d['section_cycles_mean']:,} | "
              + (f"{paper[0]:,} -> {paper[1]:,}" if paper else "") + " |")
    print()
    mst_tables(mst)
    mf_table(mf)
    sssp_tables(results)


if __name__ == "__main__":
    sys.exit(main())
