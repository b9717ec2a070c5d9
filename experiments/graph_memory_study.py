#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The graph-aware memory hierarchy study, part 1 (docs/results/graph-memory.md): the thesis's
kernels (seed 004 Table 4/9: H-BFS, BFS-WC, BFS-DD, H-SSSP, MIS, STCON; CLR on request) on its baseline machine
(configs/graphmem.yaml, Table 3) with each fine-grained fetch policy (sector cache, SPP, LAMAR,
NAP: predictions at the L1, the L2 a sector cache, the thesis's "L1 only" mode), each bypass
scheme at L1 and L2 (MAT, adaptive bypass, OBM) and OBM with a sector cache, at 100.8 GB/s and
144 GB/s (graphmem144), on generated graphs shaped like its inputs (Table 5). Each figure beside
the thesis's: the harmonic mean over kernels and inputs of the speedup in kernel cycles (the
thesis's IPC ratio per invocation), and what the mechanisms did (DRAM bytes read,
sectors fetched and used, fills bypassed). Prints markdown; --plot DIR draws the speedups.

Usage: experiments/graph_memory_study.py [--build build] [--jobs N] [--graph NAME ...] [--kernel K ...]
                                        [--plot DIR] [--from-sweep DIR]
"""
import argparse
import concurrent.futures
import os
import tempfile

import simulate as sim
from simulate import simulate

KERNELS = [("H-BFS", "bfs", "harish"), ("BFS-WC", "bfs", "warp_centric"), ("BFS-DD", "bfs", "data_shared"),
           ("H-SSSP", "sssp", "harish"), ("MIS", "mis", "topology"), ("STCON", "stcon", "harish")]
# CLR (workload color) is not in the study: its runs take minutes each (a round over every vertex
# long after few are left to colour); `--kernel CLR` adds it.
OPTIONAL = [("CLR", "color", "topology")]
# Table 5's inputs at 1/16 of their vertices (65,536 instead of 1 M), degrees kept: the edge
# arrays (1.5-2 MB) are still two to three times the 768 KB L2, as the thesis's (24-32 MB) are
# thirty to forty.
GRAPHS = {"graph1m": ("random:n=65536,m=393216", "Graph1M: 1 M vertices, degree 6, random (Parboil)"),
          "rmat20": ("rmat:scale=16,edge_factor=8", "RMAT20: 1 M vertices, degree 7.9, R-MAT (LonestarGPU)"),
          "r4_2e20": ("random:n=65536,degree=4", "R4_2e20: 1 M vertices, 4 random edges out of each (LonestarGPU)")}
STUDIED = ["graph1m", "rmat20"]  # this script's inputs; graph_memory_kernels.py adds R4_2e20
FINE = {"sector": ["l1.granularity=sector", "l2.granularity=sector"],
        "spp": ["l1.granularity=spp", "l2.granularity=sector"],
        "lamar": ["l1.granularity=lamar", "l2.granularity=sector"],
        "nap": ["l1.granularity=nap", "l2.granularity=sector"]}
BYPASS = {k: [f"l1.bypass={k}", f"l2.bypass={k}"] for k in ("mat", "adaptive", "obm")}
BYPASS["b+c"] = ["l1.bypass=bypass_copyback", "l2.bypass=bypass_copyback"]  # bypass + copyback (the thesis's)
COMBINED = {"obm+sector": BYPASS["obm"] + FINE["sector"]}
MECHANISMS = {"base": [], **FINE, **BYPASS, **COMBINED}
# The same machine with a quarter of the DRAM's width (25.2 GB/s), line against sector fetch:
# where the baseline is bound by DRAM bandwidth, as the thesis's gains from fine-grained fetch need.
NARROW = ["dram.bus_width=1B"]
EXTRA = {"narrow base": NARROW + ["l1.granularity=line", "l2.granularity=line"], "narrow sector": NARROW + FINE["sector"]}
# The thesis's "L1 and L2" mode [G L1284-L1302]: each cache its own predictor.
BOTH = {f"{k} L1+L2": [f"l1.granularity={k}", f"l2.granularity={k}"] for k in ("spp", "lamar", "nap")}
EXTRA.update(BOTH)
EXTRA["b+c L2"] = ["l2.bypass=bypass_copyback"]  # the thesis's "L2 only" bypass mode [G L1150-L1161]
EXTRA["b+c period 8192"] = BYPASS["b+c"] + ["region_tracking.period=8192"]  # its tables' period (not given) 8x ours
# Figure 32's mode [G L1150]: MAT, adaptive bypass and OBM at the L2 only.
L2_ONLY = {f"{k} L2": [f"l2.bypass={k}"] for k in ("mat", "adaptive", "obm")}
EXTRA.update(L2_ONLY)
# The bypass policies' parameters the thesis does not give, one at a time from ours: MAT's counter
# width (ours 8 bits) and adaptive bypass's highest probability (ours 1/2).
MAT_BITS = (4, 3, 2)
ADAPTIVE_MAX = ("0.25", "1")
EXTRA.update({f"mat {b} bits": BYPASS["mat"] + [f"mat.counter_bits={b}"] for b in MAT_BITS})
EXTRA.update({f"adaptive max {p}": BYPASS["adaptive"] + [f"adaptive_bypass.max_probability={p}"] for p in ADAPTIVE_MAX})
# B+C's: its untracked-PC access table (ours 16 counters) and its tables' counter width (ours 16 bits).
BC_UPAT = (64, 256)
EXTRA.update({f"b+c upat {n}": BYPASS["b+c"] + [f"region_tracking.upat_entries={n}"] for n in BC_UPAT})
EXTRA["b+c counters 8 bits"] = BYPASS["b+c"] + ["region_tracking.counter_bits=8"]
AT_144 = ["base", *FINE, "obm", "b+c"]
# Inclusion between L1 and L2 (part 2, graph_memory_inclusion.py).
INCLUSION = {k: [f"l2.inclusion={k}"] for k in ("exclusive", "flexclusion", "region_exclusion")}
# Table 11's set-up [G L935-L943]: the baseline, exclusion and flexclusion with a 1 KB victim
# buffer per L1, for R-EX's storage.
VICTIM = ["l1.victim_cache=1KiB"]
INCLUSION.update({"base+vc": VICTIM, "exclusive+vc": INCLUSION["exclusive"] + VICTIM,
                  "flexclusion+vc": INCLUSION["flexclusion"] + VICTIM})
# Spare-register prefetching's variants (Table 6 [G L581-L587]; spref_study.py), Base-64KB (a
# 64 KB L1, 8-way: Table 3's 6 ways do not divide 512 lines) and the comparison prefetchers [G L589].
SPREF = {"SPREF1": ["spref.enabled=true"], "C-SPREF1": ["spref.enabled=true", "spref.detection=compiler"],
         "SPREF": ["spref.enabled=true", "spref.distance=0"],
         "C-SPREF": ["spref.enabled=true", "spref.detection=compiler", "spref.distance=0"],
         "SPREF1-C": ["spref.enabled=true", "spref.tail=cache"], "Base-64KB": ["l1.size=64KiB", "l1.ways=8"],
         "Stream": ["l1.prefetcher=stream"], "Stride": ["l1.prefetcher=stride"], "GHB": ["l1.prefetcher=ghb"]}
SETTINGS = {**MECHANISMS, **EXTRA, **INCLUSION, **SPREF}  # every mechanism a run may name
SMS, CHANNELS, DRAM_PER_CORE = 16, 6, 1050 / 1200  # graphmem: Table 3's cores, channels and clocks
# The thesis counts invocations of about 1 M warp instructions or more [G L591]; our inputs are 1/16.
MIN_WARP_INSTRUCTIONS = 1_000_000 / 16
# The thesis's averages [G L1278, L1306, L1163, L1212, L1317].
PAPER = {"graphmem": {"sector": 1.39, "spp": 1.39, "lamar": 1.38, "nap": 1.40, "mat": 1.03, "adaptive": 1.04,
                      "obm": 1.14, "b+c": 1.09, "obm+sector": 1.54},
         "graphmem144": {"sector": 1.14, "spp": 1.15, "lamar": 1.14, "nap": 1.17, "obm": 1.12, "b+c": 1.08}}
PAPER_L2_ONLY = {"mat L2": 1.02, "adaptive L2": 1.02, "obm L2": 1.05}  # Figure 32 [G L1150]
PAPER["graphmem"].update(PAPER_L2_ONLY)


def run(irrgpu, config, kernel, graph, mechanism, tmp):
    """One run: kernel is (label, workload, variant[, settings]), graph a key of GRAPHS."""
    workload, variant = kernel[1], kernel[2]
    cmd = [irrgpu, "run", "-q", "-c", config, "--workload", workload, "--variant", variant, "--graph", GRAPHS[graph][0]]
    settings = list(kernel[3]) if len(kernel) > 3 else []  # the kernel's own, before the mechanism's
    for s in settings + SETTINGS[mechanism]:
        cmd += ["-s", s]
    name = f"{config}-{kernel[0]}-{graph}-{mechanism}".replace("+", "_").replace(" ", "_")
    out = simulate(cmd, os.path.join(tmp, name))
    stats = out["stats"]

    def total(suffix):  # over every SM or partition, without the summary formulas
        return sum(v["value"] for k, v in stats.items() if k.endswith(suffix) and ".total." not in k)

    return {"cycles": stats["gpu.kernel_cycles"]["value"], "dram_reads": total(".dram.reads"),
            "dram_busy": total(".dram.bus_busy_cycles"), "mshr_full": total(".l1.reservation_fails.mshr"), "reply_flits": total("interconnect.reply.flits"),
            "l1_hits": total(".l1.hits"), "l1_misses": total(".l1.misses"),
            "filled": total(".sectors_filled"), "used": total(".sectors_used"),
            "sector_misses": total(".sector_misses"), "decisions": total(".decisions"), "bypassed": total(".bypassed"),
            "request_flits": total("interconnect.request.flits"), "l2_misses": total(".l2.misses"), "l2_hits": total(".l2.hits"),
            "row_conflicts": total(".dram.row_conflicts"), "row_hits": total(".dram.row_hits"), "row_misses": total(".dram.row_misses"),
            "fills_bypassed": total(".fills_bypassed") + total(".l2.region_exclusion.bypassed"),
            "victim_hits": total(".l1.victim_hits"), "l1_bypassed": total(".l1.bypass_copyback.bypassed"),
            "l1_decided": total(".l1.bypass_copyback.decisions"), "copyback_hints": total(".copyback_hints"),
            "bypass_hints": total(".bypass_hints"),
            "copybacks": total(".copybacks"), "moved": total(".moved"),
            "spref_moves": total(".spref.moves"), "spref_waited": total(".spref.waited_moves"),
            "spref_heads": total(".spref.head_prefetches"), "spref_tails": total(".spref.tail_prefetches"),
            "spref_lines": total(".spref.lines"), "spref_invocations": total(".spref.invocations"),
            "spref_distance": total(".spref.distance_sum"), "spref_no_registers": total(".spref.no_spare_registers"),
            "loads": total(".global_loads"), "stall_memory": total(".stall.memory"),
            "l1_prefetches": total(".l1.prefetches"), "l1_prefetch_useful": total(".l1.prefetch_useful"),
            "instructions": stats["gpu.total.warp_instructions"]["value"],
            "invocations": invocations(out["snapshots"])}


def invocations(snapshots):
    """Each kernel launch's (name, cycles, warp instructions), from the snapshots at its start and end."""
    out, start = [], None
    for snap in snapshots:
        v = snap["values"]
        wi = v.get("gpu.total.warp_instructions", 0)
        if snap["label"].endswith(" start"):
            start = (v["gpu.kernel_cycles"], wi)
        elif start is not None:
            out.append((snap["label"].split(": ", 1)[1], v["gpu.kernel_cycles"] - start[0], wi - start[1]))
            start = None
    return out


