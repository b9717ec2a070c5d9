#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""DAC on the dissertation's Rodinia programs, unmodified (Table 3.2 [S L704-L720]; docs/results/dac.md):
each built from ../shared/suites/rodinia-3.1 by its own Makefile (testbenches/cuda/rodinia/setup.sh;
the suite is never edited), run by `irrgpu exec` on gtx480 with Table 3.1's differences (48 KB L1,
two-level scheduling: as experiments/dac_study.py)
at the size of Rodinia's own run script, in five machines: the baseline; DAC (dac.enabled: every
kernel through the decoupling pass as its module loads, docs/cuda-apps.md); MTA (l1.prefetcher mta);
CAE (cae.enabled); a perfect memory (l1.perfect), which classifies a program memory-intensive when
it gains at least 1.5x [S L746]. Each run's output files are compared with the baseline's. Prints
markdown tables: speedups of kernel time, DAC's warp instructions, kernels decoupled, the classes,
DAC's decoupled loads and coverage, and where each machine's scheduler cycles went.

Usage: experiments/dac_rodinia.py [--build build] [--jobs N] [--work DIR] [--resume] [--program NAME ...]
                                  [--modes base,dac,...] [--set KEY=VALUE ...]
The ablations (--modes): dac_noprefetch, DAC's early line requests off; dac_nogating, tuples behind a
barrier expanded at once; dac_gate_atq, a gated tuple holding the whole ATQ; dac_ldst, the model
before 2026-12-07 (the early requests through the LD/ST unit's queue and the L1's input, and the
ATQ-wide gate); dac_pwaq2, the PWAQ with a read and a write port (a dequeue and the expansion's
enqueue in one cycle). --resume keeps the runs already in --work. --set changes a key on every
machine (the one-parameter ablations of the machine itself, e.g. the L1's port as GPGPU-Sim's:
--set l1.port_accesses=2 --set l1.port_cycles=2); run it in a --work of its own.
"""
import argparse
import concurrent.futures
import filecmp
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile

from simulate import sm_total

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(HERE)
SUITE = os.path.join(SOURCE, "..", "shared", "suites", "rodinia-3.1")
# The gtx480 preset with Table 3.1's differences, as experiments/dac_study.py (docs/results/dac.md "Set-up").
SCHEDULERS = 15 * 2  # gtx480's SMs x schedulers an SM
TABLE_3_1 = ["-s", "l1.size=48KiB", "-s", "core.shared_memory=16KiB", "-s", "core.scheduler=two_level"]
MODES = {"base": [], "dac": ["-s", "dac.enabled=true"], "mta": ["-s", "l1.prefetcher=mta"],
         "cae": ["-s", "cae.enabled=true"], "perfect": ["-s", "l1.perfect=true"],
         # Not by default, the ablations: each one parameter from today's DAC but dac_ldst, the model
         # before 2026-12-07 (its early requests through the LD/ST unit, the ATQ-wide barrier gate).
         "dac_noprefetch": ["-s", "dac.enabled=true", "-s", "dac.prefetch=false"],
         "dac_ldst": ["-s", "dac.enabled=true", "-s", "dac.request_path=ldst", "-s", "dac.gate_scope=atq"],
         "dac_nogating": ["-s", "dac.enabled=true", "-s", "dac.barrier_gating=false"],
         "dac_gate_atq": ["-s", "dac.enabled=true", "-s", "dac.gate_scope=atq"],
         "dac_pwaq2": ["-s", "dac.enabled=true", "-s", "dac.pwaq_ports=2"]}
DEFAULT_MODES = ["base", "dac", "mta", "cae", "perfect"]

# Table 3.2's programs that Rodinia 3.1 holds and CUDA 13 builds (KMEANS needs texture references,
# removed in CUDA 12): name, folder, the dissertation's class, Rodinia's run-script command, the
# files it writes that must match the baseline's ("" for its standard output's result lines).
PROGRAMS = [
    ("backprop", "backprop", "compute", ["./backprop", "2097152"], []),
    ("hotspot", "hotspot", "compute", ["./hotspot", "512", "2", "2", "../../data/hotspot/temp_512",
                                        "../../data/hotspot/power_512", "output.out"], ["output.out"]),
    ("pathfinder", "pathfinder", "compute", ["./pathfinder", "100000", "100", "20"], []),
    ("srad_v1", "srad/srad_v1", "compute", ["./srad", "20", "0.5", "502", "458"], ["image_out.pgm"]),
    ("b+tree", "b+tree", "memory", ["./b+tree.out", "file", "../../data/b+tree/mil.txt", "command",
                                    "../../data/b+tree/command.txt"], ["output.txt"]),
    ("lud", "lud", "memory", ["cuda/lud_cuda", "-s", "256", "-v"], []),
    ("srad_v2", "srad/srad_v2", "memory", ["./srad", "2048", "2048", "0", "127", "0", "127", "0.5", "2"], []),
    ("bfs", "bfs", "memory", ["./bfs.out", "../../data/bfs/graph65536.txt"], ["result.txt"]),
]
# Where a run is smaller than the run script's, by how much and why.
SMALLER = {"srad_v1": "20 of the run script's 100 iterations, each the same six kernels on the same "
                      "502 x 458 image (2 took 10 s of host time without DAC, 1.07 M kernel cycles; DAC "
                      "runs take up to 4.4x as long)"}
# What a program's standard output must not say (lud's own verification).
BAD = {"lud": "dismatch"}
# Table 3.2's Rodinia programs not run here, and why.
LEFT = {"KMEANS": "does not build with CUDA 13 (texture references, removed in CUDA 12)",
        "CFD": "not timed yet (2,000 time steps fixed in the program, on the run script's 97 K elements)",
        "stream cluster": "not timed yet (the run script's 65,536 points of 256 dimensions)"}


def inputs(data):
    """Rodinia's data package is not in ../shared: inputs of the run scripts' sizes, from a seed."""
    rnd = random.Random(2026)
    os.makedirs(f"{data}/hotspot", exist_ok=True)
    with open(f"{data}/hotspot/temp_512", "w") as f:
        f.writelines(f"{rnd.uniform(320, 340):.6f}\n" for _ in range(512 * 512))
    with open(f"{data}/hotspot/power_512", "w") as f:
        f.writelines(f"{rnd.uniform(0, 0.005):.9f}\n" for _ in range(512 * 512))
    # b+tree: a million keys, as mil.txt; the run script's commands (10,000 point and 6,000 range queries).
    os.makedirs(f"{data}/b+tree", exist_ok=True)
    with open(f"{data}/b+tree/mil.txt", "w") as f:
        f.write("1000000\n")
        f.writelines(f"{rnd.randrange(1000000)}\n" for _ in range(1000000))
    with open(f"{data}/b+tree/command.txt", "w") as f:
        f.write("j 6000 3000\nk 10000\n")
    # srad_v1: a 502 x 458 PGM (P2) image, the size its program reads.
    os.makedirs(f"{data}/srad", exist_ok=True)
    with open(f"{data}/srad/image.pgm", "w") as f:
        f.write("P2\n458 502\n255\n")
        f.writelines(f"{rnd.randrange(256)}\n" for _ in range(502 * 458))
    # bfs: 65,536 vertices, each with 6 arcs to random vertices, in Rodinia's graph format.
    os.makedirs(f"{data}/bfs", exist_ok=True)
    n, degree = 65536, 6
    with open(f"{data}/bfs/graph65536.txt", "w") as f:
        f.write(f"{n}\n")
        f.writelines(f"{v * degree} {degree}\n" for v in range(n))
        f.write(f"0\n{n * degree}\n")
        f.writelines(f"{rnd.randrange(n)} 1\n" for _ in range(n * degree))


def build(work, names):
    """The programs, built once into WORK/built/src by setup.sh's `build`."""
    script = ". \"$here/setup.sh\"; status=0; fail() { echo \"FAILED: $*\"; status=1; }; "
    script += " ".join(f"build {d};" for n, d, *_ in PROGRAMS if n in names) + " exit $status"
    env = dict(os.environ, suite=SUITE, out=os.path.join(work, "built"),
               here=os.path.join(SOURCE, "testbenches", "cuda", "rodinia"))
    p = subprocess.run(["bash", "-c", "set -uo pipefail; " + script], env=env, capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"dac_rodinia: building failed ({p.returncode}):\n{p.stdout}{p.stderr}")


