#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The DATS study (docs/results/dats.md): Wireframe's five versions — global barriers, CDP, DepLinks,
DATS LRR and DATS LVL — of the six wavefront workloads on the gtx480 preset, at dependency graphs
of 1K, 4K and 9K blocks over one fixed input (the paper keeps its input and cuts it finer: 32x32
tiles of 32, 64x64 of 16, 96x96 of 11 elements, about 1024 x 1024 in all). LRR gets the paper's
LRR buffer (LNA 512, LEA 2K), LVL its LVL buffer (128, 512), both a 64-entry PUB [W L417].

Speedup is the paper's: the whole run (kernels, launch overheads, graph copies) of Global over the
version's [W L425]. Prints markdown tables; --json F keeps every run's figures; --plot DIR writes
PNG charts (matplotlib). Beside the five versions: DepLinks admitted in dependency order
(dats.admission), LRR and LVL with an instant loader (dats.loader: the DGB's timing penalty
[W L454]), the buffer's sizes one at a time on SOR at 9K [W L448-L450], LRR and LVL at 9K with
round-robin warp scheduling (the level range [W L435]), and every version on inputs sized to the
paper's compute : launch ratio (wider tiles, SIZED_TILE).

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
READINGS = ["deplinks_dependency", "lrr_instant", "lvl_instant"]  # beside the five (see the docstring)
SIZES = {"1K": ("32x32", 32), "4K": ("64x64", 16), "9K": ("96x96", 11)}
BUFFER = {"lrr": {"dats.lna_entries": 512, "dats.lea_entries": 2048},  # the paper's [W L417]
          "lvl": {"dats.lna_entries": 128, "dats.lea_entries": 512}}
SETS = {"deplinks": ["gpu.cta_scheduler=dats"],
        **{p: ["gpu.cta_scheduler=dats"] + [f"{k}={v}" for k, v in b.items()] for p, b in BUFFER.items()}}
SETS["deplinks_dependency"] = SETS["deplinks"] + ["dats.admission=dependency"]
SETS["lrr_instant"] = SETS["lrr"] + ["dats.loader=instant"]
SETS["lvl_instant"] = SETS["lvl"] + ["dats.loader=instant"]
# The host launch overhead that gives Global the paper's compute : launch ratio, 8x / 5x / 3x at
# 1K / 4K / 9K [W L440]: Global's kernel cycles (the main tables) over the ratio times its waves
# (63, 127, 191), at 700 MHz; the same values are in experiments/dats.yaml.
PAPER_RATIO = {"1K": 8, "4K": 5, "9K": 3}
PAPER_RATIO_OVERHEAD = {
    "dtw": ["12.80us", "8.82us", "7.75us"],
    "heat2d": ["14.21us", "9.49us", "6.92us"],
    "hist": ["29.45us", "11.61us", "9.78us"],
    "int_img": ["7.51us", "3.48us", "3.08us"],
    "sor": ["14.32us", "9.56us", "7.01us"],
    "sw": ["5.39us", "3.77us", "4.15us"],
}
# Inputs sized to the paper's compute : launch ratio at the preset's 30 us launch overhead (the
# "sized" runs, size "1K sized" etc.): each workload's tile side T, a thread a row, chosen from
# measured Global runs so that its kernels take 8x / 5x / 3x its launches [W L440] (past a warp a
# wave's time grows as T^2: 2T - 1 steps of T threads). int_img's 110 is the most that fits: its
# column sums take 4 T^2 bytes of the SM's 48 KB of shared memory. The same values are in
# experiments/dats.yaml.
SIZED_TILE = {"1K": {"dtw": 75, "heat2d": 65, "hist": 54, "int_img": 110, "sor": 73, "sw": 80},
              "4K": {"dtw": 45, "heat2d": 44, "hist": 34, "int_img": 71, "sor": 41, "sw": 49},
              "9K": {"dtw": 26, "heat2d": 24, "hist": 25, "int_img": 44, "sor": 24, "sw": 30}}
