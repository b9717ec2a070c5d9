#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The HWWL study (docs/results/hwwl.md): BFS and SSSP on the kim4x16 GPU, the best software
baseline against the hardware worklist with each redistribution scheme, bank sizes, and
interval against on-demand virtualization. Prints markdown tables; --plot DIR writes PNG bar
charts (matplotlib).

Usage: experiments/hwwl_study.py [--build build] [--graph rmat:scale=12] [--plot DIR]
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


def run(irrgpu, workload, variant, graph, sets, tmp):
    out = os.path.join(tmp, "run")
    cmd = [irrgpu, "run", "-q", "-c", "kim4x16", "--workload", workload, "--variant", variant, "--graph", graph,
           "-o", out]
    for s in sets:
        cmd += ["-s", s]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0 or "check: PASS" not in done.stdout:
        sys.exit(f"failed: {' '.join(cmd)}\n{done.stdout}{done.stderr}")
    stats = json.load(open(os.path.join(out, "stats.json")))["stats"]
    value = lambda k: stats[k]["value"] if k in stats else 0
    return {"cycles": value("gpu.total.core_cycles"), "warp_instructions": value("gpu.total.warp_instructions"),
            "memory_stalls": value("gpu.total.stall.memory"), "wait_pulls": value("hwwl.wait_pulls"),
            "spilled": value("hwwl.hvu.spilled"), "moved": value("hwwl.wru.moved"), "sent": value("hwwl.icrn.sent")}


def table(title, rows, best):
    print(f"\n{title}\n")
    print("| configuration | core cycles | speedup over best software | warp instructions | memory stalls | WAIT pulls |")
    print("|---|---|---|---|---|---|")
    for name, r in rows:
        print(f"| {name} | {r['cycles']:,.0f} | {best / r['cycles']:.2f} | {r['warp_instructions']:,.0f} | "
              f"{r['memory_stalls']:,.0f} | {r['wait_pulls']:,.0f} |")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default="build")
    p.add_argument("--graph", default="rmat:scale=12")
    p.add_argument("--plot", default="")
    a = p.parse_args()
    irrgpu = os.path.join(a.build, "apps", "irrgpu", "irrgpu")
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for w in ("bfs", "sssp"):
            sw = [(v, run(irrgpu, w, v, a.graph, [], tmp)) for v in SOFTWARE[w]]
            best_name, best = min(sw, key=lambda x: x[1]["cycles"])
            schemes = [(s, run(irrgpu, w, "hwwl", a.graph, [f"hwwl.redistribution={s}"], tmp)) for s in SCHEMES]
            banks = [(f"{b} entries" if b < 4096 else "unbounded (4096)",
                      run(irrgpu, w, "hwwl", a.graph, [f"hwwl.bank_entries={b}"], tmp)) for b in BANKS]
            virt = [(v, run(irrgpu, w, "hwwl", a.graph, [f"hwwl.virtualization={v}", "hwwl.bank_entries=8"], tmp))
                    for v in ("interval", "on_demand")]
            print(f"\n## {w} on {a.graph} (kim4x16); best software: {best_name}, {best['cycles']:,.0f} cycles")
            table("Software baselines", sw, best["cycles"])
            table("HWWL, each redistribution scheme (32-entry banks, interval)", schemes, best["cycles"])
            table("HWWL, bank sizes (lsorting, interval)", banks, best["cycles"])
            table("HWWL, virtualization with 8-entry banks (lsorting)", virt, best["cycles"])
            results[w] = (best, schemes, banks)
    if a.plot:
        try:
            import matplotlib
        except ImportError:
            sys.exit("--plot needs matplotlib: the Debian package python3-matplotlib (make deps), run by /usr/bin/python3")
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        os.makedirs(a.plot, exist_ok=True)
        for w, (best, schemes, banks) in results.items():
            fig, ax = plt.subplots(1, 2, figsize=(10, 3.5))
            for axis, rows, title in ((ax[0], schemes, "redistribution scheme"), (ax[1], banks, "bank size")):
                axis.bar([n for n, _ in rows], [best["cycles"] / r["cycles"] for _, r in rows])
                axis.axhline(1.0, color="grey", linewidth=0.8)
                axis.set_title(f"{w}: speedup over best software, by {title}")
                axis.tick_params(axis="x", rotation=30)
            fig.tight_layout()
            fig.savefig(os.path.join(a.plot, f"hwwl_{w}.png"), dpi=100)


if __name__ == "__main__":
    main()