def result(out):
    """A finished run's figures, from its exec.json and the folder of its checked outputs."""
    kernels = json.load(open(os.path.join(out, "exec.json")))["kernels"]
    return {"cycles": sum(k["cycles"] for k in kernels), "warp": sum(k["warp_instructions"] for k in kernels),
            "kernels": len(kernels), "decoupled": sum("dac: decoupled" in k.get("rewrite", "") for k in kernels),
            "outputs": os.path.join(out, "outputs"), "stats": os.path.join(out, "stats.json")}


def run(irrgpu, work, program, mode, settings=(), resume=False):
    """One program on one machine, in its own copy of the program's folder. With `resume`, a run
    whose outputs were saved before (only once its checks passed) is not run again."""
    name, folder, _, command, outputs = program
    out = os.path.join(work, "runs", f"{name}.{mode}")
    if resume and os.path.isdir(os.path.join(out, "outputs")):
        return result(out)
    top = os.path.join(work, mode)
    where = os.path.join(top, "src", folder)
    if not os.path.isdir(where):
        shutil.copytree(os.path.join(work, "built", "src", folder), where, symlinks=True)
    if not os.path.exists(os.path.join(top, "data")):
        os.symlink(os.path.join(work, "data"), os.path.join(top, "data"))
    cmd = [irrgpu, "exec", "-q", "-c", "gtx480", *TABLE_3_1, *settings, *MODES[mode], "-o", out, "--", *command]
    p = subprocess.run(cmd, cwd=where, capture_output=True, text=True)
    record = json.load(open(os.path.join(out, "exec.json"))) if os.path.exists(os.path.join(out, "exec.json")) else {}
    if p.returncode or record.get("exit_code") != 0 or (name in BAD and BAD[name] in p.stdout):
        raise RuntimeError(f"{name} ({mode}) failed ({p.returncode}): {(p.stdout + p.stderr)[-600:]}")
    saved = os.path.join(out, "outputs")
    shutil.rmtree(saved, ignore_errors=True)
    staging = saved + ".partial"  # the folder appears whole, so --resume never takes a half-copied run
    os.makedirs(staging, exist_ok=True)
    for f in outputs:
        shutil.copy(os.path.join(where, f), staging)
    os.rename(staging, saved)
    return result(out)


