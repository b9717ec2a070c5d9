# SPDX-License-Identifier: Apache-2.0
"""The sample sessions of the docs run as written: in a fenced block of any page under docs/ (and the
README), a line `$ irrgpu ARGS` is run (in a scratch folder) and the lines after it, up to the next
`$ ` line or the block's end, are what it must print, in that order (stdout then stderr); `...`
stands for lines left out, and a run's speed line is compared up to its host time. `$ cat FILE`
followed by lines writes FILE with them first (the page shows its input). So a page whose sample
output goes stale fails here.

Usage: samples_test.py IRRGPU SOURCE_DIR
"""
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

irrgpu, source = os.path.abspath(sys.argv[1]), sys.argv[2]
pages = sorted(glob.glob(os.path.join(source, "docs", "**", "*.md"), recursive=True)) + [os.path.join(source, "README.md")]
HOST = re.compile(r"^(simulated .*) in [\d.]+ s host: .*$")  # the speed line: host time and rates vary
failures, samples = [], 0


def sessions(path):
    """(line number, command, expected lines) of each `$ ` line in the page's fenced blocks."""
    out, fenced, current = [], False, None
    for number, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if line.startswith("```"):
            fenced = not fenced
            current = None
            continue
        if not fenced:
            continue
        if line.startswith("$ "):
            current = (number, line[2:], [])
            out.append(current)
        elif current:
            current[2].append(line)
    return out


def matches(expected, actual):
    """Expected lines appear in order among the actual ones."""
    it = iter(actual)
    for want in expected:
        if want == "...":
            continue
        m = HOST.match(want)
        if not any((HOST.match(got) and HOST.match(got).group(1) == m.group(1)) if m else got == want for got in it):
            return want
    return None


for page in pages:
    with tempfile.TemporaryDirectory() as work:
        for number, command, expected in sessions(page):
            where = f"{os.path.relpath(page, source)}:{number}"
            args = shlex.split(command)
            if args[0] == "cat" and len(args) == 2:
                with open(os.path.join(work, args[1]), "w") as f:
                    f.write("\n".join(expected) + "\n")
                continue
            if args[0] != "irrgpu":
                continue
            samples += 1
            r = subprocess.run([irrgpu] + args[1:], cwd=work, capture_output=True, text=True, timeout=600)
            missing = matches([e for e in expected if e.strip()], (r.stdout + r.stderr).split("\n"))
            if missing is not None:
                failures.append(f"{where}: `{command}` did not print: {missing}\n    it printed:\n      " +
                                "\n      ".join((r.stdout + r.stderr).strip().split("\n")[:20]))
            print(("FAIL " if missing is not None else "ok   ") + f"{where}: {command}")

print(f"{samples} sample sessions, {len(failures)} stale")
for f in failures:
    print(f)
sys.exit(1 if failures or samples == 0 else 0)
