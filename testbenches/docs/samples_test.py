# SPDX-License-Identifier: Apache-2.0
"""The sample sessions of the docs run as written: in a fenced block of any page under docs/ (and the
README), a line `$ irrgpu ARGS` is run (in a scratch folder, one a page) and the lines after it, up
to the next `$ ` line or the block's end, are what it must print, in that order (stdout then
stderr). `...` alone stands for lines left out, a line ending in `...` for any line it begins;
a line with a host time (`... in 0.25 s host: ...`) is compared up to it. A command must succeed
unless its lines show an error. `$ cat FILE` followed by lines writes FILE with them first (the page
shows its input); `$ nvcc ...` runs where nvcc is installed, and the page's later commands are
skipped, saying so, where it is not. So a page whose sample output goes stale fails here.

Usage: samples_test.py IRRGPU SOURCE_DIR
"""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

irrgpu, source = os.path.abspath(sys.argv[1]), sys.argv[2]
pages = sorted(glob.glob(os.path.join(source, "docs", "**", "*.md"), recursive=True)) + [os.path.join(source, "README.md")]
HOST = re.compile(r"^(.*) in [\d.]+ s host: .*$")  # host time and rates vary
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


def same(want, got):
    if want.endswith("..."):
        return got.startswith(want[:-3])
    m, g = HOST.match(want), HOST.match(got)
    return (g is not None and g.group(1) == m.group(1)) if m else got == want


def matches(expected, actual):
    """Expected lines appear in order among the actual ones (the first that does not, or None)."""
    it = iter(actual)
    for want in expected:
        if want != "..." and not any(same(want, got) for got in it):
            return want
    return None


def nvcc():
    found = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    return found if os.access(found, os.X_OK) else None


for page in pages:
    with tempfile.TemporaryDirectory() as work:
        skipping = None
        for number, command, expected in sessions(page):
            where = f"{os.path.relpath(page, source)}:{number}"
            args = shlex.split(command)
            if args[0] == "cat" and len(args) == 2:
                with open(os.path.join(work, args[1]), "w") as f:
                    f.write("\n".join(expected) + "\n")
                continue
            if args[0] == "nvcc" and not nvcc():
                skipping = "nvcc is not installed"
            if skipping:
                print(f"skip {where}: {command} ({skipping})")
                continue
            if args[0] not in ("irrgpu", "nvcc"):
                continue
            samples += 1
            program = irrgpu if args[0] == "irrgpu" else nvcc()
            r = subprocess.run([program] + args[1:], cwd=work, capture_output=True, text=True, timeout=900)
            printed = r.stdout + r.stderr
            missing = matches([e for e in expected if e.strip()], printed.split("\n"))
            failed = r.returncode != 0 and not any("error" in e for e in expected)
            if missing is not None or failed:
                why = f"did not print: {missing}" if missing is not None else f"exited {r.returncode}"
                failures.append(f"{where}: `{command}` {why}\n    it printed:\n      " +
                                "\n      ".join(printed.strip().split("\n")[:20]))
            print(("FAIL " if missing is not None or failed else "ok   ") + f"{where}: {command}")

print(f"{samples} sample sessions, {len(failures)} stale")
for f in failures:
    print(f)
sys.exit(1 if failures or samples == 0 else 0)
