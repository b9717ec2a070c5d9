#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""irrgpu sweep on Slurm end to end: a single-node cluster started here (munged, slurmctld and slurmd
from Debian's munge and slurm-wlm, a generated slurm.conf on free unprivileged ports, everything
under WORK_DIR), the same sweep file run as a job array and on this machine, each run's statistics
byte-identical between the two and the collected CSVs the same but for host times; the cluster
stopped at the end. Exits 77 (skipped), saying why,
only where the cluster cannot start.

Usage: slurm_test.py IRRGPU WORK_DIR"""
import csv
import filecmp
import getpass
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

SKIP = 77
irrgpu, work = sys.argv[1], os.path.abspath(sys.argv[2])
shutil.rmtree(work, ignore_errors=True)
os.makedirs(os.path.join(work, "state"))
os.makedirs(os.path.join(work, "spool"))


def skip(why):
    print(f"SKIPPED: {why}")
    sys.exit(SKIP)


for tool in ("munged", "mungekey", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo"):
    if not shutil.which(tool, path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin"):
        skip(f"{tool} is not installed (the Debian packages slurm-wlm and munge; make deps installs them)")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tool(name):
    return shutil.which(name, path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")


host = socket.gethostname().split(".")[0]
user = getpass.getuser()
mem_mb = int(open("/proc/meminfo").read().split("MemAvailable:")[1].split()[0]) // 1024 // 2
conf = os.path.join(work, "slurm.conf")
with open(conf, "w") as f:
    f.write(f"""ClusterName=irrgputest
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
SlurmUser={user}
SlurmdUser={user}
AuthType=auth/munge
AuthInfo=socket={work}/munge.socket
CredType=cred/munge
StateSaveLocation={work}/state
SlurmdSpoolDir={work}/spool
SlurmctldPidFile={work}/slurmctld.pid
SlurmdPidFile={work}/slurmd.pid
SlurmctldLogFile={work}/slurmctld.log
SlurmdLogFile={work}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName={host} NodeAddr=127.0.0.1 CPUs={os.cpu_count()} RealMemory={mem_mb} State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
""")
env = dict(os.environ, SLURM_CONF=conf)
daemons = []  # pid files of what this test started


def start(cmd, pid_file, what):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    deadline = time.time() + 20
    while time.time() < deadline and not os.path.exists(pid_file):
        time.sleep(0.1)
    if p.returncode != 0 or not os.path.exists(pid_file):
        log = pid_file.replace(".pid", ".log")
        tail = open(log).read()[-1500:] if os.path.exists(log) else ""
        stop()
        skip(f"{what} did not start: {p.stderr.strip()} {tail}")
    daemons.append(pid_file)


def stop():
    for pid_file in reversed(daemons):
        try:
            os.kill(int(open(pid_file).read().split()[0]), signal.SIGTERM)
        except (OSError, ValueError):
            pass
    time.sleep(0.5)


key = os.path.join(work, "munge.key")
subprocess.run([tool("mungekey"), "-c", "-k", key], check=True, capture_output=True)
os.chmod(key, 0o600)
start([tool("munged"), f"--socket={work}/munge.socket", f"--key-file={key}", f"--pid-file={work}/munged.pid",
       f"--log-file={work}/munged.log", f"--seed-file={work}/munged.seed", "-f"], f"{work}/munged.pid", "munged")
try:
    start([tool("slurmctld"), "-f", conf], f"{work}/slurmctld.pid", "slurmctld")
    start([tool("slurmd"), "-f", conf, "-N", host], f"{work}/slurmd.pid", "slurmd")
    deadline = time.time() + 60
    while time.time() < deadline:
        state = subprocess.run(["sinfo", "-h", "-o", "%T"], capture_output=True, text=True, env=env).stdout.strip()
        if state == "idle":
            break
        time.sleep(0.5)
    else:
        skip(f"the test cluster's node did not come up (sinfo: '{state}'); see {work}/slurmd.log")

    spec = os.path.join(work, "cluster.yaml")
    with open(spec, "w") as f:
        f.write("""name: cluster
config: kim4x16
workload: bfs
graph: "grid:rows=16,cols=16"
variant: [data, topology, data_warp]
resources: {time: "00:05:00"}
slurm: {partition: test, throttle: 2, setup: ["export IRRGPU_TEST_SETUP=1"]}
""")
    run = lambda *a: subprocess.run([irrgpu, "sweep", *a], capture_output=True, text=True, env=env, cwd=work, timeout=600)
    p = run("run", spec, "-o", "on-slurm", "--backend", "slurm", "--wait")
    print(p.stdout, p.stderr)
    failures = []
    if p.returncode != 0:
        failures.append(f"the Slurm sweep failed ({p.returncode})")
    script = open(os.path.join(work, "on-slurm", "slurm", "submit-0.sbatch")).read()
    for line in ("#SBATCH --array=0-2%2", "#SBATCH --partition=test", "#SBATCH --time=00:05:00", "export IRRGPU_TEST_SETUP=1"):
        if line not in script:
            failures.append(f"the job array's script lacks '{line}'")
    status = run("status", "on-slurm").stdout
    if "done 3" not in status:
        failures.append(f"status after the job array: {status}")
    p = run("run", spec, "-o", "here", "-j", "2")
    plan = json.load(open(os.path.join(work, "on-slurm", "runs.json")))
    for r in plan["runs"]:
        a, b = (os.path.join(work, d, "runs", r["id"], "stats.json") for d in ("on-slurm", "here"))
        if not (os.path.exists(a) and os.path.exists(b) and filecmp.cmp(a, b, shallow=False)):
            failures.append(f"{r['id']}: statistics differ between the cluster and this machine")
    # The test of done: the same CSV from both, host times aside.
    tables = []
    for d in ("on-slurm", "here"):
        run("collect", d)
        with open(os.path.join(work, d, "results.csv")) as f:
            rows = list(csv.DictReader(f))
        tables.append([{k: v for k, v in r.items() if k not in ("seconds", "max_rss_mb")} for r in rows])
    if not tables[0] or tables[0] != tables[1]:
        failures.append("the collected CSVs differ between the cluster and this machine (host times aside)")
    p = run("run", spec, "-o", "on-slurm", "--backend", "slurm")
    if "3 done, 0 to run" not in p.stderr:
        failures.append("a finished Slurm sweep submitted again")
finally:
    stop()
if failures:
    sys.exit("\n".join(failures))
print("the sweep ran on the test cluster as on this machine")