STALLS = ["memory", "dependence", "unit", "structural.ldst", "empty", "barrier"]


def stalls(r, programs, modes, schedulers):
    """Where each machine's scheduler cycles went, in shares of the baseline's (kernel cycles x SMs x
    schedulers): issue slots (warp instructions) and each stall reason, summed over the SMs."""
    dac_modes = [m for m in modes if m.startswith("dac")]
    if not dac_modes:
        return
    print("\n### Where the scheduler cycles went (shares of the baseline's scheduler cycles)\n")
    print("| program | machine | speedup | issued | " + " | ".join(STALLS) + " | affine warp's instructions |")
    print("|---|---|---|---|" + "---|" * len(STALLS) + "---|")
    for name, *_ in programs:
        base = r[(name, "base")]
        total = base["cycles"] * schedulers
        for m in ["base"] + dac_modes:
            s = json.load(open(r[(name, m)]["stats"]))["stats"]
            v = lambda k: s[k]["value"] if k in s else 0.0
            companion = sm_total(s, "companion_instructions")
            cells = [f"{(v('gpu.total.warp_instructions') - companion) / total:.2f}"]
            cells += [f"{v('gpu.total.stall.' + why) / total:.2f}" for why in STALLS]
            cells.append(f"{companion / total:.2f}" if m != "base" else "—")
            print(f"| {name} | {m} | {base['cycles'] / r[(name, m)]['cycles']:.2f} | " + " | ".join(cells) + " |")


def loads_and_coverage(r, programs):
    """The share of the baseline's global warp loads DAC decoupled (each a deq.data), and its
    coverage [S L770]: the share of the baseline's warp instructions that left the non-affine
    stream (deqs aside) — as experiments/dac_study.py counts them."""
    if not all((name, "dac") in r for name, *_ in programs):
        return
    print("\n### DAC's decoupled loads and coverage\n")
    print("| program | the dissertation's class | global loads decoupled | coverage |")
    print("|---|---|---|---|")
    by_class = {}
    for name, _, cls, *_ in programs:
        b = json.load(open(r[(name, "base")]["stats"]))["stats"]
        d = json.load(open(r[(name, "dac")]["stats"]))["stats"]
        deq = sum(sm_total(d, "dac." + x) for x in ("deq_data", "deq_addr", "deq_predicate"))
        base_wi = b["gpu.total.warp_instructions"]["value"]
        coverage = 1 - (d["gpu.total.warp_instructions"]["value"] - deq - sm_total(d, "companion_instructions")) / base_wi
        loads = sm_total(d, "dac.deq_data") / max(1, sm_total(b, "global_loads"))
        by_class.setdefault(cls, []).append((loads, coverage))
        print(f"| {name} | {cls} | {loads:.1%} | {coverage:.1%} |")
    mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")
    print(f"\nMeans: global loads decoupled {mean([x[0] for x in by_class.get('memory', [])]):.1%} on the "
          f"memory-intensive programs (the dissertation: 79.8 % [S L782]); coverage "
          f"{mean([x[1] for x in by_class.get('compute', [])]):.1%} on the compute-intensive ones (34 % [S L770]).")