SIZED = " sized"  # the suffix of a sized run's size
SIZED_VARIANTS = ["global", "cdp", "deplinks", "deplinks_dependency", "lrr", "lvl"]
# The paper's inputs [W L421], in cells (K = 1,024 as in its graph sizes; 13 MP bitmaps).
PAPER_CELLS = {"dtw": 12 * 1024 * 8 * 1024, "heat2d": (12 * 1024) ** 2, "hist": 13e6, "int_img": 13e6,
               "sor": 144e6, "sw": (8 * 1024) ** 2}
# CDP's device-side launch latency at 4K (10 us is the preset's; the paper's model gives no figure).
DEVICE_LATENCIES = ["1us", "5us", "10us", "20us", "30us"]
# The buffer's sizes on SOR at 9K, one key at a time from each policy's buffer (experiments/dats.yaml).
SIZING = {"lvl": {"dats.lna_entries": [32, 64, 128, 256, 512], "dats.lea_entries": [128, 256, 512, 1024, 2048],
                  "dats.pub_entries": [16, 32, 64, 128]},
          "lrr": {"dats.lna_entries": [128, 256, 512, 1024, 2048], "dats.lea_entries": [512, 1024, 2048, 4096],
                  "dats.pub_entries": [16, 32, 64, 128]}}
# LVL's level range at 9K [W L435], LRR -> LVL: DTW 7 -> 2, SOR 6 -> 2, the mean 5 -> 2, credited to
# GTO's favouring of older blocks; beside gtx480's GTO, loose round-robin warp scheduling.
PAPER_RANGE = {"dtw": (7, 2), "sor": (6, 2), "mean": (5, 2)}
PAPER = {"cdp": 6.87, "deplinks": 25.07, "lrr": 29.81, "lvl": 31.81}  # % over Global at 4K [W L425]
PAPER_LVL_SIZE = {"1K": 14.11, "4K": 31.81, "9K": 45.07}  # [W L12, L440]


def run(irrgpu, workload, variant, size, tmp, sets=None):
    """One run; `variant` is a version (VARIANTS, READINGS), or with `sets` (key: value) a version
    and every key it sets (sizing, launch ratio, CDP latency: run_name names it by them)."""
    tiles, tile = shape(workload, size)
    sets = sets or {}
    name = run_name(variant, sets) if sets else variant
    out = os.path.join(tmp, f"{workload}-{name}-{size}".replace(" ", "-"))
    cmd = [irrgpu, "run", "-q", "-c", "gtx480", "--workload", workload, "--variant", variant.split("_")[0],
           "--tiles", tiles, "--tile", str(tile)]
    if sets and variant in BUFFER:  # the buffers need the dependency-aware scheduler
        sets = {"gpu.cta_scheduler": "dats", **sets}
    for s in SETS.get(variant, []) if not sets else [f"{k}={v}" for k, v in sets.items()]:
        cmd += ["-s", s]
    stats = simulate(cmd, out)["stats"]
    value = lambda k: stats[k]["value"] if k in stats else 0
    return {"workload": workload, "variant": name, "size": size, "ipc": value("gpu.total.thread_instructions") /
            max(1, value("gpu.total.kernel_cycles")),
            "cycles": value("gpu.total.core_cycles"), "kernel_cycles": value("gpu.total.kernel_cycles"),
            "kernels": value("gpu.kernels"), "l2_accesses": value("gpu.total.l2.accesses") or sum(
                v["value"] for k, v in stats.items() if k.endswith(".l2.accesses") and ".total." not in k),
            "dgb_requests": value("gpu.front_end.requests"), "level_range": value("gpu.dats.level_range_high_water"),
            "pub_high": value("gpu.dats.pub_high_water"), "load_wait": value("gpu.dats.load_wait_cycles"),
            "blocked": value("gpu.dats.blocked_completions"), "nib_parks": value("gpu.dats.nib_parks")}


