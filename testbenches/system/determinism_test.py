# SPDX-License-Identifier: Apache-2.0
"""Determinism of every simulating test (docs/reliability.md): runs each test case of the given
GoogleTest executables four times, each Testbench writing its outputs (IRRGPU_TEST_OUTPUTS):
twice with the same seed, which must give byte-identical stats.json and stats.csv, once with
each clock period its own SystemC process and every edge its own SystemC event
(IRRGPU_TEST_SET=sim.run_ahead=false), which must give them
byte-identical too, and once with another seed (IRRGPU_TEST_SEED), which must leave the set of
statistics unchanged, every value too in a run that drew no seeded random stream, and change some
value in a run that drew one.

Usage: determinism_test.py WORKDIR EXECUTABLE...
"""
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys

OTHER_SEED = "20261123"


def test_cases(exe):
    listing = subprocess.run([exe, "--gtest_list_tests"], check=True, capture_output=True, text=True).stdout
    suite = ""
    for line in listing.splitlines():
        line = line.split("#")[0].rstrip()
        if not line:
            continue
        if line.startswith(" "):
            yield suite + line.strip()
        else:
            suite = line


def run(exe, case, out, seed, setting):
    env = dict(os.environ, IRRGPU_TEST_OUTPUTS=out)
    if seed:
        env["IRRGPU_TEST_SEED"] = seed
    if setting:
        env["IRRGPU_TEST_SET"] = setting
    r = subprocess.run([exe, "--gtest_filter=" + case], env=env, capture_output=True, text=True)
    # With another seed a test's own expectations may fail; its outputs are what is compared.
    if r.returncode != 0 and not seed:
        return f"{case} failed:\n{r.stdout[-3000:]}{r.stderr[-2000:]}"
    return None


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def main():
    work, exes = sys.argv[1], sys.argv[2:]
    shutil.rmtree(work, ignore_errors=True)
    jobs = [(exe, case) for exe in exes for case in test_cases(exe)]
    passes = {"a": (None, None), "b": (None, None), "stepped": (None, "sim.run_ahead=false"), "seed": (OTHER_SEED, None)}
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = [pool.submit(run, exe, case, os.path.join(work, p), seed, setting)
                   for exe, case in jobs for p, (seed, setting) in passes.items()]
        failures = [f.result() for f in futures if f.result()]
    if failures:
        print("\n".join(failures))
        return 1
    runs = sorted(os.listdir(os.path.join(work, "a"))) if os.path.isdir(os.path.join(work, "a")) else []
    problems, random_runs, changed = [], 0, 0
    for name in runs:
        a, b, stepped, c = (os.path.join(work, p, name) for p in passes)
        for f in ("stats.json", "stats.csv"):
            if not os.path.exists(os.path.join(b, f)) or read(os.path.join(a, f)) != read(os.path.join(b, f)):
                problems.append(f"{name}: {f} differs between two runs with the same seed")
            if not os.path.exists(os.path.join(stepped, f)) or read(os.path.join(a, f)) != read(os.path.join(stepped, f)):
                problems.append(f"{name}: {f} differs with every edge its own SystemC event (sim.run_ahead: false)")
        if not os.path.exists(os.path.join(c, "stats.json")):
            problems.append(f"{name}: no outputs with seed {OTHER_SEED}")
            continue
        sa, sc = (json.loads(read(os.path.join(d, "stats.json")))["stats"] for d in (a, c))
        if sorted(sa) != sorted(sc):
            problems.append(f"{name}: another seed changed which statistics exist: {sorted(set(sa) ^ set(sc))[:5]}")
        differing = [k for k in sa if k in sc and sa[k] != sc[k]]
        if int(read(os.path.join(a, "random_streams"))) == 0:
            if differing:
                problems.append(f"{name}: draws no random stream, yet another seed changed {differing[:5]}")
        else:
            random_runs += 1
            changed += bool(differing)
    print(f"{len(jobs)} test cases, {len(runs)} simulations compared (each run twice, without run-ahead and "
          f"with another seed); "
          f"{random_runs} draw seeded random streams, {changed} of them changed by the seed")
    if not runs:
        problems.append("no test wrote outputs (IRRGPU_TEST_OUTPUTS not honoured?)")
    if random_runs and not changed:
        problems.append("no run that draws random streams changed with the seed: the seed does not reach them")
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
