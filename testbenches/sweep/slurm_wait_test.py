#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""`irrgpu sweep run --backend slurm --wait` counts a job that ends between two of its looks.

Stand-ins for sbatch and squeue (first on PATH; no cluster needed): sbatch keeps the job array's
script, and the first squeue runs every task of it, as a job array that finishes just then would,
and answers with an empty queue. Every run's status is then on disk, so the wait must report all
of them done; reading the statuses before asking the queue (the bug this guards, seen on the test
cluster as "1 ended without a status") reported them missing. Then a job that never ends: Ctrl-C
stops the wait (exit 130), the job left to Slurm.

Usage: slurm_wait_test.py IRRGPU WORK_DIR"""
import os
import shutil
import signal
import subprocess
import sys
import time

irrgpu, work = sys.argv[1], os.path.abspath(sys.argv[2])
shutil.rmtree(work, ignore_errors=True)
bin_dir = os.path.join(work, "bin")
os.makedirs(bin_dir)


def tool(name, body):
    path = os.path.join(bin_dir, name)
    with open(path, "w") as f:
        f.write("#!/bin/bash\n" + body)
    os.chmod(path, 0o755)


tool("sbatch", f'echo "$2" > {work}/script\necho 7\n')
tool("squeue", f"""[ -f {work}/script ] || exit 0
script=$(cat {work}/script); rm {work}/script
last=$(sed -n 's/^#SBATCH --array=0-\\([0-9]*\\).*/\\1/p' "$script")
for i in $(seq 0 "$last"); do SLURM_ARRAY_TASK_ID=$i bash "$script" >/dev/null 2>&1; done
""")
spec = os.path.join(work, "wait.yaml")
with open(spec, "w") as f:
    f.write("""name: wait
config: kim4x16
workload: bfs
graph: "grid:rows=8,cols=8"
variant: [data, topology, data_warp]
""")
env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
p = subprocess.run([irrgpu, "sweep", "run", spec, "-o", "out", "--backend", "slurm", "--wait"],
                   capture_output=True, text=True, env=env, cwd=work, timeout=300)
print(p.stdout, p.stderr)
if p.returncode != 0 or "3/3 done, 0 failed\n" not in p.stdout:
    sys.exit(f"the wait missed runs whose job ended between its looks (exit {p.returncode})")
print("every run of a job array that ended between the wait's looks was counted")

# Ctrl-C while the wait looks at a job that never ends: it stops waiting, saying the jobs go on.
tool("squeue", "echo 7\n")
wait = subprocess.Popen([irrgpu, "sweep", "run", spec, "-o", "out2", "--backend", "slurm", "--wait"],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=work)
deadline = time.time() + 120
while not os.path.exists(os.path.join(work, "script")) and time.time() < deadline:  # submitted: the wait starts
    time.sleep(0.1)
time.sleep(1)
wait.send_signal(signal.SIGINT)
out, err = wait.communicate(timeout=60)
print(out, err)
if wait.returncode != 130 or "stopped waiting; the jobs go on" not in out:
    sys.exit(f"Ctrl-C did not stop the wait (exit {wait.returncode})")
print("Ctrl-C stopped the wait and left the job to Slurm")
