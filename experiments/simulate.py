# SPDX-License-Identifier: Apache-2.0
"""What the study scripts share: one `irrgpu run` whose workload check must pass."""
import json
import os
import subprocess
import sys


def simulate(cmd, out):
    """Runs the irrgpu command line `cmd` (without -o) writing into `out`; exits naming the command
    unless it succeeds with check: PASS. Returns the run's stats.json."""
    cmd = cmd + ["-o", out]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0 or "check: PASS" not in done.stdout:
        sys.exit(f"failed: {' '.join(cmd)}\n{done.stdout}{done.stderr[:4000]}")
    return json.load(open(os.path.join(out, "stats.json")))