def shape(workload, size):
    """The tile grid and the tile side of a size: the fixed input's, or a sized run's."""
    if size.endswith(SIZED):
        return SIZES[size[:-len(SIZED)]][0], SIZED_TILE[size[:-len(SIZED)]][workload]
    return SIZES[size]


def may_stop(fn, *args):
    """A sizing run, which a buffer too small for the graph can stop (the run fails naming why):
    kept as stopped, for the table."""
    try:
        return fn(*args)
    except SystemExit as e:
        workload, variant, size, tmp, sets = args[1:]
        return {"workload": workload, "variant": run_name(variant, sets), "size": size, "stopped": str(e)}


def sized(policy, key, value):
    """The sets of a sizing run: the policy's buffer with `key` at `value` (the PUB's 64 is the default)."""
    sets = {**BUFFER[policy], key: value}
    return {k: v for k, v in sets.items() if (k, v) != ("dats.pub_entries", 64)}


def overhead(workload, size):
    return PAPER_RATIO_OVERHEAD[workload][list(SIZES).index(size)]


def gain(base, run):
    """Speedup of `run` over `base` (runs.json records), in per cent."""
    return 100.0 * (base["cycles"] / run["cycles"] - 1)


def version_sets(variant):
    """The keys a version sets (SETS), as a dict."""
    return dict(x.split("=") for x in SETS.get(variant, []))


def launch_cycles(run, overhead_us):
    """A run's launches at `overhead_us` each, in cycles of gtx480's 700 MHz clock."""
    return run["kernels"] * overhead_us * 700


def ratio_sets(variant, workload, size):
    """A run at the paper's compute : launch ratio: the version's sets and the launch overhead."""
    return {**version_sets(variant), "host.launch_overhead": overhead(workload, size)}


def wide_lvl(workload):
    """LVL at 9K and the paper's ratio with an LNA of 256 (the 96-wide graph's levels)."""
    return {**ratio_sets("lvl", workload, "9K"), "dats.lna_entries": "256"}


def no_copies(variant, workload):
    """At 4K and the paper's ratio, the host copies taking no time (a bus a thousand times faster)."""
    return {**ratio_sets(variant, workload, "4K"), "host.copy_bandwidth": "6TB/s"}


def at_paper_ratio(at, sizes, workloads, mean):
    """Global, LRR and LVL with each workload's launch overhead set to give the paper's ratio."""
    ratio = lambda v, w, s: at[(w, run_name(v, ratio_sets(v, w, s)), s)]
    up = lambda v, w, s: gain(ratio("global", w, s), ratio(v, w, s))
    print("\n### At the paper's compute : launch ratio [W L440]\n")
    print("| size | workload | launch overhead | Global: kernels / launches | Global outside kernels | LRR speedup | LVL speedup |")
    print("|---" * 7 + "|")
    for s in sizes:
        for w in workloads:
            g = ratio("global", w, s)
            launch = launch_cycles(g, float(overhead(w, s)[:-2]))
            print(f"| {s} | {w} | {overhead(w, s)} | {g['kernel_cycles'] / launch:.2f} | "
                  f"{100 * (1 - g['kernel_cycles'] / g['cycles']):.1f} % | {up('lrr', w, s):.2f} % | {up('lvl', w, s):.2f} % |")
        print(f"| {s} | **mean** (paper: LVL {PAPER_LVL_SIZE[s]:.2f} %) | | {PAPER_RATIO[s]} (the paper's) | | "
              f"**{mean([up('lrr', w, s) for w in workloads]):.2f} %** | **{mean([up('lvl', w, s) for w in workloads]):.2f} %** |")
    if "4K" in sizes and all((w, run_name(v, no_copies(v, w)), "4K") in at for w in workloads for v in ("global", "lrr", "lvl")):
        copyless = lambda v, w: at[(w, run_name(v, no_copies(v, w)), "4K")]
        free = lambda v, w: gain(copyless("global", w), copyless(v, w))
        outside = [100 * (1 - r["kernel_cycles"] / r["cycles"]) for r in (copyless("global", w) for w in workloads)]
        print(f"\nAt 4K with the host copies taking no time (host.copy_bandwidth 6TB/s): Global outside kernels "
              f"{min(outside):.1f}-{max(outside):.1f} %; LRR " + ", ".join(f"{w} {free('lrr', w):.2f} %" for w in workloads) +
              f", mean **{mean([free('lrr', w) for w in workloads]):.2f} %**; LVL " +
              ", ".join(f"{w} {free('lvl', w):.2f} %" for w in workloads) +
              f", mean **{mean([free('lvl', w) for w in workloads]):.2f} %** (the paper's LRR 29.81 %, LVL 31.81 %)")
    if "9K" in sizes and all((w, run_name("lvl", wide_lvl(w)), "9K") in at for w in workloads):
        wide = [gain(ratio("global", w, "9K"), at[(w, run_name("lvl", wide_lvl(w)), "9K")]) for w in workloads]
        print(f"\nLVL at 9K with an LNA of 256 at the same ratio: " + ", ".join(f"{w} {g:.2f} %" for w, g in zip(workloads, wide)) +
              f"; mean **{mean(wide):.2f} %** (the paper's LVL {PAPER_LVL_SIZE['9K']:.2f} %, with 128)")


