#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""irrgpu sweep end to end on this machine (docs/sweeps.md): a tiny sweep runs, each run's
statistics byte-identical to the same `irrgpu run`; a second run reruns nothing; a sweep stopped
with SIGTERM leaves its runs done or interrupted and resumes without redoing the done ones; a failed
run is listed with its error line and rerun only on request; a second sweep in the same folder is
refused; collect, report and plot work on the results.

Usage: local_test.py IRRGPU WORK_DIR"""
import csv
import fcntl
import filecmp
import json
import os
import shutil
import signal
import subprocess
import sys
import time

irrgpu, work = sys.argv[1:3]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failures = []


def expect(what, ok):
    if not ok:
        failures.append(what)
        print("FAILED:", what)


def sweep(*args, check=None):
    p = subprocess.run([irrgpu, "sweep", *args], capture_output=True, text=True, cwd=work)
    if check is not None and p.returncode != check:
        sys.exit(f"irrgpu sweep {' '.join(args)}: exit {p.returncode}, expected {check}\n{p.stdout}{p.stderr}")
    return p


def write(name, text):
    with open(os.path.join(work, name), "w") as f:
        f.write(text)
    return os.path.join(work, name)


def states(folder):
    plan = json.load(open(os.path.join(work, folder, "runs.json")))
    out = {}
    for r in plan["runs"]:
        path = os.path.join(work, folder, "runs", r["id"], "status.json")
        out[r["id"]] = json.load(open(path))["state"] if os.path.exists(path) else "pending"
    return out


# 1. A 2 x 2 sweep with a report: every run done, each the same as irrgpu run by hand.
tiny = write("tiny.yaml", """name: tiny
config: kim4x16
workload: bfs
graph: "grid:rows=16,cols=16"
variant: [data, topology]
set:
  core.scheduler: [gto, lrr]
