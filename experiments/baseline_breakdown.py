#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Where the baseline GPU's cycles go on graph kernels (docs/results/calibration.md, "Graph-kernel
time"): bfs/data, bfs/topology and sssp/data on R-MAT graphs of scale 10-16 and road-like grids,
on the calibrated gtx480 preset. For each run: kernel cycles and thread IPC inside kernels, then
every SM-scheduler cycle inside kernels in one class — issue, idle SM (no CTA resident), empty,
dependence, memory by the level that answered, structural — and what limits the slowest kernel.
Prints markdown tables.

Usage: experiments/baseline_breakdown.py [--build build] [--graph G ...] [--run W/V ...] [--jobs N]
                                        [--per-sm]
"""
import argparse
import json
import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import simulate as sim
from simulate import simulate

GRAPHS = ["rmat:scale=10", "rmat:scale=12", "rmat:scale=14", "rmat:scale=16", "grid:rows=64,cols=64",
          "grid:rows=128,cols=128"]
RUNS = ["bfs/data", "bfs/topology", "sssp/data"]
CLASSES = ["issue", "idle SM", "empty", "dependence", "memory.l1", "memory.l2", "memory.dram", "memory.atomic",
           "memory.other", "barrier", "structural.ldst", "structural.sfu"]


def measure(irrgpu, run, graph, tmp):
    workload, variant = run.split("/")
    out = os.path.join(tmp, f"{workload}_{variant}_{graph}".replace(":", "_").replace(",", "_").replace("=", ""))
    j = simulate([irrgpu, "run", "-q", "-c", "gtx480", "--workload", workload, "--variant", variant, "--graph", graph],
                 out)
    if sim.planning():
        return None
    record = sim.record(out)
    stats = {k: v["value"] for k, v in j["stats"].items() if "value" in v and not isinstance(v["value"], list)}
    return analyse(run, graph, stats, j["snapshots"], record)


def analyse(run, graph, s, snapshots, record):
    sms = sum(1 for k in s if k.endswith(".active_cycles") and k.startswith("gpu.sm"))
    total = lambda suffix: sum(v for k, v in s.items() if k.startswith("gpu.") and ".total." not in k and k.endswith(suffix))
    kernel = s["gpu.total.kernel_cycles"]
    schedulers = 2  # gtx480: core.warp_schedulers; one pass per warp instruction (32 lanes)
    slots = sms * schedulers * kernel
    share = {"issue": total(".warp_instructions"), "idle SM": schedulers * s["gpu.total.idle_sm_cycles"]}
    for c in CLASSES[2:]:
        share[c] = total(".stall." + c)
    # The slowest kernel: its length, and how long its busiest SM held a CTA.
    longest = (0, 0, "")
    for begin, end in zip(snapshots[0::2], snapshots[1::2]):
        length = end["values"]["gpu.kernel_cycles"] - begin["values"]["gpu.kernel_cycles"]
        busiest = max(end["values"][f"gpu.sm{i}.active_cycles"] - begin["values"][f"gpu.sm{i}.active_cycles"]
                      for i in range(sms))
        mean = sum(end["values"][f"gpu.sm{i}.active_cycles"] - begin["values"][f"gpu.sm{i}.active_cycles"]
                   for i in range(sms)) / sms
        if length > longest[0]:
            longest = (length, mean / max(1, busiest), end["label"])
    partitions = sum(1 for k in s if k.endswith(".dram.bandwidth_utilisation"))
    return {"run": run, "graph": graph, "launches": record["kernel_launches"], "max_degree": record["max_degree"],
            "kernel_cycles": kernel, "ipc": s["gpu.total.kernel_thread_ipc"],
            "share": {c: 100.0 * share[c] / slots for c in CLASSES},
            "check": 100.0 * sum(share.values()) / slots,
            "longest": longest[0], "longest_share": 100.0 * longest[0] / kernel, "balance": longest[1],
            "dram_util": 100.0 * total(".dram.bandwidth_utilisation") / max(1, partitions),
            "l2_hit": s["gpu.total.l2_hit_rate"], "atomic_serial": total(".atomic.serialisation_stalls"),
            "mshr_fails": total(".l1.reservation_fails.mshr"), "queue_fails": total(".l1.reservation_fails.miss_queue"),
            "per_sm": [per_sm(s, f"gpu.sm{i}.", schedulers * kernel) for i in range(sms)]}


def per_sm(s, sm, slots):
    """One SM's scheduler cycles inside kernels, in % of 2 x kernel cycles."""
    v = lambda n: s.get(sm + n, 0)
    memory = {lvl: v("stall.memory." + lvl) for lvl in ["l1", "l2", "dram", "atomic"]}
    return {"active": 100.0 * 2 * v("active_cycles") / slots, "issue": 100.0 * v("warp_instructions") / slots,
            "memory": {k: 100.0 * x / slots for k, x in memory.items()},
            "empty": 100.0 * v("stall.empty") / slots, "structural": 100.0 * v("stall.structural") / slots,
            "other": 100.0 * (v("stall.dependence") + v("stall.barrier") + v("stall.unit") + v("stall.memory.other")) / slots}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    sim.add_sweep_option(ap)
    ap.add_argument("--graph", action="append", help="graphs (default: R-MAT 10-16 and two grids)")
    ap.add_argument("--run", action="append", help="workload/variant (default: bfs/data bfs/topology sssp/data)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--per-sm", action="store_true", help="also a table per run, one row per SM")
    a = ap.parse_args()
    sim.use_sweep(a.from_sweep)
    irrgpu = os.path.join(a.build, "apps", "irrgpu", "irrgpu")
    if not a.from_sweep and not sim.planning() and not os.access(irrgpu, os.X_OK):
        sys.exit(f"{irrgpu}: not built (cmake --build {a.build})")
    graphs, runs = a.graph or GRAPHS, a.run or RUNS
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(a.jobs) as pool:
        results = [r for r in pool.map(lambda rg: measure(irrgpu, rg[0], rg[1], tmp), [(r, g) for r in runs for g in graphs])
                   if r]

    print("\nTime and IPC inside kernels (gtx480; launch overhead and copies excluded)\n")
    print("| run | graph | largest degree | launches | kernel cycles | thread IPC | longest kernel (share) "
          "| its SMs' mean / busiest active time | DRAM utilisation | L2 hit rate | atomic serialisation (L2 cycles) "
          "| L1 reservation fails: MSHR / miss queue |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['run']} | `{r['graph']}` | {r['max_degree']:,} | {r['launches']} | {r['kernel_cycles']:,.0f} "
              f"| {r['ipc']:.2f} | {r['longest']:,.0f} ({r['longest_share']:.0f} %) | {r['balance']:.2f} "
              f"| {r['dram_util']:.1f} % | {r['l2_hit']:.2f} | {r['atomic_serial']:,.0f} "
              f"| {r['mshr_fails']:,.0f} / {r['queue_fails']:,.0f} |")

    print("\nEvery SM-scheduler cycle inside kernels, by class (% of SMs x 2 schedulers x kernel cycles)\n")
    print("| run | graph | " + " | ".join(CLASSES) + " | sum |")
    print("|---|---|" + "---|" * (len(CLASSES) + 1))
    for r in results:
        print(f"| {r['run']} | `{r['graph']}` | " + " | ".join(f"{r['share'][c]:.1f}" for c in CLASSES) +
              f" | {r['check']:.1f} |")

    for r in results if a.per_sm else []:
        print(f"\n{r['run']} on `{r['graph']}`, per SM (% of 2 schedulers x kernel cycles)\n")
        print("| SM | CTA resident | issue | empty | memory l1 / l2 / dram / atomic | structural | other |")
        print("|---|---|---|---|---|---|---|")
        for i, m in enumerate(r["per_sm"]):
            mem = " / ".join(f"{m['memory'][k]:.1f}" for k in ["l1", "l2", "dram", "atomic"])
            print(f"| {i} | {m['active']:.1f} | {m['issue']:.1f} | {m['empty']:.1f} | {mem} | {m['structural']:.1f} "
                  f"| {m['other']:.1f} |")


if __name__ == "__main__":
    main()