def gmean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default="build")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--work", default="", help="where the programs are built and run (default: a new folder in /tmp)")
    p.add_argument("--program", action="append", choices=[x[0] for x in PROGRAMS], help="repeatable (default: all)")
    p.add_argument("--resume", action="store_true",
                   help="keep the runs already in --work (their outputs saved and checked; made by the same build)")
    p.add_argument("--modes", default=",".join(DEFAULT_MODES), help="comma-separated, base first: " + ", ".join(MODES))
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a key set on every machine (repeatable), after Table 3.1's differences")
    a = p.parse_args()
    if bad := [x for x in a.set if "=" not in x]:
        p.error(f"--set: {', '.join(bad)}: not KEY=VALUE")
    settings = [x for kv in a.set for x in ("-s", kv)]
    modes = a.modes.split(",")
    if unknown := [m for m in modes if m not in MODES]:
        p.error(f"--modes: unknown {', '.join(unknown)} ({', '.join(MODES)})")
    if "base" not in modes:
        p.error("--modes: base is needed (the speedups are over it)")
    if not os.path.isdir(os.path.join(SUITE, "cuda")):
        sys.exit(f"dac_rodinia: no Rodinia 3.1 at {SUITE}")
    irrgpu = os.path.abspath(os.path.join(a.build, "apps", "irrgpu", "irrgpu"))
    work = os.path.abspath(a.work) if a.work else tempfile.mkdtemp(prefix="dac_rodinia.")
    names = a.program or [x[0] for x in PROGRAMS]
    programs = [x for x in PROGRAMS if x[0] in names]
    shutil.rmtree(os.path.join(work, "built"), ignore_errors=True)
    build(work, names)
    inputs(os.path.join(work, "data"))
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        jobs = {(x[0], m): pool.submit(run, irrgpu, work, x, m, settings, a.resume) for x in programs for m in modes}
        r = {k: f.result() for k, f in jobs.items()}
    changed = f", and {', '.join(a.set)}" if a.set else ""
    print(f"Rodinia 3.1, unmodified, on gtx480 with Table 3.1's differences{changed} (built in {work}); kernel "
          "cycles, speedup over the baseline\n")
    others = [m for m in modes if m != "base"]
    print("| program | the dissertation's class | ours (perfect memory's speedup) | baseline cycles | "
          + " | ".join(others) + " | DAC's warp instructions | kernels decoupled | outputs as the baseline's |")
    print("|---|---|---|---|" + "---|" * len(others) + "---|---|---|")
    by_class = {}
    for name, _, cls, _, outputs in programs:
        base = r[(name, "base")]
        speed = {m: base["cycles"] / r[(name, m)]["cycles"] for m in others}
        ours = ("memory" if speed["perfect"] >= 1.5 else "compute") if "perfect" in speed else "—"
        same = all(filecmp.cmp(os.path.join(base["outputs"], f), os.path.join(r[(name, m)]["outputs"], f), shallow=False)
                   for m in others for f in outputs)
        dac = r.get((name, "dac"))
        by_class.setdefault(cls, []).append(speed)
        row = [name + (" (smaller)" if name in SMALLER else ""), cls, ours + (" (%.2f)" % speed["perfect"] if "perfect" in speed else ""), f"{base['cycles']:,}"]
        row += [f"{speed[m]:.2f}" for m in others]
        row += [f"{dac['warp'] / base['warp']:.2f}", f"{dac['decoupled']} of {dac['kernels']}"] if dac else ["—", "—"]
        row.append(f"{'yes' if same else 'NO'} ({', '.join(outputs) or 'no file'})")
        print("| " + " | ".join(row) + " |")
    print("\n| class (the dissertation's) | programs | " + " | ".join(f"{m} (geometric mean)" for m in others) + " |")
    print("|---|---|" + "---|" * len(others))
    for cls, speeds in sorted(by_class.items()) + [("all", [s for v in by_class.values() for s in v])]:
        print(f"| {cls} | {len(speeds)} | " + " | ".join(f"{gmean([s[m] for s in speeds]):.2f}" for m in others) + " |")
    loads_and_coverage(r, programs)
    stalls(r, programs, modes, SCHEDULERS)
    for name, why in SMALLER.items():
        if name in names:
            print(f"\n{name}: {why}.")
    print("\nNot run: " + "; ".join(f"{k}: {v}" for k, v in LEFT.items()) + ".")


if __name__ == "__main__":
    main()