def cdp_name(latency):  # the preset's 10 us is the main tables' cdp run
    return "cdp" if latency == "10us" else run_name("cdp", {"host.device_launch_latency": latency})


def device_latency(at, workloads, speedup, mean):
    """CDP at 4K against its device-side launch latency (the preset's 10 us is irrgpu's choice)."""
    print("\n### CDP against its device-side launch latency, 4K\n")
    print("| workload | " + " | ".join(f"{t}" + (" (ours)" if t == "10us" else "") for t in DEVICE_LATENCIES) + " |")
    print("|---" * (len(DEVICE_LATENCIES) + 1) + "|")
    for w in workloads:
        print(f"| {w} | " + " | ".join(f"{speedup(w, cdp_name(t), '4K'):.2f} %" for t in DEVICE_LATENCIES) + " |")
    print("| **mean** | " + " | ".join(f"**{mean([speedup(w, cdp_name(t), '4K') for w in workloads]):.2f} %**"
                                   for t in DEVICE_LATENCIES) + " |")


def run_name(policy, sets):
    """A run's name in the tables: the version, or the policy and the sizes that differ."""
    if sets == BUFFER.get(policy, {}):
        return policy
    return policy + "".join(f" {k.split('.')[1]}={v}" for k, v in sorted(sets.items()))


def readings(at, sizes, workloads, speedup, mean):
    """DepLinks' two admission orders, and the loader's cost: each buffer's run over its run with
    an instant loader, beside load_wait_cycles (the upper bound measured before)."""
    penalty = lambda w, v, s: 100.0 * (at[(w, v, s)]["cycles"] / at[(w, v + "_instant", s)]["cycles"] - 1)
    bound = lambda w, v, s: 100.0 * at[(w, v, s)]["load_wait"] / at[(w, v, s)]["cycles"]
    print("\n### DepLinks' two readings and the loader's cost [W L413, L454]\n")
    print("| size | workload | deplinks speedup, launch order | deplinks speedup, dependency order | "
          "LRR: run over instant loader | LRR: load_wait bound | LVL: run over instant loader | LVL: load_wait bound |")
    print("|---" * 8 + "|")
    for s in sizes:
        for w in workloads + ["**mean**"]:
            f = (lambda fn, v: mean([fn(x, v, s) for x in workloads])) if w.startswith("*") else (lambda fn, v: fn(w, v, s))
            print(f"| {s} | {w} | {f(speedup, 'deplinks'):.2f} % | {f(speedup, 'deplinks_dependency'):.2f} % | "
                  f"{f(penalty, 'lrr'):+.2f} % | {f(bound, 'lrr'):.2f} % | {f(penalty, 'lvl'):+.2f} % | {f(bound, 'lvl'):.2f} % |")


