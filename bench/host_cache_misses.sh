#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Host cache misses of timed bfs/data at R-MAT scale 13 (cachegrind's simulated caches, 32 KiB
# 8-way level-1 instruction and data caches with 64-byte lines, given explicitly so that every
# host counts alike): a component's step reads lines of its own state that the other components'
# steps evicted since its last, so misses are much of a step's cost, and like callgrind's
# instruction counts (bench/host_instructions.sh) a noisy machine does not move them
# (docs/performance.md). Given a second build, its counts and the ratios.
# Usage: bench/host_cache_misses.sh [BUILD_DIR] [BASELINE_BUILD_DIR]
set -euo pipefail
command -v valgrind >/dev/null || { echo "host_cache_misses: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
build=${1:-build}
base=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
counts() {  # counts BUILD: host instructions, instruction-cache misses, data-cache misses
  valgrind --tool=cachegrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 \
    --cachegrind-out-file="$tmp/cachegrind.out" "$1/apps/irrgpu/irrgpu" run -q --mode timing --workload bfs \
    --variant data --graph rmat:scale=13 -o "$tmp/run" 2>&1 >/dev/null |
    awk '$2 == "I" && $3 == "refs:" { i = $4 } $2 == "I1" && $3 == "misses:" { i1 = $4 }
         $2 == "D1" && $3 == "misses:" { d1 = $4 }
         END { gsub(",", "", i); gsub(",", "", i1); gsub(",", "", d1); print i, i1, d1 }'
}
read -r -a after <<<"$(counts "$build")"
names=("host instructions" "I1 misses" "D1 misses")
if [ -n "$base" ]; then
  read -r -a before <<<"$(counts "$base")"
  printf '%-20s %16s %16s %8s\n' "bfs/data scale 13" "count" "baseline" ratio
  for k in 0 1 2; do
    awk -v name="${names[$k]}" -v n="${after[$k]}" -v b="${before[$k]}" \
      'BEGIN { printf "%-20s %16.0f %16.0f %8.3f\n", name, n, b, n / b }'
  done
else
  printf '%-20s %16s\n' "bfs/data scale 13" "count"
  for k in 0 1 2; do printf '%-20s %16s\n' "${names[$k]}" "${after[$k]}"; done
fi
