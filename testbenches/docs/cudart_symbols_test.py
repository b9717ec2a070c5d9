# SPDX-License-Identifier: Apache-2.0
"""docs/cuda-apps.md's "What is supported" table names exactly the functions irrgpu's
libcudart.so.13 exports: a call added to the library and not to the page, or listed and not
exported, fails here. Usage: cudart_symbols_test.py LIBCUDART DOC"""
import re
import subprocess
import sys

lib, doc = sys.argv[1], sys.argv[2]
out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True, capture_output=True, text=True).stdout
exported = {line.split()[-1].split("@")[0] for line in out.splitlines() if line.split()[-1].startswith(("cuda", "__cuda", "irrgpu"))}

text = open(doc, encoding="utf-8").read()
section = text[text.index("## What is supported"):]
section = section[:section.index("\n## ", 1)]
listed = set()
for row in (l for l in section.splitlines() if l.startswith("| ")):
    api = row.split(" | ")[0]
    # `name`(`Suffix`) lists name and nameSuffix
    for name, suffix in re.findall(r"`((?:__)?(?:cuda|irrgpu)\w*)`(?:\(`(\w+)`\))?", api):
        listed.add(name)
        if suffix:
            listed.add(name + suffix)

missing, extra = sorted(exported - listed), sorted(listed - exported)
for name in missing:
    print(f"{doc}: {name} is exported by {lib} but not in the table of what is supported")
for name in extra:
    print(f"{doc}: {name} is in the table of what is supported but {lib} does not export it")
print(f"cudart symbols: {len(exported)} exported, {len(listed)} listed")
sys.exit(1 if missing or extra else 0)