def sized_inputs(at, sizes, workloads, mean):
    """The five versions (DepLinks in both orders) on inputs sized to the paper's compute : launch
    ratio at the preset's launch overhead, beside the paper's gains."""
    paper = {"1K": {"lvl": 14.11}, "4K": {**PAPER, "deplinks_dependency": PAPER["deplinks"]}, "9K": {"lvl": 45.07}}
    print("\n### Inputs sized to the paper's compute : launch ratio [W L421, L440]\n")
    print("| size | workload | tile | matrix (cells) | of the paper's input | Global: kernels / launches | "
          "Global outside kernels | " + " | ".join(f"{v} speedup" for v in SIZED_VARIANTS[1:]) + " |")
    print("|---" * (7 + len(SIZED_VARIANTS) - 1) + "|")
    for s in sizes:
        z = s + SIZED
        up = lambda w, v: gain(at[(w, "global", z)], at[(w, v, z)])
        for w in workloads:
            g, (tiles, tile) = at[(w, "global", z)], shape(w, z)
            tx, ty = (int(x) for x in tiles.split("x"))
            cells = tx * ty * tile * tile
            launches = launch_cycles(g, 30)  # the preset's 30 us
            print(f"| {s} | {w} | {tile} | {tx * tile:,} x {ty * tile:,} | {cells / PAPER_CELLS[w]:.2f} | "
                  f"{g['kernel_cycles'] / launches:.1f} (paper {PAPER_RATIO[s]}) | "
                  f"{100 * (1 - g['kernel_cycles'] / g['cycles']):.1f} % | " +
                  " | ".join(f"{up(w, v):.2f} %" for v in SIZED_VARIANTS[1:]) + " |")
        print(f"| {s} | **mean** | | | | | | " + " | ".join(
            f"**{mean([up(w, v) for w in workloads]):.2f} %**" + (f" (paper {paper[s][v]:.2f} %)" if v in paper[s] else "")
            for v in SIZED_VARIANTS[1:]) + " |")
    if "9K" in sizes and all((w, run_name("lvl", sized_wide()), "9K" + SIZED) in at for w in workloads):
        wide = [gain(at[(w, "global", "9K" + SIZED)], at[(w, run_name("lvl", sized_wide()), "9K" + SIZED)]) for w in workloads]
        print("\nLVL at 9K sized with an LNA of 256: " + ", ".join(f"{w} {x:.2f} %" for w, x in zip(workloads, wide)) +
              f"; mean **{mean(wide):.2f} %** (the paper's LVL 45.07 %, with 128)")
    one = lambda w, v, key: at[(w, run_name(v, sized_1k(v, key)), "1K" + SIZED)]
    if "1K" in sizes and all((w, run_name(v, sized_1k(v, k)), "1K" + SIZED) in at
                             for w in workloads for v in ("global", "lvl") for k in SIZED_1K):
        ups = {k: [gain(one(w, "global", k), one(w, "lvl", k)) for w in workloads] for k in SIZED_1K}
        line = lambda k: ", ".join(f"{w} {x:.2f} %" for w, x in zip(workloads, ups[k])) + \
            f"; mean **{mean(ups[k]):.2f} %** (the paper's LVL 14.11 %)"
        out = [100 * (1 - r["kernel_cycles"] / r["cycles"]) for r in (one(w, "global", "host.copy_bandwidth") for w in workloads)]
        print(f"\nLVL at 1K sized with the host copies taking no time (host.copy_bandwidth 6TB/s): Global outside kernels "
              f"{min(out):.1f}-{max(out):.1f} %; " + line("host.copy_bandwidth"))
        print("\nLVL at 1K sized with each L2 slice indexed by its own address (l2.set_index local, GPGPU-Sim's "
              "partition address): " + line("l2.set_index"))
        print("\nLVL at 1K sized with the L1s keeping their lines across launches (l1.invalidate_at_launch false, "
              "GPGPU-Sim's default): " + line("l1.invalidate_at_launch"))
        print("\nLVL at 1K sized with the L1 taking a line access a cycle from the LD/ST unit (l1.port_accesses 2 "
              "every 2 l1.port_cycles, GPGPU-Sim's one a cycle): " + line("l1.port"))