report: ["{irrgpu}", sweep, collect, "{dir}"]
""")
p = sweep("run", tiny, "-o", "tiny", "-j", "2", check=0)
st = states("tiny")
expect("four runs, all done", len(st) == 4 and set(st.values()) == {"done"})
plan = json.load(open(os.path.join(work, "tiny", "runs.json")))
first = plan["runs"][0]
subprocess.run([irrgpu, *first["args"], "-o", os.path.join(work, "by-hand")], check=True, capture_output=True)
expect("a sweep run's stats.json is the same as irrgpu run's",
       filecmp.cmp(os.path.join(work, "by-hand", "stats.json"), os.path.join(work, "tiny", "runs", first["id"], "stats.json"),
                   shallow=False))
expect("the report ran (collect)", os.path.exists(os.path.join(work, "tiny", "results.csv")))
rows = list(csv.DictReader(open(os.path.join(work, "tiny", "results.csv"))))
expect("results.csv: a row per run with its parameters and statistics",
       len(rows) == 4 and {r["core.scheduler"] for r in rows} == {"gto", "lrr"} and all(float(r["gpu.total.core_cycles"]) > 0 for r in rows))
lrr = [r for r in rows if r["core.scheduler"] == "lrr" and r["variant"] == "data"][0]
gto = [r for r in rows if r["core.scheduler"] == "gto" and r["variant"] == "data"][0]
expect("the configuration axis reached the runs", lrr["gpu.total.core_cycles"] != gto["gpu.total.core_cycles"])
dry = sweep("run", tiny, "--dry-run", check=0).stdout
expect("--dry-run lists every run with its command line", dry.count("irrgpu run -q --config kim4x16") == 4 and "4 runs" in dry)

# 2. Run again: nothing reruns.
mtimes = {i: os.path.getmtime(os.path.join(work, "tiny", "runs", i, "stats.json")) for i in st}
p = sweep("run", tiny, "-o", "tiny", "--no-report", check=0)
expect("a finished sweep runs nothing again", "4 done, 0 to run" in p.stderr and
       all(os.path.getmtime(os.path.join(work, "tiny", "runs", i, "stats.json")) == m for i, m in mtimes.items()))

# 3. Stopped with SIGTERM, then resumed.
slow = write("slow.yaml", """name: slow
config: kim4x16
workload: bfs
variant: data
graph: "rmat:scale=13"
seed: {from: 1, to: 4, step: 1}
""")
proc = subprocess.Popen([irrgpu, "sweep", "run", slow, "-o", "slow", "-j", "1"], cwd=work, stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, text=True)
deadline = time.time() + 120
while time.time() < deadline and not (os.path.exists(os.path.join(work, "slow", "runs.json")) and
                                      "done" in states("slow").values()):
    time.sleep(0.05)
proc.send_signal(signal.SIGTERM)
out, err = proc.communicate(timeout=120)
st = states("slow")
done_before = {i for i, s in st.items() if s == "done"}
expect(f"a stopped sweep exits 130 (got {proc.returncode})", proc.returncode == 130)
expect("a stopped sweep says how to resume", "again resumes" in err)
expect("runs are done, interrupted or pending after a stop", set(st.values()) <= {"done", "interrupted", "pending"} and done_before)
expect("an interrupted run says so", all(json.load(open(os.path.join(work, "slow", "runs", i, "status.json")))["error"].startswith("interrupted")
                                         for i, s in st.items() if s == "interrupted"))
mtimes = {i: os.path.getmtime(os.path.join(work, "slow", "runs", i, "stats.json")) for i in done_before}
sweep("run", slow, "-o", "slow", "-j", "2", check=0)
expect("the resumed sweep finished every run", set(states("slow").values()) == {"done"})
expect("the resumed sweep did not redo the done runs",
       all(os.path.getmtime(os.path.join(work, "slow", "runs", i, "stats.json")) == m for i, m in mtimes.items()))

# 4. A failed run: its error line in status; rerun only with --rerun-failed.
bad = write("bad.yaml", "workload: bfs\nconfig: kim4x16\ngraph: \"grid:rows=8,cols=8\"\nvariant: [data, nosuch]\n")
p = sweep("run", bad, "-o", "bad", check=1)
status = sweep("status", "bad", check=0).stdout
expect("status lists the failed run with its error line", "failed 1" in status and "'nosuch' is not a variant of bfs" in status)
p = sweep("run", bad, "-o", "bad", check=1)
expect("a failed run is not rerun by default", "0 to run" in p.stderr and "--rerun-failed" in p.stderr)
p = sweep("run", bad, "-o", "bad", "--rerun-failed", check=1)
expect("--rerun-failed reruns it", "1 to run" in p.stderr and "failed bfs-nosuch" in p.stderr)

# 5. One sweep per folder at a time.
with open(os.path.join(work, "tiny", ".lock"), "w") as lock:
    fcntl.flock(lock, fcntl.LOCK_EX)
    p = sweep("run", tiny, "-o", "tiny", check=2)
    expect("a second sweep in a busy folder is refused", "another `irrgpu sweep run` is using this folder" in p.stderr)

# 6. Errors: not a sweep folder; a bad sweep file names file:line.
p = sweep("status", "nowhere", check=2)
expect("status of a folder without runs.json", "not a sweep folder" in p.stderr)
p = sweep("run", write("typo.yaml", "workload: bfs\nset:\n  l1.sise: 1KiB\n"), check=2)
expect("a typo in a sweep file names its line", "typo.yaml:3:12: l1.sise: unknown key" in p.stderr)

# 7. collect as JSON; plots from the CSV (where matplotlib is installed).
sweep("collect", "tiny", "-o", "tiny.json", "--stats", "gpu.total.*", check=0)
rows = json.load(open(os.path.join(work, "tiny.json")))
expect("collect --stats keeps only the statistics asked for",
       len(rows) == 4 and all(k.startswith("gpu.total.") for r in rows for k in r["stats"]) and rows[0]["params"]["workload"] == "bfs")
if subprocess.run(["/usr/bin/python3", "-c", "import matplotlib"], capture_output=True).returncode == 0:
    for kind, extra in (("bars", ["--baseline", "variant=data", "--x", "core.scheduler", "--series", "variant"]),
                        ("lines", ["--x", "seed"]), ("stalls", ["--label", "variant,core.scheduler", "--share"])):
        results = os.path.join(work, "slow" if kind == "lines" else "tiny", "results.csv")
        if kind == "lines":
            sweep("collect", "slow", check=0)
        out = os.path.join(work, "plots", kind + ".png")
        p = subprocess.run([irrgpu, "plot", kind, results, "-o", out, "--also", "pdf", *extra], capture_output=True, text=True)
        expect(f"irrgpu plot {kind} writes PNG and PDF ({p.stderr.strip()})", p.returncode == 0 and os.path.getsize(out) > 1000 and
               os.path.getsize(out[:-4] + ".pdf") > 1000)
    p = subprocess.run([irrgpu, "plot", "bars", os.path.join(work, "tiny", "results.csv"), "--baseline", "variant=none",
                        "-o", os.path.join(work, "x.png")], capture_output=True, text=True)
    expect("plot names a missing baseline", p.returncode != 0 and "no baseline run with variant=none" in p.stderr)
else:
    print("plots not checked: /usr/bin/python3 has no matplotlib (python3-matplotlib)")

if failures:
    sys.exit(f"{len(failures)} failed")
print("sweep end to end: all checks hold")
