#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The DAC study (docs/results/dac.md): the suite kernels (workloads/suite) as written and split by
the DAC pass, on the GTX 480 of the dissertation's Table 3.1 (gtx480 with a 48 KB L1, 16 KB shared
memory and two-level scheduling), at --scale times their unit-test inputs. For each kernel: the
speedup in kernel cycles, warp instructions executed (the deq instructions folded into their users
as the dissertation's ISA has it, and not), the affine warps' share, how many baseline instructions
one affine instruction replaces, the share of global loads decoupled, whether the kernel is
memory-intensive (the dissertation's test: a speedup of 1.5 or more with a perfect memory), and
the events the dissertation's energy comparison rests on. Then the queues' sizes, each
mechanism switched off, one parameter of the machine or the input each from ours to the
dissertation's setup (STEPS), and the baselines. Prints markdown; --plot DIR writes PNG charts (matplotlib).

Usage: experiments/dac_study.py [--build build] [--scale 16] [--kernel K ...] [--plot DIR]
                                [--sections study,sizes,mechanisms,steps,baselines] [--set KEY=VALUE ...]
"""
import argparse
import math
import os
import sys
import tempfile

import simulate as sim
from simulate import simulate

KERNELS = ["vecadd", "saxpy", "stencil", "sgemm", "hotspot", "pathfinder", "srad", "backprop", "blackscholes",
           "histogram", "spmv", "lbm", "convolution"]
# Table 3.1 on the gtx480 preset: 48 KB L1 (so 16 KB shared), two-level scheduling.
TABLE_3_1 = ["l1.size=48KiB", "core.shared_memory=16KiB", "core.scheduler=two_level"]
# MTA as built here [S L740-L742]: intra-warp and inter-thread strides, throttled, into a 16 KB
# prefetch buffer beside the L1 (Table 3.1's "Prefetch Buffer 16KB/SM").
MTA = ["l1.prefetcher=mta", "l1.prefetch_buffer=16KiB"]
# CAE as built here [S L738, L772]: an affine unit beside each scheduler's lanes; on Table 3.1's
# 32 lanes a warp takes one pass, so it is also measured on Fermi's 16-lane groups (two passes).
CAE = ["cae.enabled=true"]
FERMI_LANES = ["core.simd_width=16"]
SIZES = {"dac.atq_entries": [6, 12, 24, 48], "dac.pwaq_entries": [48, 96, 192, 384]}
MECHANISMS = [("prefetch off", ["dac.prefetch=false"]), ("prefetch through the LD/ST unit", ["dac.request_path=ldst"]),
              ("prefetch before demand for MSHRs", ["l1.fetch_priority=fetch"]),
              ("line locks off", ["dac.lock_lines=false"]),
              ("barrier gating off", ["dac.barrier_gating=false"]), ("gating holds the whole ATQ", ["dac.gate_scope=atq"]),
              ("deq an instruction", ["dac.fold_deq=false"]),
              ("PWAQ 2 ports", ["dac.pwaq_ports=2"]),
              ("AEU 2 records a cycle", ["dac.aeu_rate=2"]), ("AEU 4 records a cycle", ["dac.aeu_rate=4"]),
              ("room for the affine warps", ["core.max_warps=56", "core.max_threads=1792", "dac.pwaq_entries=224"])]
# One parameter of the machine or the input each, from ours to what the dissertation's setup has: the
# L1 taking a line access a cycle from the LD/ST unit as GPGPU-Sim's (ours one every other cycle);
# GPGPU-Sim 3.2.2's latencies [S L677] where gtx480 takes measured or GPGPU-Sim 4 figures (3.x: "L1
# and shared latency was 1 cycle constant", Accel-Sim's gpu-simulator/gpgpu-sim4.md; its GTX480
# configuration's ptx_opcode_latency_int/fp 4); and 4x the study's inputs. Each is measured on the
# baseline, DAC and the perfect memory.
STEPS = [("the L1's port as GPGPU-Sim's", ["l1.port_accesses=2", "l1.port_cycles=2"], 1),
         ("L1 hit latency 1 (GPGPU-Sim 3.x)", ["l1.latency=1"], 1),
         ("shared-memory latency 1 (GPGPU-Sim 3.x)", ["core.latency_shared=1"], 1),
         ("ALU latency 4 (GPGPU-Sim 3.x)", ["core.latency_int=4", "core.latency_fp=4"], 1),
         ("4x the inputs", [], 4)]
STALLS = ["memory", "dependence", "unit", "structural.ldst", "empty", "barrier"]
PJ = {"atq": 5.3, "pwaq": 3.4, "pwpq": 1.5}  # Table 3.1's energy per access
ENERGY = ["total", "dynamic", "static", "core.int", "core.fp", "core.sfu", "core.pipeline", "core.register_file", "units"]


def run(irrgpu, kernel, variant, scale, sets, tmp):
    cmd = [irrgpu, "run", "-q", "-c", "gtx480", "--workload", kernel, "--variant", variant, "--scale", str(scale)]
    for s in TABLE_3_1 + sets:
        cmd += ["-s", s]
    stats = simulate(cmd, os.path.join(tmp, "run"))["stats"]

    def total(leaf):  # summed over the SMs
        return sim.sm_total(stats, leaf.lstrip("."))

    r = {"cycles": stats["gpu.total.kernel_cycles"]["value"], "wi": stats["gpu.total.warp_instructions"]["value"],
         "ti": stats["gpu.total.thread_instructions"]["value"], "loads": total(".global_loads"),
         "l1": total(".l1.accesses") + total(".l1.fetches"), "affine": total(".companion_instructions"),
         "rf": total(".energy_events.register_reads") + total(".energy_events.register_writes"),
         "deq": total(".dac.deq_data") + total(".dac.deq_addr") + total(".dac.deq_predicate"),
         "deq_data": total(".dac.deq_data"), "prefetches": total(".dac.prefetches"),
         "lane_records": total(".dac.lane_records"), "records": total(".dac.records"),
         "dac_pj": PJ["atq"] * total(".dac.atq_accesses") + PJ["pwaq"] * total(".dac.pwaq_accesses")
         + PJ["pwpq"] * total(".dac.pwpq_accesses"), "atq_full": total(".dac.atq_full"), "held": total(".dac.held"),
         "held_port": total(".dac.held_port"), "unit_cycles": stats["gpu.total.stall.unit"]["value"],
         "l1_prefetches": total(".l1.prefetches"), "l1_prefetch_useful": total(".l1.prefetch_useful"),
         "cae": total(".cae.affine_instructions"),
         # The energy model (docs/power.md): the components the dissertation's comparison names [S L797-L805].
         "energy": {k: stats[f"energy.{k}"]["value"] for k in ENERGY},
         "expansion_alus": total(".dac.aeu.energy") + total(".dac.peu.energy"),
         "lanes": {k: total(f".energy_events.lanes.{k}") for k in ("int", "fp", "sfu", "other")},
         "stalls": {k: stats[f"gpu.total.stall.{k}"]["value"] for k in STALLS}}
    return r


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else 0.0


def study(irrgpu, kernels, scale, tmp):
    rows = []
    for k in kernels:
        base = run(irrgpu, k, "original", scale, [], tmp)
        perfect = run(irrgpu, k, "original", scale, ["l1.perfect=true"], tmp)
        dac = run(irrgpu, k, "dac", scale, [], tmp)
        folded = dac["wi"] - dac["deq"]
        rows.append({"kernel": k, "base": base, "dac": dac, "memory": base["cycles"] / perfect["cycles"] >= 1.5,
                     "perfect": base["cycles"] / perfect["cycles"], "speedup": base["cycles"] / dac["cycles"],
                     "ratio": folded / base["wi"], "ratio_deq": dac["wi"] / base["wi"],
                     "affine_share": dac["affine"] / folded if folded else 0,
                     "replaces": (base["wi"] - (folded - dac["affine"])) / dac["affine"] if dac["affine"] else 0,
                     "loads": dac["deq_data"] / base["loads"] if base["loads"] else 0})
        print(f"  {k}: {rows[-1]['speedup']:.2f}x", file=sys.stderr)
    print(f"\n### The suite on Table 3.1's GTX 480 (--scale {scale})\n")
    print("| kernel | class (perfect-memory speedup) | baseline cycles | DAC cycles | speedup | warp instructions "
          "(deq folded / not) | affine share of executed | baseline instructions one affine one replaces "
          "| global loads decoupled | lines from the lanes |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        b, d = r["base"], r["dac"]
        lanes = d["lane_records"] / d["records"] if d["records"] else 0
        print(f"| {r['kernel']} | {'memory' if r['memory'] else 'compute'} ({r['perfect']:.2f}) | {b['cycles']:,.0f} | "
              f"{d['cycles']:,.0f} | {r['speedup']:.2f} | {r['ratio']:.2f} / {r['ratio_deq']:.2f} | "
              f"{100 * r['affine_share']:.1f} % | {r['replaces']:.1f} | {100 * r['loads']:.0f} % | {100 * lanes:.0f} % |")
    mem = [r for r in rows if r["memory"]]
    comp = [r for r in rows if not r["memory"]]
    print(f"\nGeomean speedup: all {geomean([r['speedup'] for r in rows]):.2f} ({len(rows)} kernels), "
          f"memory-intensive {geomean([r['speedup'] for r in mem]):.2f} ({len(mem)}), "
          f"compute-intensive {geomean([r['speedup'] for r in comp]):.2f} ({len(comp)}); "
          f"warp instructions {geomean([r['ratio'] for r in rows]):.2f}x (deq folded), "
          f"{geomean([r['ratio_deq'] for r in rows]):.2f}x (deq as instructions); "
          f"global loads decoupled (memory-intensive mean) "
          f"{100 * sum(r['loads'] for r in mem) / max(1, len(mem)):.1f} %.")
    print("\n### The events the energy comparison rests on (DAC / baseline)\n")
    print("| kernel | lane operations (thread instructions + 2 a tuple instruction) | warp instructions (deq folded) "
          "| register-file accesses | L1 accesses and fetch-path lookups | DAC structures' energy (nJ) |")
    print("|---|---|---|---|---|---|")
    lanes = lambda d: d["ti"] + 2 * d["affine"]
    for r in rows:
        b, d = r["base"], r["dac"]
        print(f"| {r['kernel']} | {lanes(d) / b['ti']:.2f} | {r['ratio']:.2f} | {d['rf'] / max(1, b['rf']):.2f} | "
              f"{d['l1'] / max(1, b['l1']):.2f} | {d['dac_pj'] / 1000:.1f} |")
    print(f"\nGeomean: lane operations {geomean([lanes(r['dac']) / r['base']['ti'] for r in rows]):.2f}, "
          f"register-file accesses {geomean([r['dac']['rf'] / max(1, r['base']['rf']) for r in rows]):.2f}, "
          f"L1 accesses and fetch-path lookups {geomean([r['dac']['l1'] / max(1, r['base']['l1']) for r in rows]):.2f}.")
    print("\n### Energy (the energy model, docs/power.md): DAC / baseline\n")
    print("Dissertation [S L797-L805]: total 0.798, dynamic 0.816, static 0.71, ALU 0.66, register file 0.68; "
          "DAC's own overhead 0.96 % of the dynamic energy. ALU here: the lanes' int, fp and sfu operations and "
          "their share of the pipeline energy (core.int + fp + sfu, and core.pipeline by lanes), and the expansion units' ALU "
          "operations (power.unit_alu_pj each); DAC's own: its four arrays and the expansion units' ALUs.\n")
    print("| kernel | total | dynamic | static | ALU | register file | DAC's own, share of dynamic |")
    print("|---|---|---|---|---|---|---|")
    def alu(d):  # the arithmetic lanes' operations and their share of the pipeline energy
        lanes = d["lanes"]
        share = (lanes["int"] + lanes["fp"] + lanes["sfu"]) / max(1, sum(lanes.values()))
        return (sum(d["energy"][k] for k in ("core.int", "core.fp", "core.sfu")) + share * d["energy"]["core.pipeline"] +
                d["expansion_alus"])
    ratios = {k: [] for k in ("total", "dynamic", "static", "alu", "rf", "own")}
    for r in rows:
        b, d = r["base"]["energy"], r["dac"]["energy"]
        x = {"total": d["total"] / b["total"], "dynamic": d["dynamic"] / b["dynamic"], "static": d["static"] / b["static"],
             "alu": alu(r["dac"]) / alu(r["base"]), "rf": d["core.register_file"] / b["core.register_file"],
             "own": d["units"] / d["dynamic"]}
        for k, v in x.items():
            ratios[k].append(v)
        print(f"| {r['kernel']} | {x['total']:.3f} | {x['dynamic']:.3f} | {x['static']:.3f} | {x['alu']:.3f} | "
              f"{x['rf']:.3f} | {100 * x['own']:.3f} % |")
    print(f"| geomean | {geomean(ratios['total']):.3f} | {geomean(ratios['dynamic']):.3f} | {geomean(ratios['static']):.3f} "
          f"| {geomean(ratios['alu']):.3f} | {geomean(ratios['rf']):.3f} | {100 * sum(ratios['own']) / len(rows):.3f} % (mean) |")
    print("\n### Where the scheduler cycles went (stall cycles summed over schedulers, baseline -> DAC)\n")
    print("| kernel | " + " | ".join(STALLS) + " |")
    print("|---|" + "---|" * len(STALLS))
    for r in rows:
        b, d = r["base"], r["dac"]
        print(f"| {r['kernel']} | " + " | ".join(f"{b['stalls'][k]:,.0f} -> {d['stalls'][k]:,.0f}" for k in STALLS) + " |")
    print("\n### The expansion: records made, and cycles the ATQ's head record waited (summed over SMs)\n")
    print("| kernel | address records | waited: partition full | waited: PWAQ port | "
          "affine warps' enq refused (ATQ full) |")
    print("|---|---|---|---|---|")
    for r in rows:
        d = r["dac"]
        print(f"| {r['kernel']} | {d['records']:,.0f} | {d['held'] - d['held_port']:,.0f} | {d['held_port']:,.0f} | "
              f"{d['atq_full']:,.0f} |")
    return rows


def sizes(irrgpu, kernels, scale, tmp, base):
    print(f"\n### Queue sizes (geomean speedup over the baseline, all {len(kernels)} kernels)\n")
    print("| key | smallest | | default | largest |")
    print("|---|---|---|---|---|")
    out = {}
    for key, values in SIZES.items():
        cells = []
        for v in values:
            s = geomean([base[k] / run(irrgpu, k, "dac", scale, [f"{key}={v}"], tmp)["cycles"] for k in kernels])
            cells.append(f"{v}: {s:.3f}")
            out[(key, v)] = s
        print(f"| {key} | " + " | ".join(cells) + " |")
    return out


def mechanisms(irrgpu, kernels, scale, tmp, base, dac):
    print(f"\n### Each mechanism switched off (speedup over the baseline)\n")
    print("| kernel | DAC | " + " | ".join(name for name, _ in MECHANISMS) + " |")
    print("|---|---|" + "---|" * len(MECHANISMS))
    for k in kernels:
        cells = [f"{base[k] / run(irrgpu, k, 'dac', scale, sets, tmp)['cycles']:.2f}" for _, sets in MECHANISMS]
        print(f"| {k} | {base[k] / dac[k]:.2f} | " + " | ".join(cells) + " |")


def steps(irrgpu, rows, scale, tmp):
    """DAC's speedup with one parameter of the machine or the input changed (STEPS), each kernel
    classed by its own perfect-memory speedup on that machine."""
    print("\n### One parameter from ours to the dissertation's setup (speedup over the baseline on the same machine; "
          "perfect-memory speedup in brackets)\n")
    print("| kernel | the study | " + " | ".join(name for name, _, _ in STEPS) + " |")
    print("|---|---|" + "---|" * len(STEPS))
    measured = []
    for name, sets, factor in STEPS:
        out = {}
        for r in rows:
            k = r["kernel"]
            base = run(irrgpu, k, "original", scale * factor, sets, tmp)["cycles"]
            perfect = run(irrgpu, k, "original", scale * factor, sets + ["l1.perfect=true"], tmp)["cycles"]
            out[k] = (base / run(irrgpu, k, "dac", scale * factor, sets, tmp)["cycles"], base / perfect)
        measured.append(out)
    for r in rows:
        cells = [f"{m[r['kernel']][0]:.2f} ({m[r['kernel']][1]:.2f})" for m in measured]
        print(f"| {r['kernel']} | {r['speedup']:.2f} ({r['perfect']:.2f}) | " + " | ".join(cells) + " |")
    def means(pairs):
        mem, comp = [s for s, p in pairs if p >= 1.5], [s for s, p in pairs if p < 1.5]
        return (f"{geomean([s for s, _ in pairs]):.2f}; memory {geomean(mem):.2f} ({len(mem)}), "
                f"compute {geomean(comp):.2f} ({len(comp)})")
    cells = [means([(m[r["kernel"]][0], m[r["kernel"]][1]) for r in rows]) for m in measured]
    print(f"| geomean | {means([(r['speedup'], r['perfect']) for r in rows])} | " + " | ".join(cells) + " |")


def baselines(irrgpu, rows, scale, tmp):
    """The dissertation's comparisons as built (docs/results/dac.md): MTA-style prefetching into a
    16 KB prefetch buffer beside the L1, and CAE's affine units beside the lanes (on Table 3.1's 32
    lanes and on 16-lane groups), on the kernels as written."""
    print("\n### The baselines: MTA-style prefetching (16 KB prefetch buffer) and CAE beside DAC (speedup over the baseline)\n")
    print("| kernel | class | DAC | MTA | MTA's lines prefetched | loaded before they left the buffer | CAE | CAE, 16 lanes "
          "| CAE coverage | DAC coverage |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    mta, mem, comp = [], [], []
    for r in rows:
        m = run(irrgpu, r["kernel"], "original", scale, MTA, tmp)
        c = run(irrgpu, r["kernel"], "original", scale, CAE, tmp)
        b16 = run(irrgpu, r["kernel"], "original", scale, FERMI_LANES, tmp)
        c16 = run(irrgpu, r["kernel"], "original", scale, FERMI_LANES + CAE, tmp)
        mta.append(r["base"]["cycles"] / m["cycles"])
        cae, cae16 = r["base"]["cycles"] / c["cycles"], b16["cycles"] / c16["cycles"]
        # Coverage [S L770]: the baseline's warp instructions the affine units (CAE) or the affine
        # warps (DAC: those that left the non-affine stream, deqs aside) took.
        base_wi, d = r["base"]["wi"], r["dac"]
        cae_cov, dac_cov = c["cae"] / base_wi, 1 - (d["wi"] - d["deq"] - d["affine"]) / base_wi
        (mem if r["memory"] else comp).append((r["speedup"], mta[-1], cae, cae16, cae_cov, dac_cov))
        print(f"| {r['kernel']} | {'memory' if r['memory'] else 'compute'} | {r['speedup']:.2f} | {mta[-1]:.2f} | "
              f"{m['l1_prefetches']:,.0f} | {m['l1_prefetch_useful'] / m['l1_prefetches'] if m['l1_prefetches'] else 0:.0%} | "
              f"{cae:.2f} | {cae16:.2f} | {cae_cov:.1%} | {dac_cov:.1%} |")
    print(f"\nGeomean over the memory-intensive kernels: DAC {geomean([x[0] for x in mem]):.2f}, "
          f"MTA {geomean([x[1] for x in mem]):.2f} (dissertation: 1.44 and 1.16 [S L752]); all: MTA {geomean(mta):.2f}.")
    print(f"Geomean over the compute-intensive kernels: DAC {geomean([x[0] for x in comp]):.2f}, "
          f"CAE {geomean([x[2] for x in comp]):.2f}, CAE on 16-lane groups {geomean([x[3] for x in comp]):.2f} "
          f"(dissertation: 1.34 and 1.15 [S L752]); coverage CAE {geomean([x[4] for x in comp]):.1%}, "
          f"DAC {geomean([x[5] for x in comp]):.1%} (dissertation: 25 % and 34 % [S L770]).")


def plot(rows, directory):
    draw = sim.figures()
    names = [r["kernel"] for r in rows]
    fig, (ax,) = draw.figure(size=(10, 3.5))
    draw.grouped_bars(ax, names, [(None, [r["speedup"] for r in rows])], "speedup over baseline",
                      "DAC on Table 3.1's GTX 480 (blue: memory-intensive, orange: compute-intensive)",
                      hlines=[(1.40, "dissertation geomean 1.40")], unit_line=1.0,
                      colors=["tab:blue" if r["memory"] else "tab:orange" for r in rows])
    draw.save(fig, os.path.join(directory, "dac_speedup.png"))
    fig, (ax,) = draw.figure(size=(10, 3.5))
    draw.grouped_bars(ax, names, [(None, [r["ratio"] for r in rows])], "warp instructions / baseline", "",
                      hlines=[(0.74, "dissertation 0.74")])
    draw.save(fig, os.path.join(directory, "dac_instructions.png"))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default="build")
    sim.add_sweep_option(p)
    p.add_argument("--scale", type=int, default=16)
    p.add_argument("--kernel", action="append", help=f"repeatable (default: all {len(KERNELS)})")
    p.add_argument("--plot", default="")
    p.add_argument("--sections", default="study,sizes,mechanisms,steps,baselines")
    p.add_argument("--set", action="append", default=[], help="KEY=VALUE added to every run (an ablation); repeatable")
    a = p.parse_args()
    TABLE_3_1.extend(a.set)
    sim.use_sweep(a.from_sweep)
    irrgpu = os.path.join(a.build, "apps", "irrgpu", "irrgpu")
    kernels = a.kernel or KERNELS
    sections = a.sections.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        rows = study(irrgpu, kernels, a.scale, tmp)
        base = {r["kernel"]: r["base"]["cycles"] for r in rows}
        dac = {r["kernel"]: r["dac"]["cycles"] for r in rows}
        if "sizes" in sections:
            sizes(irrgpu, kernels, a.scale, tmp, base)
        if "mechanisms" in sections:
            mechanisms(irrgpu, kernels, a.scale, tmp, base, dac)
        if "steps" in sections:
            steps(irrgpu, rows, a.scale, tmp)
        if "baselines" in sections:
            baselines(irrgpu, rows, a.scale, tmp)
        if a.plot:
            plot(rows, a.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