def thesis_speedup(base, mech):
    """The thesis's measure [G L948]: per invocation the IPC ratio (the same launches in the same
    order with every policy), over the invocations of at least MIN_WARP_INSTRUCTIONS. A kernel
    whose launches depend on timing (the unrolled ones stop when a launch lowers nothing, and how
    much one launch does depends on the order its threads run in) has no pairs: then the IPC
    ratio of its invocations of that size together, once."""
    b_inv, m_inv = base["invocations"], mech["invocations"]
    if len(b_inv) != len(m_inv):
        def ipc(inv):
            big = [i for i in inv if i[2] >= MIN_WARP_INSTRUCTIONS]
            return sum(i[2] for i in big) / sum(i[1] for i in big) if big else 0
        return [ipc(m_inv) / ipc(b_inv)] if ipc(b_inv) and ipc(m_inv) else []
    return [(m[2] / m[1]) / (b[2] / b[1]) for b, m in zip(b_inv, m_inv) if b[2] >= MIN_WARP_INSTRUCTIONS]


def kernel_speedup(results, config, kernel, graphs, mechanism):
    """The thesis's speedup of one kernel: the harmonic mean over its invocations on every input."""
    return hmean([x for g in graphs for x in thesis_speedup(results[(config, kernel, g, "base")],
                                                           results[(config, kernel, g, mechanism)])])


