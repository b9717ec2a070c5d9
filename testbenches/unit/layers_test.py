#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The layers of DESIGN.md as the code has them: every #include of a project header points down.

apps -> models/gpu -> units -> models/runtime -> models/core -> models/mem -> tlm_glue -> sim, with
models/blocks (RTL-island plumbing) beside mem and models/power (the energy model, over sim alone)
beneath mem and the units; units never include each other. Usage:
layers_test.py SOURCE_DIR. Prints each include that points elsewhere and exits 1 if there is one.
"""
import pathlib
import re
import sys

BELOW = {  # a layer -> the layers it may include besides itself
    "sim": set(),
    "tlm_glue": {"sim"},
    "models/mem": {"tlm_glue", "models/power", "sim"},
    "models/blocks": {"tlm_glue", "sim"},
    "models/core": {"models/mem", "tlm_glue", "sim"},
    "models/runtime": {"models/core", "models/mem", "tlm_glue", "sim"},
    "models/cudart": {"models/runtime", "models/core", "models/mem", "tlm_glue", "sim"},
    "models/power": {"sim"},
}
UNIT_BELOW = {"models/runtime", "models/core", "models/mem", "models/blocks", "models/power", "tlm_glue", "sim"}


def unit_folders(root: pathlib.Path) -> set:
    """The unit folders, as models/CMakeLists.txt lists them (IRRGPU_UNITS)."""
    m = re.search(r"set\(IRRGPU_UNITS ([^)]*)\)", (root / "models/CMakeLists.txt").read_text())
    if not m:
        sys.exit("models/CMakeLists.txt sets no IRRGPU_UNITS")
    return set(m.group(1).split())


def layer(path: str) -> str:
    parts = path.split("/")
    return "/".join(parts[:2]) if parts[0] == "models" else parts[0]


def main() -> int:
    root = pathlib.Path(sys.argv[1])
    units = unit_folders(root)
    BELOW.update({f"models/{u}": UNIT_BELOW for u in units})
    BELOW["models/gpu"] = {f"models/{u}" for u in units} | UNIT_BELOW
    bad, checked = [], 0
    for top in ("sim", "tlm_glue", "models"):
        for f in sorted((root / top).rglob("*")):
            if f.suffix not in (".h", ".cpp"):
                continue
            src = layer(f.relative_to(root).as_posix())
            if src not in BELOW:
                bad.append(f"{f.relative_to(root)}: its folder is in no layer (add it to layers_test.py)")
                continue
            for n, line in enumerate(f.read_text(errors="replace").splitlines(), 1):
                m = re.match(r'\s*#\s*include\s+"([a-z_]+/[a-z_]+)', line)
                if not m:
                    continue
                dst = layer(m.group(1))
                if dst not in BELOW:  # a generated or third-party header
                    continue
                checked += 1
                if dst != src and dst not in BELOW[src]:
                    bad.append(f"{f.relative_to(root)}:{n}: {src} includes {dst} ({m.group(1)}...), which is not below it")
    for b in bad:
        print(b)
    print(f"{checked} includes checked: {len(bad)} against the layers")
    return 1 if bad or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
