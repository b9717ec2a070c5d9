#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Host instructions (callgrind's count) of the runs the speed work tracks (docs/performance.md):
# a figure a noisy machine does not move, where CPU seconds swing by more than most changes. Given
# a second build, each run's count there and the ratio. Counts are not time: a 64-bit division is
# one instruction, each iteration of a `rep stosb` (a large memset) one too.
# With --misses: instead, timed bfs/data at R-MAT scale 13 under cachegrind's simulated caches
# (32 KiB 8-way level-1 instruction and data caches, 64-byte lines, given explicitly so that every
# host counts alike): its instructions and level-1 misses. A component's step reads lines of its
# own state that the other components' steps evicted since its last, so misses are much of its cost.
# Usage: bench/host_instructions.sh [--misses] [BUILD_DIR] [BASELINE_BUILD_DIR]
set -euo pipefail
command -v valgrind >/dev/null || { echo "host_instructions: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
misses=false
if [ "${1:-}" = --misses ]; then
  misses=true
  shift
fi
build=${1:-build}
base=${2:-}
for d in "$build" ${base:+"$base"}; do
  [ -x "$d/apps/irrgpu/irrgpu" ] || { echo "host_instructions: no $d/apps/irrgpu/irrgpu (build it, or name the build directory)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if $misses; then
  runs=("bfs/data scale 13|--mode timing --workload bfs --variant data --graph rmat:scale=13")
  columns=("host instructions" "I1 misses" "D1 misses")
else
  runs=(
    "timed bfs/data, R-MAT scale 12|--mode timing --workload bfs --variant data --graph rmat:scale=12"
    "memory alone, random|-c gtx480 -s traffic.pattern=random -s traffic.instructions=1000"
    "memory alone, frontier|-c gtx480 -s traffic.pattern=frontier -s traffic.instructions=1000"
    "memory alone, stream|-c gtx480 -s traffic.pattern=stream -s traffic.instructions=1000"
  )
  columns=("")
fi
count() {  # count BUILD ARGS...: one run's counts (the columns), space-separated
  local irrgpu="$1/apps/irrgpu/irrgpu"
  shift
  if $misses; then
    valgrind --tool=cachegrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 \
      --cachegrind-out-file="$tmp/cachegrind.out" "$irrgpu" run -q "$@" -o "$tmp/run" 2>&1 >/dev/null |
      awk '$2 == "I" && $3 == "refs:" { i = $4 } $2 == "I1" && $3 == "misses:" { i1 = $4 }
           $2 == "D1" && $3 == "misses:" { d1 = $4 }
           END { gsub(",", "", i); gsub(",", "", i1); gsub(",", "", d1); print i, i1, d1 }'
  else
    valgrind --tool=callgrind --callgrind-out-file="$tmp/callgrind.out" "$irrgpu" run -q "$@" -o "$tmp/run" 2>&1 >/dev/null |
      awk '$2 == "Collected" { print $4 }'
  fi
}
if [ -n "$base" ]; then
  printf '%-40s %16s %16s %8s\n' run "count" "baseline" ratio
else
  printf '%-40s %16s\n' run "count"
fi
for r in "${runs[@]}"; do
  name=${r%%|*}
  args=${r#*|}
  read -r -a n <<<"$(count "$build" $args)"
  if [ -n "$base" ]; then read -r -a b <<<"$(count "$base" $args)"; fi
  for k in "${!columns[@]}"; do
    label=$name${columns[$k]:+, ${columns[$k]}}
    if [ -n "$base" ]; then
      awk -v name="$label" -v n="${n[$k]}" -v b="${b[$k]}" 'BEGIN { printf "%-40s %16.0f %16.0f %8.3f\n", name, n, b, n / b }'
    else
      printf '%-40s %16s\n' "$label" "${n[$k]}"
    fi
  done
done
