#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""`irrgpu sweep run --backend slurm --wait` counts a job that ends between two of its looks.

Stand-ins for sbatch and squeue (first on PATH; no cluster needed): sbatch keeps the job array's
script, and the first squeue runs every task of it, as a job array that finishes just then would,
and answers with an empty queue. Every run's status is then on disk, so the wait must report all
of them done; reading the statuses before asking the queue (the bug this guards, seen on the test
cluster as "1 ended without a status") reported them missing.

Usage: slurm_wait_test.py IRRGPU WORK_DIR"""
import os
import shutil
import subprocess
import sys

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
