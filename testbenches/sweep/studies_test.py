#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Each study of experiments/ is a sweep file (docs/sweeps.md): the runs its script asks for are
exactly the runs its sweep file expands to, so `irrgpu sweep run experiments/STUDY.yaml` gives the
script (its report) every result it reads and runs nothing it does not. The script only lists its
runs here (IRRGPU_STUDY_PLAN): nothing is simulated.

Then the DAC study's tables for one kernel, from its sweep file's runs (irrgpu sweep run --only),
are the same text as the script prints simulating them itself.

Usage: studies_test.py IRRGPU SOURCE_DIR WORK_DIR"""
import json
import os
import shlex
import shutil
import subprocess
import sys

irrgpu, source, work = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
os.makedirs(work, exist_ok=True)
sys.path.insert(0, os.path.join(source, "experiments"))
import simulate  # noqa: E402  (the scripts' own reading of a command line)

STUDIES = {"hwwl": "hwwl_study.py", "iru": "iru_study.py", "dats": "dats_study.py", "dac": "dac_study.py",
           "baseline": "baseline_breakdown.py", "graphmem": "graph_memory_study.py", "graphmem_kernels": "graph_memory_kernels.py",
           "graphmem_inclusion": "graph_memory_inclusion.py", "graphmem_walk": "graph_memory_walk.py",
           "chapter5": "chapter5_study.py",
           "delegate": "delegate_study.py", "spref": "spref_study.py"}
# Studies whose sweep file reports more than once (one machine a report): the runs each report's
# arguments ask for, together.
REPORTS = {"delegate": [[], ["--config", "gtx1080ti", "--sssp-config", "rtx2080ti"]]}
failures = []
for name, script in STUDIES.items():
    spec = os.path.join(source, "experiments", name + ".yaml")
    p = subprocess.run([irrgpu, "sweep", "run", spec, "--dry-run"], capture_output=True, text=True)
    if p.returncode != 0:
        failures.append(f"{name}.yaml does not expand: {p.stderr.strip()}")
        continue
    swept = set()
    for line in p.stdout.splitlines()[:-1]:
        words = shlex.split(line)[1:]  # irrgpu run ...
        swept.add(tuple(sorted(simulate.params(words).items())))
    plan = os.path.join(work, name + ".jsonl")
    if os.path.exists(plan):
        os.remove(plan)
    for args in REPORTS.get(name, [[]]):  # each report appends its runs to the plan
        q = subprocess.run([sys.executable, os.path.join(source, "experiments", script)] + args, capture_output=True,
                           text=True, env=dict(os.environ, IRRGPU_STUDY_PLAN=plan), cwd=work)
        if q.returncode != 0:
            failures.append(f"{script} {' '.join(args)} failed listing its runs: {q.stderr[-2000:]}")
            break
    if q.returncode != 0:
        continue
    asked = {tuple(sorted(json.loads(line).items())) for line in open(plan)}
    missing, extra = asked - swept, swept - asked
    for m in sorted(missing):
        failures.append(f"{name}.yaml lacks a run {script} reads: {dict(m)}")
    for e in sorted(extra):
        failures.append(f"{name}.yaml has a run {script} does not read: {dict(e)}")
    print(f"{name}: {len(asked)} runs, sweep file and script agree" if not missing and not extra else
          f"{name}: {len(missing)} missing, {len(extra)} extra")

# End to end: the tables from the sweep's runs are those of the script's own runs.
experiments = os.path.join(source, "experiments")
sweep_dir = os.path.join(os.path.abspath(work), "dac-lbm")
shutil.rmtree(sweep_dir, ignore_errors=True)  # a sweep resumes: runs left by an earlier build must not count
p = subprocess.run([irrgpu, "sweep", "run", os.path.join(experiments, "dac.yaml"), "-o", sweep_dir, "--only", "workload=lbm"],
                   capture_output=True, text=True)
if p.returncode != 0:
    failures.append(f"irrgpu sweep run dac.yaml --only workload=lbm failed: {p.stderr[-2000:]}")
else:
    build = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(irrgpu))))
    tables = [subprocess.run([sys.executable, "dac_study.py", "--build", build, "--kernel", "lbm", *extra], capture_output=True,
                             text=True, cwd=experiments) for extra in ([], ["--from-sweep", sweep_dir])]
    for t in tables:
        if t.returncode != 0:
            failures.append(f"dac_study.py failed: {t.stderr[-2000:]}")
    if all(t.returncode == 0 for t in tables) and tables[0].stdout != tables[1].stdout:
        failures.append("dac_study.py's tables from the sweep differ from its own runs'")
    elif all(t.returncode == 0 for t in tables):
        print("dac (lbm): the tables from the sweep's runs are the script's own")
# The sampling validation (experiments/sampling.yaml) reads its sweep only: its tables from a slice of it.
sampling_dir = os.path.join(os.path.abspath(work), "sampling-pathfinder")
shutil.rmtree(sampling_dir, ignore_errors=True)
p = subprocess.run([irrgpu, "sweep", "run", os.path.join(experiments, "sampling.yaml"), "-o", sampling_dir, "--only",
                    "workload=pathfinder"], capture_output=True, text=True)
if p.returncode != 0:
    failures.append(f"irrgpu sweep run sampling.yaml --only workload=pathfinder failed: {p.stderr[-2000:]}")
else:
    t = subprocess.run([sys.executable, "sampling_study.py", "--from-sweep", sampling_dir], capture_output=True, text=True,
                       cwd=experiments)
    rows = [line for line in t.stdout.splitlines() if line.startswith("| dac | dac pathfinder | 19 |")]
    if t.returncode != 0:
        failures.append(f"sampling_study.py failed: {t.stderr[-2000:]}")
    elif len(rows) != 2 or "| kernels |" not in rows[0] or "| 16 |" not in rows[0] or "| kernels | 2 |" not in t.stdout:
        failures.append(f"sampling_study.py: not the pathfinder rows expected (19 launches, 16 charged):\n{t.stdout}")
    else:
        print("sampling (pathfinder): the study's tables from its sweep")
if failures:
    sys.exit("\n".join(failures))