# The sized 1K runs with one parameter changed: the host copies taking no time (a bus a thousand times
# faster), the L2 indexed as GPGPU-Sim 3 indexes it (gtx480's 131 sets a slice are reached either
# way; the mapping differs), and the L1s keeping their lines across launches as GPGPU-Sim 3's
# GTX480 does (-gpgpu_flush_l1_cache 0): Global starts each level's kernel with cold L1s here; and
# the L1 taking an uncoalesced warp's line accesses one a cycle, as GPGPU-Sim's LD/ST unit does
# (ours one every other cycle by default: docs/results/calibration.md).
SIZED_1K = {"host.copy_bandwidth": {"host.copy_bandwidth": "6TB/s"}, "l2.set_index": {"l2.set_index": "local"},
            "l1.invalidate_at_launch": {"l1.invalidate_at_launch": "false"},
            "l1.port": {"l1.port_accesses": "2", "l1.port_cycles": "2"}}


def sized_1k(variant, name):
    """A sized 1K run of the version with one parameter of SIZED_1K (its keys) changed."""
    return {**version_sets(variant), **SIZED_1K[name]}


def sized_wide():
    """LVL's buffer with an LNA of 256 (the 96-wide graph's levels), for the sized 9K runs."""
    return {**BUFFER["lvl"], "dats.lna_entries": 256}


def sizing(at, speedup):
    """The buffer's sizes one at a time on SOR at 9K, from each policy's buffer [W L448-L450]."""
    print("\n### The buffer's sizes, SOR at 9K [W L448-L450]\n")
    print("| policy | key | value | speedup over Global | IPC (thread instructions a kernel cycle) | "
          "PUB high water | max level range | node-insertion stalls (NIB parks) |")
    print("|---" * 8 + "|")
    for p, keys in SIZING.items():
        for k, values in keys.items():
            for v in values:
                name = run_name(p, sized(p, k, v))
                r = at[("sor", name, "9K")]
                base = " (the paper's)" if name == p else ""
                if "stopped" in r:
                    print(f"| {p.upper()} | {k.split('.')[1]} | {v}{base} | stops | | | | |")
                    continue
                print(f"| {p.upper()} | {k.split('.')[1]} | {v}{base} | {speedup('sor', name, '9K'):.2f} % | "
                      f"{r['ipc']:.1f} | {r['pub_high']:.0f} | {r['level_range']:.0f} | {r['nib_parks']:.0f} |")


def warp_policy(policy):
    """The policy's buffer with loose round-robin warp scheduling."""
    return {**BUFFER[policy], "core.scheduler": "lrr"}


