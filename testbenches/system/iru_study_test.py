#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The IRU study end to end on one input (label slow: some ten minutes): experiments/iru_study.py
on the cond shape, BFS, SSSP and PageRank, IRU off and on, atomics by thread and by line, SSSP's
baseline with its software filter, PageRank's next frontier built in three places; the findings
docs/results/iru.md reports for it must still hold.

Usage: iru_study_test.py SOURCE_DIR BUILD_DIR"""
import subprocess
import sys

source, build = sys.argv[1:3]
out = subprocess.run([sys.executable, f"{source}/experiments/iru_study.py", "--build", build, "--graph", "cond",
                      "--sections", "study,atomics,culling,fused"], capture_output=True, text=True)
if out.returncode:
    sys.exit(f"iru_study.py failed ({out.returncode}):\n{out.stdout}{out.stderr}")
print(out.stdout)

tables, table = {}, None  # heading -> rows of cells
for line in out.stdout.splitlines():
    if line.startswith("## "):
        table = tables.setdefault(line[3:], [])
    elif line.startswith("| ") and table is not None and not line.startswith("|---"):
        table.append([c.strip() for c in line.strip("|").split("|")])


def row(heading, first, second=None):
    matches = [t for h, t in tables.items() if h.startswith(heading)]
    assert matches, f"no table '{heading}' in the output"
    header = matches[0][0]
    for r in matches[0][1:]:
        if r[0] == first and (second is None or r[1] == second):
            return dict(zip(header, r))
    raise AssertionError(f"no row {first} {second or ''} under '{heading}'")


number = lambda cell: float(cell.replace(",", "").replace("%", "").split()[0])
failures = []


def expect(what, ok):
    if not ok:
        failures.append(what)


# The reorder unit speeds up BFS's and SSSP's contraction on a power-law input whose target
# outgrows the L1, and PageRank's once atomics are coalesced by line (GPGPU-Sim's); each with
# fewer L1 accesses.
contraction = lambda r: [number(x) for x in r["contraction kernel: cycles off / on"].split("/")]
for w, r in (("bfs", row("bfs: IRU off", "cond")), ("sssp", row("sssp: IRU off", "cond")), ("pr", row("Atomics", "pr", "line"))):
    off, on = contraction(r)
    expect(f"{w}: the contraction is faster with the IRU ({off:,.0f} -> {on:,.0f} cycles)", on < off)
for w in ("bfs", "sssp", "pr"):
    expect(f"{w}: fewer L1 accesses with the IRU", number(row(f"{w}: IRU off", "cond")["L1 accesses"]) < 100)
# Filters: SSSP's min and PageRank's add merge duplicates; BFS has no filter.
expect("bfs: nothing filtered", number(row("bfs: IRU off", "cond")["filtered"]) == 0)
for w in ("sssp", "pr"):
    expect(f"{w}: the filter merged elements", number(row(f"{w}: IRU off", "cond")["filtered"]) > 10)
# Atomics by line: a warp's contraction atomics need fewer requests once ordered by the IRU.
for w in ("sssp", "pr"):
    thread, line = row("Atomics", w, "thread"), row("Atomics", w, "line")
    key = "requests per warp load in the contraction, off -> on"
    t_on, l_on = number(thread[key].split("->")[1]), number(line[key].split("->")[1])
    expect(f"{w}: by line, the IRU's warps make fewer requests per atomic ({l_on} < {t_on})", l_on < t_on)
# SSSP's software filter drops most elements before their atomic, and the IRU still gains over it.
culled = row("SSSP's baseline with a software", "cond")
expect("sssp: the software filter drops most elements",
       number(culled["elements dropped: by the software filter, by the IRU"].split(",")[0]) > 50)
expect("sssp: the IRU gains over the baseline with the software filter", number(culled["IRU over culled"]) > 1)
# PageRank's frontier step: built over the vertices the baseline is faster and the IRU gains more than
# with ours over the edge frontier; built in the contraction the next expansion's loads coalesce.
split, vertices, fused = (row("PageRank with the next frontier", "cond", f) for f in ("split", "vertices", "fused"))
cycles = lambda r: [number(x) for x in r["cycles off / on"].split("/")]
expect("pr: the vertex-order baseline is faster than ours", cycles(vertices)[0] < cycles(split)[0])
expect("pr: the IRU gains more with the frontier over the vertices", number(vertices["speedup"]) > number(split["speedup"]) + 0.1)
coalescing = [number(x) for x in fused["requests per warp load in the expansion, off -> on"].split("->")]
expect(f"pr: in the IRU's order the expansion makes fewer requests a load ({coalescing})", coalescing[1] < coalescing[0] / 2)
if failures:
    sys.exit("FAILED:\n  " + "\n  ".join(failures))
print("iru_study_test: all findings hold")
