#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The reference pages `make docs` writes from the schemas and the statistics registry
(docs/configuration.md, docs/statistics.md) are what the build's irrgpu prints: a key or statistic
added without regenerating them fails here, naming the first line that differs.

Usage: generated_test.py IRRGPU SOURCE_DIR"""
import difflib
import os
import subprocess
import sys

irrgpu, source = sys.argv[1], sys.argv[2]
failed = False
for command, page in ((["config", "doc"], "configuration.md"), (["stats", "doc"], "statistics.md")):
    printed = subprocess.run([irrgpu, *command], check=True, capture_output=True, text=True).stdout
    path = os.path.join(source, "docs", page)
    with open(path) as f:
        kept = f.read()
    if printed != kept:
        diff = list(difflib.unified_diff(kept.splitlines(), printed.splitlines(), f"docs/{page}",
                                         f"irrgpu {' '.join(command)}", lineterm="", n=0))
        print(f"docs/{page} is not what `irrgpu {' '.join(command)}` prints (run `make docs`):")
        print("\n".join(diff[:12]))
        failed = True
    else:
        print(f"docs/{page}: as printed")
sys.exit(1 if failed else 0)
