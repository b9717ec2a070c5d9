#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The DATS study (docs/results/dats.md): Wireframe's five versions — global barriers, CDP, DepLinks,
DATS LRR and DATS LVL — of the six wavefront workloads on the gtx480 preset, at dependency graphs
of 1K, 4K and 9K blocks over one fixed input (the paper keeps its input and cuts it finer: 32x32
tiles of 32, 64x64 of 16, 96x96 of 11 elements, about 1024 x 1024 in all). LRR gets the paper's
LRR buffer (LNA 512, LEA 2K), LVL its LVL buffer (128, 512), both a 64-entry PUB [W L417].

Speedup is the paper's: the whole run (kernels, launch overheads, graph copies) of Global over the
version's [W L425]. Prints markdown tables; --json F keeps every run's figures; --plot DIR writes
PNG charts (matplotlib).

Usage: experiments/dats_study.py [--build build] [--jobs N] [--sizes 1K,4K,9K] [--workloads ...]
                                 [--variants ...] [--merge F | --runs F] [--json F] [--plot DIR]
"""
import argparse
import concurrent.futures
import json
import os
import tempfile

import simulate as sim
from simulate import simulate

WORKLOADS = ["dtw", "heat2d", "hist", "int_img", "sor", "sw"]
VARIANTS = ["global", "cdp", "deplinks", "lrr", "lvl"]
SIZES = {"1K": ("32x32", 32), "4K": ("64x64", 16), "9K": ("96x96", 11)}
SETS = {"deplinks": ["gpu.cta_scheduler=dats"],
        "lrr": ["gpu.cta_scheduler=dats", "dats.lna_entries=512", "dats.lea_entries=2048"],
        "lvl": ["gpu.cta_scheduler=dats", "dats.lna_entries=128", "dats.lea_entries=512"]}
PAPER = {"cdp": 6.87, "deplinks": 25.07, "lrr": 29.81, "lvl": 31.81}  # % over Global at 4K [W L425]
PAPER_LVL_SIZE = {"1K": 14.11, "4K": 31.81, "9K": 45.07}  # [W L12, L440]


def run(irrgpu, workload, variant, size, tmp):
    tiles, tile = SIZES[size]
    out = os.path.join(tmp, f"{workload}-{variant}-{size}")
    cmd = [irrgpu, "run", "-q", "-c", "gtx480", "--workload", workload, "--variant", variant, "--tiles", tiles,
           "--tile", str(tile)]
    for s in SETS.get(variant, []):
        cmd += ["-s", s]
    stats = simulate(cmd, out)["stats"]
    value = lambda k: stats[k]["value"] if k in stats else 0
    return {"workload": workload, "variant": variant, "size": size,
            "cycles": value("gpu.total.core_cycles"), "kernel_cycles": value("gpu.total.kernel_cycles"),
            "kernels": value("gpu.kernels"), "l2_accesses": value("gpu.total.l2.accesses") or sum(
                v["value"] for k, v in stats.items() if k.endswith(".l2.accesses") and ".total." not in k),
            "dgb_requests": value("gpu.front_end.requests"), "level_range": value("gpu.dats.level_range_high_water"),
            "pub_high": value("gpu.dats.pub_high_water"), "load_wait": value("gpu.dats.load_wait_cycles"),
            "blocked": value("gpu.dats.blocked_completions"), "nib_parks": value("gpu.dats.nib_parks")}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    sim.add_sweep_option(ap)
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--sizes", default="1K,4K,9K")
    ap.add_argument("--workloads", default=",".join(WORKLOADS))
    ap.add_argument("--variants", default=",".join(VARIANTS), help="the versions to run (the tables need all five)")
    ap.add_argument("--merge", help="runs kept by an earlier --json; the ones run now replace theirs")
    ap.add_argument("--runs", help="tables and plots from the runs an earlier --json kept, simulating nothing")
    ap.add_argument("--json")
    ap.add_argument("--plot")
    a = ap.parse_args()
    sim.use_sweep(a.from_sweep)
    irrgpu = os.path.join(a.build, "apps", "irrgpu", "irrgpu")
    sizes, workloads = a.sizes.split(","), a.workloads.split(",")
    if a.runs:
        runs = json.load(open(a.runs))
    else:
        with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            jobs = [pool.submit(run, irrgpu, w, v, s, tmp) for s in sizes for w in workloads for v in a.variants.split(",")]
            runs = [j.result() for j in jobs]
    if a.merge:
        now = {(r["workload"], r["variant"], r["size"]) for r in runs}
        runs += [r for r in json.load(open(a.merge)) if (r["workload"], r["variant"], r["size"]) not in now]
    if a.json:
        json.dump(runs, open(a.json, "w"), indent=1)
    at = {(r["workload"], r["variant"], r["size"]): r for r in runs}
    speedup = lambda w, v, s: 100.0 * (at[(w, "global", s)]["cycles"] / at[(w, v, s)]["cycles"] - 1)
    mean = lambda xs: sum(xs) / len(xs)
    for s in sizes:
        print(f"\n### {s} blocks ({SIZES[s][0]} tiles of {SIZES[s][1]} x {SIZES[s][1]})\n")
        print("| workload | Global cycles | of which launch overhead | " + " | ".join(f"{v} speedup" for v in VARIANTS[1:]) +
              " | LRR / LVL max level range | DGB requests / all L2 accesses (LVL) | PUB high water LRR / LVL |")
        print("|---" * 10 + "|")
        for w in workloads:
            g = at[(w, "global", s)]
            lrr, lvl = at[(w, "lrr", s)], at[(w, "lvl", s)]
            print(f"| {w} | {g['cycles']:,.0f} | {100 * (1 - g['kernel_cycles'] / g['cycles']):.1f} % | " +
                  " | ".join(f"{speedup(w, v, s):.2f} %" for v in VARIANTS[1:]) +
                  f" | {lrr['level_range']:.0f} / {lvl['level_range']:.0f} | "
                  f"{100 * lvl['dgb_requests'] / max(1, lvl['l2_accesses']):.3f} % | {lrr['pub_high']:.0f} / {lvl['pub_high']:.0f} |")
        print("| **mean** | | | " + " | ".join(f"**{mean([speedup(w, v, s) for w in workloads]):.2f} %**" for v in VARIANTS[1:]) +
              " | | | |")
    if a.plot:
        plot = sim.figures()
        for s in sizes:
            fig, (ax,) = plot.figure(size=(8, 3.5))
            plot.grouped_bars(ax, workloads, [(v, [speedup(w, v, s) for w in workloads]) for v in VARIANTS[1:]],
                              "speedup over Global (%)", f"DATS study, {s}-block dependency graphs (gtx480)", unit_line=0.0)
            plot.save(fig, os.path.join(a.plot, f"dats_speedup_{s}.png"))


if __name__ == "__main__":
    main()
