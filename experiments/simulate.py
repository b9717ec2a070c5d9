# SPDX-License-Identifier: Apache-2.0
"""What the study scripts share: one `irrgpu run` whose workload check must pass, or its results
from a finished sweep (--from-sweep DIR: `irrgpu sweep run experiments/STUDY.yaml` runs the study's
runs, locally or on Slurm, and then this script on them; docs/sweeps.md)."""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading

# Each `irrgpu run` option a sweep file names as a run field (apps/irrgpu/sweep/spec.cpp).
FIELDS = {"-c": "config", "--config": "config", "--workload": "workload", "--variant": "variant", "--graph": "graph",
          "--source": "source", "--scale": "scale", "--tiles": "tiles", "--tile": "tile", "--mode": "mode",
          "--seed": "seed", "--sample-every": "sample_every", "--timing-from-kernel": "timing_from_kernel",
          "--collisions": "collisions", "--servers": "servers", "--handoff": "handoff", "--profile": "profile"}
_sweep, _sweep_dir = None, ""  # the sweep's run ids by their parameters, once --from-sweep names one
_plan = os.environ.get("IRRGPU_STUDY_PLAN")  # testing: record the runs asked for; results are stand-ins
_lock = threading.Lock()


def params(cmd):
    """An `irrgpu run` command line's parameters as a sweep file writes them."""
    args, p, configs = [], {}, []
    for a in cmd[2:]:  # a flag's --name=value as two (the sweep writes flags so)
        args += a.split("=", 1) if a.startswith("--") and "=" in a else [a]
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-q", "--quiet"):
            i += 1
            continue
        if i + 1 >= len(args):
            sys.exit(f"simulate: '{a}' without a value in {' '.join(cmd)}")
        if a in ("-s", "--set"):
            key, _, value = args[i + 1].partition("=")
            p[key] = value
        elif a in FIELDS:
            if FIELDS[a] == "config":
                configs.append(args[i + 1])
            else:
                p[FIELDS[a]] = args[i + 1]
        else:
            sys.exit(f"simulate: '{a}' is not an option a sweep file can name")
        i += 2
    if configs:
        p["config"] = "+".join(configs)
    return p


def figures():
    """apps/irrgpu/plot.py: the drawing `irrgpu plot` uses, for a study's --plot."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "apps", "irrgpu"))
    import plot
    return plot


def study_options(doc, more=None):
    """A study's command line: --build, --jobs, --from-sweep (taken into use), and whatever `more`
    adds to the parser. Returns the options and the irrgpu to run."""
    p = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    p.add_argument("--build", default="build")
    p.add_argument("--jobs", type=int, default=os.cpu_count())
    add_sweep_option(p)
    if more:
        more(p)
    a = p.parse_args()
    use_sweep(a.from_sweep)
    return a, os.path.join(a.build, "apps", "irrgpu", "irrgpu")


def sm_total(stats, leaf):
    """A statistic of stats.json's "stats" summed over the SMs: "dac.deq_data" sums every
    gpu.smN.dac.deq_data (not a deeper name that ends alike)."""
    return sum(v["value"] for k, v in stats.items() if k.startswith("gpu.sm") and k.endswith("." + leaf)
               and k.count(".") == leaf.count(".") + 2)


def run_all(jobs, fn, workers):
    """{job: fn(*job, folder)} for every job, `workers` at a time, in a temporary folder."""
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(workers) as pool:
        return dict(zip(jobs, pool.map(lambda j: fn(*j, tmp), jobs)))


def add_sweep_option(parser):
    parser.add_argument("--from-sweep", default="", metavar="DIR",
                        help="take each run's results from this finished sweep folder instead of simulating")


def use_sweep(directory):
    """Results from the sweep folder `directory` from now on (nothing when empty)."""
    global _sweep, _sweep_dir
    if not directory:
        return
    try:
        plan = json.load(open(os.path.join(directory, "runs.json")))
    except OSError:
        sys.exit(f"--from-sweep {directory}: not a sweep folder (no runs.json)")
    _sweep = {tuple(sorted(r["params"].items())): r["id"] for r in plan["runs"]}
    _sweep_dir = directory


class _StandIn(float):
    """Whatever a study reads from a result while only its runs are being listed (IRRGPU_STUDY_PLAN):
    a number (each a new one, so differences are not zero), equal to anything, holding anything."""
    count = 0

    def __new__(cls):
        cls.count += 1
        return super().__new__(cls, float(cls.count))

    __hash__ = float.__hash__

    def __eq__(self, other):
        return True

    def __getitem__(self, key):
        return [_StandIn(), _StandIn()] if isinstance(key, slice) else _StandIn()

    def __iter__(self):
        return iter([_StandIn(), _StandIn()])

    def __contains__(self, key):
        return True

    def __len__(self):
        return 2

    def __getattr__(self, name):
        return lambda *a, **k: [("x", _StandIn())] if name == "items" else _StandIn()


def planning():
    """True while a study only lists its runs (IRRGPU_STUDY_PLAN)."""
    return bool(_plan)


def record(out):
    """The workload's own record (workload.json) of the run simulate() put in `out`."""
    return json.load(open(os.path.join(out, "workload.json")))


def simulate(cmd, out):
    """Runs the irrgpu command line `cmd` (without -o) writing into `out`; exits naming the command
    unless it succeeds with check: PASS. Returns the run's stats.json. With a sweep, copies that
    run's folder into `out` instead."""
    if _plan:
        with _lock, open(_plan, "a") as f:
            f.write(json.dumps(params(cmd), sort_keys=True) + "\n")
        os.makedirs(out, exist_ok=True)
        return _StandIn()
    if _sweep is not None:
        directory = _sweep_dir
        key = tuple(sorted(params(cmd).items()))
        if key not in _sweep:
            sys.exit(f"--from-sweep {directory}: the sweep has no run with {dict(key)} (add it to the sweep file)")
        run = os.path.join(directory, "runs", _sweep[key])
        status = json.load(open(os.path.join(run, "status.json"))) if os.path.exists(os.path.join(run, "status.json")) else {}
        if status.get("state") != "done":
            sys.exit(f"--from-sweep {directory}: run {_sweep[key]} is {status.get('state', 'pending')} "
                     f"(irrgpu sweep status {directory})")
        shutil.copytree(run, out, dirs_exist_ok=True)
        return json.load(open(os.path.join(out, "stats.json")))
    cmd = cmd + ["-o", out]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0 or "check: PASS" not in done.stdout:
        sys.exit(f"failed: {' '.join(cmd)}\n{done.stdout}{done.stderr[:4000]}")
    return json.load(open(os.path.join(out, "stats.json")))
