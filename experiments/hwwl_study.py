#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The HWWL study (docs/results/hwwl.md): BFS and SSSP on the kim4x16 GPU, the best software
baseline against the hardware worklist with each redistribution scheme, bank sizes, and
interval against on-demand virtualization, on each --graph; then the paper's Figure 8: the share
of hardware threads holding a work ID over time, single- against double-buffered BFS. Prints
markdown tables; --plot DIR writes PNG charts (matplotlib).

Usage: experiments/hwwl_study.py [--build build] [--graph G ...] [--activity-graph G] [--plot DIR]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

SOFTWARE = {"bfs": ["topology", "data", "data_vkc", "data_warp", "data_block", "wl"],
            "sssp": ["topology", "data", "data_vkc", "data_warp", "wl"]}
SCHEMES = ["none", "threshold", "lsorting", "gsorting", "magic"]
BANKS = [8, 16, 32, 64, 4096]  # 4096: "unbounded" (the largest bank the model takes)
GRAPHS = ["grid:rows=128,cols=128", "rmat:scale=12"]
HW_THREADS = 4 * 1536  # kim4x16: 4 cores x 48 warps x 32 threads


def run(irrgpu, workload, variant, graph, sets, tmp, sample_every=0):
    out = os.path.join(tmp, "run")
    cmd = [irrgpu, "run", "-q", "-c", "kim4x16", "--workload", workload, "--variant", variant, "--graph", graph,
           "-o", out]
    for s in sets:
        cmd += ["-s", s]
    if sample_every:
        cmd += ["--sample-every", str(sample_every)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0 or "check: PASS" not in done.stdout:
        sys.exit(f"failed: {' '.join(cmd)}\n{done.stdout}{done.stderr[:4000]}")
    j = json.load(open(os.path.join(out, "stats.json")))
    stats = j["stats"]
    value = lambda k: stats[k]["value"] if k in stats else 0
    r = {"cycles": value("gpu.total.core_cycles"), "warp_instructions": value("gpu.total.warp_instructions"),
         "thread_instructions": value("gpu.total.thread_instructions"),
         "memory_stalls": value("gpu.total.stall.memory"), "wait_pulls": value("hwwl.wait_pulls"),
         "spilled": value("hwwl.hvu.spilled")}
    if sample_every:
        r["series"] = j["samples"]["series"]["hwwl.active_threads"]
    return r


def table(title, rows, best):
    print(f"\n{title}\n")
    print("| configuration | core cycles | speedup over best software | warp instructions | memory stalls | WAIT pulls "
          "| IDs spilled |")
    print("|---|---|---|---|---|---|---|")
    for name, r in rows:
        print(f"| {name} | {r['cycles']:,.0f} | {best / r['cycles']:.2f} | {r['warp_instructions']:,.0f} | "
              f"{r['memory_stalls']:,.0f} | {r['wait_pulls']:,.0f} | {r['spilled']:,.0f} |")


def study(irrgpu, w, graph, tmp):
    sw = [(v, run(irrgpu, w, v, graph, [], tmp)) for v in SOFTWARE[w]]
    best_name, best = min(sw, key=lambda x: x[1]["cycles"])
    schemes = [(s, run(irrgpu, w, "hwwl", graph, [f"hwwl.redistribution={s}"], tmp)) for s in SCHEMES]
    banks = [(f"{b} entries" if b < 4096 else "unbounded (4096)",
              run(irrgpu, w, "hwwl", graph, [f"hwwl.bank_entries={b}"], tmp)) for b in BANKS]
    virt = [(v, run(irrgpu, w, "hwwl", graph, [f"hwwl.virtualization={v}", "hwwl.bank_entries=8"], tmp))
            for v in ("interval", "on_demand")]
    topo, data = dict(sw)["topology"], dict(sw)["data"]
    print(f"\n## {w} on {graph} (kim4x16); best software: {best_name}, {best['cycles']:,.0f} cycles")
    print(f"\nThread instructions, topology-driven / data-driven: {topo['thread_instructions']:,.0f} / "
          f"{data['thread_instructions']:,.0f} = {topo['thread_instructions'] / data['thread_instructions']:.1f}x "
          "(the paper's BFS input: 1.7e9 / 8.0e7 = 21x; SSSP: 7.5e9 / 7.4e9 = 1.0x [K Table II])")
    table("Software baselines", sw, best["cycles"])
    table("HWWL, each redistribution scheme (32-entry banks, interval)", schemes, best["cycles"])
    table("HWWL, bank sizes (lsorting, interval)", banks, best["cycles"])
    table("HWWL, virtualization with 8-entry banks (lsorting)", virt, best["cycles"])
    return best, schemes, banks


def activity(irrgpu, graph, tmp, every):
    """Figure 8: BFS single- against double-buffered, threads holding a work ID over time. LRR
    scheduling: under GTO the oldest warps spinning on WAIT starve the warps holding work, which in
    single-buffer mode is a livelock (docs/results/hwwl.md)."""
    runs = {m: run(irrgpu, "bfs", "hwwl", graph, [f"hwwl.mode={m}", "core.scheduler=lrr"], tmp, every)
            for m in ("double", "single")}
    print(f"\n## Active hardware threads over time: BFS on {graph} (kim4x16, LRR scheduling)\n")
    print("| mode | core cycles | peak active | mean active | samples at >= 80 % active | WAIT pulls |")
    print("|---|---|---|---|---|---|")
    for m, r in runs.items():
        share = [100.0 * x / HW_THREADS for x in r["series"]]
        print(f"| {m} | {r['cycles']:,.0f} | {max(share):.1f} % | {sum(share) / len(share):.1f} % | "
              f"{100.0 * sum(s >= 80 for s in share) / len(share):.1f} % | {r['wait_pulls']:,.0f} |")
    return runs


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default="build")
    p.add_argument("--graph", action="append", help=f"repeatable (default: {' and '.join(GRAPHS)})")
    p.add_argument("--activity-graph", default=GRAPHS[0])
    p.add_argument("--sample-every", type=int, default=2000, help="cycles between activity samples")
    p.add_argument("--plot", default="")
    a = p.parse_args()
    irrgpu = os.path.join(a.build, "apps", "irrgpu", "irrgpu")
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for graph in a.graph or GRAPHS:
            for w in ("bfs", "sssp"):
                results[(w, graph)] = study(irrgpu, w, graph, tmp)
        act = activity(irrgpu, a.activity_graph, tmp, a.sample_every)
    if not a.plot:
        return
    try:
        import matplotlib
    except ImportError:
        sys.exit("--plot needs matplotlib: the Debian package python3-matplotlib (make deps), run by /usr/bin/python3")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    os.makedirs(a.plot, exist_ok=True)
    for (w, graph), (best, schemes, banks) in results.items():
        fig, ax = plt.subplots(1, 2, figsize=(10, 3.5))
        for axis, rows, title in ((ax[0], schemes, "scheme"), (ax[1], banks, "bank size")):
            axis.bar([n for n, _ in rows], [best["cycles"] / r["cycles"] for _, r in rows])
            axis.axhline(1.0, color="grey", linewidth=0.8)
            axis.set_title(f"{w} on {graph.split(':')[0]}: speedup over best software, by {title}", fontsize=9)
            axis.tick_params(axis="x", rotation=30)
        fig.tight_layout()
        fig.savefig(os.path.join(a.plot, f"hwwl_{w}_{graph.split(':')[0]}.png"), dpi=100)
        plt.close(fig)
    fig, ax = plt.subplots(1, 2, figsize=(10, 3.2), sharey=True)
    for axis, (m, r) in zip(ax, sorted(act.items(), reverse=True)):
        t = [i * a.sample_every for i in range(len(r["series"]))]
        axis.plot(t, [100.0 * x / HW_THREADS for x in r["series"]], linewidth=0.8)
        axis.set_title(f"BFS, {m}-buffered: active HW threads", fontsize=9)
        axis.set_xlabel("core cycles")
        axis.set_ylim(0, 100)
    ax[0].set_ylabel("% of hardware threads")
    fig.tight_layout()
    fig.savefig(os.path.join(a.plot, "hwwl_activity.png"), dpi=100)


if __name__ == "__main__":
    main()
