#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Whether timed cost is linear in work (docs/performance.md): timed bfs/data on the gtx480 preset
# at R-MAT scales 12 to 18, one run each, with host nanoseconds per thread instruction, per core
# cycle of the 15 SMs and per memory transaction, and the process's peak memory.
# Usage: bench/timing_scaling.sh [BUILD_DIR] [SCALES...]   (default scales: 12 14 16 18)
set -euo pipefail
build=${1:-build}
shift || true
scales=("${@:-12 14 16 18}")
irrgpu="$build/apps/irrgpu/irrgpu"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-6s %12s %10s %12s %12s %10s %10s %10s %9s\n' scale "thread inst" "host s" "Mt inst/s" "core cycles" \
  "ns/inst" "ns/cycle" "us/txn" "peak MiB"
for s in ${scales[*]}; do
  "$irrgpu" run -q --mode timing --workload bfs --variant data --graph "rmat:scale=$s" -o "$tmp/$s" >/dev/null
  python3 - "$tmp/$s" "$s" <<'PY'
import json, sys
d, s = sys.argv[1], sys.argv[2]
w, r = json.load(open(d + "/workload.json")), json.load(open(d + "/run.json"))
t, host, cyc, tx = w["thread_instructions"], w["host_seconds"], r["cycles"]["core"], r["memory_transactions"]
print(f"{s:<6} {t:>12,} {host:>10.2f} {t / host / 1e6:>12.2f} {cyc:>12,} {host / t * 1e9:>10.0f} "
      f"{host / cyc * 1e9:>10.0f} {host / tx * 1e6:>10.2f} {r.get('peak_memory_bytes', float('nan')) / 2**20:>9.0f}")
PY
done