def bus_share(r, channels=CHANNELS):
    """The DRAM data buses' busy share of a run's kernel time."""
    return r["dram_busy"] / (r["cycles"] * DRAM_PER_CORE * channels)


def hmean(xs):
    return len(xs) / sum(1 / x for x in xs) if xs else float("nan")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", default="build")
    p.add_argument("--jobs", type=int, default=os.cpu_count())
    p.add_argument("--graph", nargs="*", default=STUDIED, choices=list(GRAPHS))
    p.add_argument("--kernel", nargs="*", default=[k[0] for k in KERNELS], help="of " + ", ".join(
        k[0] for k in KERNELS + OPTIONAL))
    p.add_argument("--plot", default="")
    p.add_argument("--mechanism", nargs="*", default=[], choices=[m for m in MECHANISMS if m != "base"] + list(EXTRA),
                   help="only these (and the baseline): their speedup tables alone")
    sim.add_sweep_option(p)
    a = p.parse_args()
    sim.use_sweep(a.from_sweep)
    irrgpu = os.path.join(a.build, "apps", "irrgpu", "irrgpu")
    kernels = [k for k in KERNELS + OPTIONAL if k[0] in a.kernel]
    chosen = lambda ms: [m for m in ms if not a.mechanism or m == "base" or m in a.mechanism]
    jobs = [(c, k, g, m) for c in ("graphmem", "graphmem144") for k in kernels for g in a.graph
            for m in chosen(list(MECHANISMS) + list(EXTRA) if c == "graphmem" else AT_144)]
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        results = dict(zip(jobs, pool.map(lambda j: run(irrgpu, *j, tmp), jobs)))
    if sim.planning():
        return

    for config, title in (("graphmem", "100.8 GB/s"), ("graphmem144", "144 GB/s")):
        mechs = [m for m in chosen(list(MECHANISMS) + [e for e in EXTRA if e in a.mechanism] if config == "graphmem"
                                   else AT_144) if m != "base"]
        if not mechs:
            continue
        print(f"\n### Speedup over the baseline, {title}\n")
        print("Per kernel: the harmonic mean over its invocations (of 62,500 warp instructions or more) on both "
              "inputs of the IPC ratio; all: the harmonic mean over kernels; whole runs: the harmonic mean over "
              "kernels and inputs of the ratio of all kernel cycles.\n")
        print("| kernel | " + " | ".join(mechs) + " |")
        print("|---" * (len(mechs) + 1) + "|")
        per, whole = {m: [] for m in mechs}, {m: [] for m in mechs}
        for k in kernels:
            cells = []
            for m in mechs:
                per[m].append(kernel_speedup(results, config, k, a.graph, m))
                whole[m] += [results[(config, k, g, "base")]["cycles"] / results[(config, k, g, m)]["cycles"] for g in a.graph]
                cells.append(f"{per[m][-1]:.2f}")
            print(f"| {k[0]} | " + " | ".join(cells) + " |")
        print("| **all (ours)** | " + " | ".join(f"**{hmean(per[m]):.2f}**" for m in mechs) + " |")
        print("| whole runs (ours) | " + " | ".join(f"{hmean(whole[m]):.2f}" for m in mechs) + " |")
        print("| thesis | " + " | ".join(f"{PAPER[config].get(m, float('nan')):.2f}" for m in mechs) + " |")
    steps = [("mat", "MAT, L1 and L2, 8-bit counters (ours)"), *[(f"mat {b} bits", f"MAT, {b}-bit counters")
                                                                   for b in MAT_BITS],
             ("adaptive", "adaptive, L1 and L2, highest probability 1/2 (ours)"),
             *[(f"adaptive max {p}", f"adaptive, highest probability {p}") for p in ADAPTIVE_MAX],
             *[(m, f"{m[:-3]}, the L2 only (thesis {PAPER_L2_ONLY[m]:.2f})") for m in L2_ONLY],
             ("b+c", "B+C, L1 and L2, 16 UPAT counters of 16 bits (ours)"),
             *[(f"b+c upat {n}", f"B+C, {n} UPAT counters") for n in BC_UPAT],
             ("b+c counters 8 bits", "B+C, 8-bit counters")]
    steps = [(m, label) for m, label in steps if not a.mechanism or m in a.mechanism]
    if steps:
        print("\n### Bypass at the L2 only (Figure 32), and the bypass policies' unspecified parameters (100.8 GB/s)\n")
        print("Per kernel as above (the harmonic mean over its invocations on both inputs), the lowest single "
              "invocation's ratio beside it; fills bypassed: of the fills with a victim, L1 and L2 together.\n")
        print("| run | " + " | ".join(k[0] for k in kernels) + " | all | whole runs | fills bypassed | L1 hits |")
        print("|---" * (len(kernels) + 5) + "|")
    for m, label in steps:
        cells, per, whole = [], [], []
        for k in kernels:
            xs = [x for g in a.graph for x in thesis_speedup(results[("graphmem", k, g, "base")],
                                                             results[("graphmem", k, g, m)])]
            per.append(hmean(xs))
            whole += [results[("graphmem", k, g, "base")]["cycles"] / results[("graphmem", k, g, m)]["cycles"]
                      for g in a.graph]
            cells.append(f"{per[-1]:.2f} ({min(xs):.2f})" if xs else "-")
        s = {key: sum(results[("graphmem", k, g, m)][key] for k in kernels for g in a.graph)
             for key in ("decisions", "bypassed", "l1_hits")}
        hits = s["l1_hits"] / sum(results[("graphmem", k, g, "base")]["l1_hits"] for k in kernels for g in a.graph) - 1
        print(f"| {label} | " + " | ".join(cells) + f" | **{hmean(per):.2f}** | {hmean(whole):.2f} | "
              f"{s['bypassed'] / s['decisions']:.0%} | {hits:+.0%} |")

    if a.mechanism:
        return

    print("\n### What the mechanisms did (100.8 GB/s, summed over kernels and inputs)\n")
    print("| mechanism | DRAM reads | DRAM bus busy (cycles) | reply flits | L1 hits | sectors used / fetched | "
          "sector misses | fills bypassed |")
    print("|---|---|---|---|---|---|---|---|")
    for m in MECHANISMS:
        s = {key: sum(results[("graphmem", k, g, m)][key] for k in kernels for g in a.graph)
             for key in ("dram_reads", "dram_busy", "reply_flits", "l1_hits", "filled", "used", "sector_misses", "decisions", "bypassed")}
        used = f"{s['used'] / s['filled']:.0%}" if s["filled"] else "-"
        byp = f"{s['bypassed'] / s['decisions']:.0%} of {s['decisions']:.0f}" if s["decisions"] else "-"
        print(f"| {m} | {s['dram_reads']:.0f} | {s['dram_busy']:.0f} | {s['reply_flits']:.0f} | {s['l1_hits']:.0f} | {used} | "
              f"{s['sector_misses']:.0f} | {byp} |")

    print("\n### The baseline's bottleneck (100.8 GB/s): DRAM data-bus occupancy and L1 MSHR-full cycles in kernel time\n")
    print("| kernel | input | kernel cycles | DRAM bus busy | SM-cycles an access waited for an L1 MSHR |")
    print("|---|---|---|---|---|")
    for k in kernels:
        for g in a.graph:
            r = results[("graphmem", k, g, "base")]
            print(f"| {k[0]} | {g} | {r['cycles']:.0f} | {bus_share(r):.0%} | "
                  f"{r['mshr_full'] / (r['cycles'] * SMS):.0%} |")

    print("\n### Predictions at the L1 only and at both levels (100.8 GB/s)\n")
    print("| predictor | speedup, L1 only | speedup, L1 and L2 | DRAM bus busy, L1 only | L1 and L2 | sectors used / fetched, L1 and L2 |")
    print("|---|---|---|---|---|---|")
    for m in ("spp", "lamar", "nap"):
        one = [results[("graphmem", k, g, m)] for k in kernels for g in a.graph]
        both = [results[("graphmem", k, g, m + " L1+L2")] for k in kernels for g in a.graph]
        speed = [[kernel_speedup(results, "graphmem", k, a.graph, mm) for k in kernels] for mm in (m, m + " L1+L2")]
        print(f"| {m} | {hmean(speed[0]):.2f} | {hmean(speed[1]):.2f} | {sum(r['dram_busy'] for r in one):.0f} | "
              f"{sum(r['dram_busy'] for r in both):.0f} | {sum(r['used'] for r in both) / sum(r['filled'] for r in both):.0%} |")

    print("\n### Bandwidth-bound: the DRAM at 25.2 GB/s (dram.bus_width 1B), line against sector fetch\n")
    print("| kernel | input | DRAM bus busy, line | speedup of sector (IPC ratio, invocations) | whole run |")
    print("|---|---|---|---|---|")
    for k in kernels:
        for g in a.graph:
            b, s = results[("graphmem", k, g, "narrow base")], results[("graphmem", k, g, "narrow sector")]
            print(f"| {k[0]} | {g} | {bus_share(b):.0%} | "
                  f"{hmean(thesis_speedup(b, s)):.2f} | {b['cycles'] / s['cycles']:.2f} |")

    print("\n### Bypass + copyback per kernel and input (100.8 GB/s, whole runs; the L1s' fills with a victim, "
          "summed over the 16)\n")
    print("| kernel | input | b+c | L1 fills bypassed | L1 hits | b+c L2 only | period 8192 | its L1 fills bypassed |")
    print("|---|---|---|---|---|---|---|---|")
    for k in kernels:
        for g in a.graph:
            b, c, l2, slow = (results[("graphmem", k, g, m)] for m in ("base", "b+c", "b+c L2", "b+c period 8192"))
            share = lambda r: f"{r['l1_bypassed'] / r['l1_decided']:.0%}" if r["l1_decided"] else "-"
            print(f"| {k[0]} | {g} | {b['cycles'] / c['cycles']:.2f} | {share(c)} of {c['l1_decided'] / 1e3:,.0f} K | "
                  f"{c['l1_hits'] / b['l1_hits'] - 1:+.0%} | {b['cycles'] / l2['cycles']:.2f} | "
                  f"{b['cycles'] / slow['cycles']:.2f} | {share(slow)} |")

    if a.plot:
        draw = sim.figures()
        os.makedirs(a.plot, exist_ok=True)
        mechs = [m for m in MECHANISMS if m != "base"]
        fig, (ax,) = draw.figure(size=(10, 3.5))
        draw.grouped_bars(ax, [k[0] for k in kernels], [
            (m, [kernel_speedup(results, "graphmem", k, a.graph, m) for k in kernels]) for m in mechs],
            ylabel="speedup over the baseline (100.8 GB/s)", unit_line=1.0)
        draw.save(fig, os.path.join(a.plot, "speedup.png"))


if __name__ == "__main__":
    main()