def level_range(at, workloads, speedup, mean):
    """LRR's and LVL's widest level range at 9K under GTO (the preset's) and LRR warp scheduling."""
    print("\n### The level range and the warp scheduler, 9K [W L435]\n")
    print("| workload | LRR: GTO warps | LRR: LRR warps | LVL: GTO warps | LVL: LRR warps | the paper's LRR -> LVL | "
          "LVL speedup over Global, GTO / LRR warps |")
    print("|---" * 7 + "|")
    lrr_warps = {p: run_name(p, warp_policy(p)) for p in BUFFER}
    for w in workloads + ["**mean**"]:
        ws = workloads if w.startswith("*") else [w]
        r = lambda v: mean([at[(x, v, "9K")]["level_range"] for x in ws])
        paper = PAPER_RANGE.get("mean" if w.startswith("*") else w)
        print(f"| {w} | {r('lrr'):.1f} | {r(lrr_warps['lrr']):.1f} | {r('lvl'):.1f} | {r(lrr_warps['lvl']):.1f} | "
              f"{f'{paper[0]} -> {paper[1]}' if paper else ''} | "
              f"{mean([speedup(x, 'lvl', '9K') for x in ws]):.2f} % / {mean([speedup(x, lrr_warps['lvl'], '9K') for x in ws]):.2f} % |")


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
            jobs = [pool.submit(run, irrgpu, w, v, s, tmp) for s in sizes for w in workloads
                    for v in a.variants.split(",") + READINGS]
            jobs += [pool.submit(run, irrgpu, w, v, s, tmp, ratio_sets(v, w, s))
                     for s in sizes for w in workloads for v in ("global", "lrr", "lvl")]
            if "9K" in sizes:
                jobs += [pool.submit(run, irrgpu, w, "lvl", "9K", tmp, wide_lvl(w)) for w in workloads]
                jobs += [pool.submit(run, irrgpu, w, p, "9K", tmp, warp_policy(p)) for w in workloads for p in BUFFER]
            if "4K" in sizes:
                jobs += [pool.submit(run, irrgpu, w, v, "4K", tmp, no_copies(v, w)) for w in workloads
                         for v in ("global", "lrr", "lvl")]
                jobs += [pool.submit(run, irrgpu, w, "cdp", "4K", tmp, {"host.device_launch_latency": t})
                         for w in workloads for t in DEVICE_LATENCIES if t != "10us"]
            jobs += [pool.submit(run, irrgpu, w, v, s + SIZED, tmp) for s in sizes for w in workloads
                     for v in SIZED_VARIANTS]
            if "9K" in sizes:
                jobs += [pool.submit(run, irrgpu, w, "lvl", "9K" + SIZED, tmp, sized_wide()) for w in workloads]
            if "1K" in sizes:
                jobs += [pool.submit(run, irrgpu, w, v, "1K" + SIZED, tmp, sized_1k(v, k)) for w in workloads
                         for v in ("global", "lvl") for k in SIZED_1K]
            if "9K" in sizes and "sor" in workloads:
                jobs += [pool.submit(may_stop, run, irrgpu, "sor", p, "9K", tmp, sized(p, key, v))
                         for p, keys in SIZING.items() for key, values in keys.items() for v in values
                         if sized(p, key, v) != BUFFER[p]]
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
    if all((w, v, s) in at for s in sizes for w in workloads for v in READINGS):
        readings(at, sizes, workloads, speedup, mean)
    if all((w, run_name(v, ratio_sets(v, w, s)), s) in at for s in sizes for w in workloads for v in ("global", "lrr", "lvl")):
        at_paper_ratio(at, sizes, workloads, mean)
    if all((w, v, s + SIZED) in at for s in sizes for w in workloads for v in SIZED_VARIANTS):
        sized_inputs(at, sizes, workloads, mean)
    if "4K" in sizes and all((w, cdp_name(t), "4K") in at for w in workloads for t in DEVICE_LATENCIES):
        device_latency(at, workloads, speedup, mean)
    if "9K" in sizes and all((w, run_name(p, warp_policy(p)), "9K") in at for w in workloads for p in BUFFER):
        level_range(at, workloads, speedup, mean)
    if "9K" in sizes and all(("sor", run_name(p, sized(p, k, v)), "9K") in at
                             for p, keys in SIZING.items() for k, values in keys.items() for v in values):
        sizing(at, speedup)
    if a.plot:
        plot = sim.figures()
        for s in sizes:
            fig, (ax,) = plot.figure(size=(8, 3.5))
            plot.grouped_bars(ax, workloads, [(v, [speedup(w, v, s) for w in workloads]) for v in VARIANTS[1:]],
                              "speedup over Global (%)", f"DATS study, {s}-block dependency graphs (gtx480)", unit_line=0.0)
            plot.save(fig, os.path.join(a.plot, f"dats_speedup_{s}.png"))


if __name__ == "__main__":
    main()
