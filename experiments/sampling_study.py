#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Sampled simulation beside full runs (docs/results/sampling.md), from a finished sweep of
experiments/sampling.yaml: for each run, the error of sampled total kernel cycles against the
same run with sim.sampling off, the error bound the run reported, and the host time saved; for
each study's comparison, the error of the speedup ratio. Markdown tables on stdout.

  irrgpu sweep run experiments/sampling.yaml -o DIR
  python3 experiments/sampling_study.py --from-sweep DIR
"""
import argparse
import json
import os
import sys

# Each group's comparison: the parameters that tell its runs apart, and the baseline's values.
COMPARE = {
    "baseline": (("variant",), ("data",)),
    "pagerank": (("variant",), ("topology",)),
    "chapter5": (("variant",), ("harish",)),
    "graphmem": (("l1.granularity", "l1.bypass"), ("line", "none")),
    "dac": (("variant",), ("original",)),
    "delegate": (("variant",), ("global",)),
    "hwwl": (("variant",), ("wl",)),
}
MODES = ("kernels", "blocks")


def load(directory):
    plan = json.load(open(os.path.join(directory, "runs.json")))
    runs = []
    for r in plan["runs"]:
        d = os.path.join(directory, "runs", r["id"])
        try:
            status = json.load(open(os.path.join(d, "status.json")))
        except OSError:
            continue
        if status.get("state") != "done":
            continue
        stats = json.load(open(os.path.join(d, "stats.json")))["stats"]
        value = lambda n: stats[n]["value"] if n in stats else 0.0
        runs.append({
            "group": r["group"], "params": r["params"], "id": r["id"],
            "cycles": value("gpu.total.kernel_cycles"),
            "bound": value("gpu.sampling.error_bound_cycles"),
            "charged": value("gpu.sampling.extrapolated_kernels"),
            "ctas": value("gpu.sampling.extrapolated_ctas"),
            "launches": len(json.load(open(os.path.join(d, "kernels.json")))),
            "host": json.load(open(os.path.join(d, "run.json")))["host_seconds"],
        })
    return runs


def key(params, drop=()):
    return tuple(sorted((k, v) for k, v in params.items() if k != "sim.sampling" and k not in drop))


def label(params):
    skip = ("sim.sampling", "config", "scale", "l2.granularity", "l2.bypass", "l1.size", "core.shared_memory", "core.scheduler")
    return " ".join(str(v) for k, v in sorted(params.items()) if k not in skip)


def pct(x):
    return f"{100 * x:+.1f} %"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--from-sweep", required=True, metavar="DIR", help="the finished sweep of experiments/sampling.yaml")
    a = p.parse_args()
    runs = load(a.from_sweep)
    if not runs:
        sys.exit(f"{a.from_sweep}: no finished run")
    by = {(r["group"], key(r["params"]), r["params"]["sim.sampling"]): r for r in runs}

    print("## Total kernel cycles, sampled against full\n")
    print("| group | run | launches | full cycles | mode | error | bound | charged | host full | host sampled | saving |")
    print("|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|")
    errors = {m: [] for m in MODES}
    savings = {m: [] for m in MODES}
    for (group, k, mode), full in sorted(by.items()):
        if mode != "off":
            continue
        for m in MODES:
            s = by.get((group, k, m))
            if not s or not full["cycles"]:
                continue
            err = s["cycles"] / full["cycles"] - 1
            charged = f"{s['charged']:.0f}" + (f" ({s['ctas']:.0f} CTAs)" if s["ctas"] else "")
            saving = full["host"] / s["host"] if s["host"] else 0
            errors[m].append((abs(err), group, label(full["params"])))
            savings[m].append((saving, full["launches"], s["charged"] > 0))
            print(f"| {group} | {label(full['params'])} | {full['launches']} | {full['cycles']:.0f} | {m} | {pct(err)} | "
                  f"{100 * s['bound'] / s['cycles'] if s['cycles'] else 0:.2f} % | {charged} | {full['host']:.1f} s | "
                  f"{s['host']:.1f} s | {saving:.2f}x |")

    print("\n## Speedup ratios, sampled against full\n")
    print("| group | run | full speedup | mode | sampled speedup | error |")
    print("|---|---|---:|---|---:|---:|")
    ratio_errors = {m: [] for m in MODES}
    for r in sorted(runs, key=lambda r: (r["group"], label(r["params"]))):
        if r["params"]["sim.sampling"] != "off" or r["group"] not in COMPARE:
            continue
        names, base_values = COMPARE[r["group"]]
        if all(r["params"].get(n) == v for n, v in zip(names, base_values)):
            continue  # the baseline itself
        base_params = dict(r["params"], **dict(zip(names, base_values)))
        if "l2.granularity" in base_params:  # graphmem: the baseline's L2 as its L1
            base_params.update({"l2.granularity": "line", "l2.bypass": "none"})
        base = by.get((r["group"], key(base_params), "off"))
        if not base or not r["cycles"]:
            continue
        full_speedup = base["cycles"] / r["cycles"]
        for m in MODES:
            s, b = by.get((r["group"], key(r["params"]), m)), by.get((r["group"], key(base_params), m))
            if not s or not b or not s["cycles"]:
                continue
            sampled = b["cycles"] / s["cycles"]
            err = sampled / full_speedup - 1
            ratio_errors[m].append((abs(err), r["group"], label(r["params"])))
            print(f"| {r['group']} | {label(r['params'])} | {full_speedup:.3f} | {m} | {sampled:.3f} | {pct(err)} |")

    print("\n## Summary\n")
    print("| mode | runs | cycles: mean abs error | max (run) | within 5 % | ratios | mean abs error | max (run) | within 3 % "
          "| host saving, runs with >= 20 launches | median saving, runs with a charge |")
    print("|---|---:|---:|---|---:|---:|---:|---|---:|---:|---:|")
    for m in MODES:
        e, r = errors[m], ratio_errors[m]
        if not e:
            continue
        many = [s for s, launches, _ in savings[m] if launches >= 20]
        charged = sorted(s for s, _, c in savings[m] if c)
        worst, worst_r = max(e), max(r) if r else (0, "", "")
        many_text = f"{min(many):.2f}-{max(many):.2f}x ({len(many)} runs)" if many else "-"
        charged_text = f"{charged[len(charged) // 2]:.2f}x ({len(charged)} runs)" if charged else "-"
        mean_r = 100 * sum(x for x, _, _ in r) / len(r) if r else 0
        print(f"| {m} | {len(e)} | {100 * sum(x for x, _, _ in e) / len(e):.2f} % | {100 * worst[0]:.1f} % ({worst[1]} {worst[2]}) | "
              f"{sum(x <= 0.05 for x, _, _ in e)}/{len(e)} | {len(r)} | {mean_r:.2f} % | "
              f"{100 * worst_r[0]:.1f} % ({worst_r[1]} {worst_r[2]}) | {sum(x <= 0.03 for x, _, _ in r)}/{len(r)} | "
              f"{many_text} | {charged_text} |")

if __name__ == "__main__":
    main()
