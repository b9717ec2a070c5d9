#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Regenerates the checked-in PTX of the test kernels and their resource metadata (needs nvcc and
# ptxas; the build never does). NAME.meta.json holds what `ptxas -v` reports per kernel.
# Headers (*.cuh) are included, not compiled.
set -euo pipefail
# Usage: regenerate.sh [DIR]  (default: this folder)
cd "${1:-$(dirname "$0")}"
for cu in *.cu; do
  ptx="${cu%.cu}.ptx"
  nvcc -ptx -arch=sm_75 -lineinfo "$cu" -o "$ptx"
  sed -i "s|\"$(pwd)/|\"|" "$ptx"  # no machine paths in checked-in files
  # ptxas refuses extension instructions: the IRU's ldiru is shown to it as register writes (clock
  # reads, which it cannot fold), one per operand; for others (the HWWL's) no metadata, the
  # runtime estimates.
  sed -E -e 's/ldiru\.b32 (%r[0-9]+), (%r[0-9]+), (%r[0-9]+), (%r[0-9]+);/mov.u32 \1, %clock; mov.u32 \2, %clock; mov.u32 \3, %clock; mov.u32 \4, %clock;/' \
    -e 's/ldiru\.b32 (%r[0-9]+), (%r[0-9]+), (%r[0-9]+);/mov.u32 \1, %clock; mov.u32 \2, %clock; mov.u32 \3, %clock;/' \
    -e 's/ldiru\.b32 (%r[0-9]+), (%r[0-9]+);/mov.u32 \1, %clock; mov.u32 \2, %clock;/' \
    "$ptx" > "$ptx.ptxas"
  { ptxas -arch=sm_75 -v "$ptx.ptxas" -o /dev/null 2>&1 || true; rm -f "$ptx.ptxas"; } | python3 -c '
import json, re, sys
meta, kernel = {}, None
for line in sys.stdin:
    m = re.search(r"Compiling entry function .(\w+).", line)
    if m: kernel = m.group(1); meta[kernel] = {"registers": 0, "shared_bytes": 0, "local_bytes": 0}
    m = re.search(r"Used (\d+) registers", line)
    if m and kernel: meta[kernel]["registers"] = int(m.group(1))
    m = re.search(r"(\d+) bytes smem", line)
    if m and kernel: meta[kernel]["shared_bytes"] = int(m.group(1))
    m = re.search(r"(\d+) bytes stack frame", line)
    if m and kernel: meta[kernel]["local_bytes"] = int(m.group(1))
print(json.dumps({"generator": "ptxas -arch=sm_75 -v", "kernels": meta}, indent=2, sort_keys=True))
' > "${cu%.cu}.meta.json"
done
