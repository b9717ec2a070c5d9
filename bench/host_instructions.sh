#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Host instructions (callgrind's count) of the runs the speed work tracks (docs/performance.md):
# a figure a noisy machine does not move, where CPU seconds swing by more than most changes. Given
# a second build, each run's count there and the ratio. Counts are not time: a 64-bit division is
# one instruction, each iteration of a `rep stosb` (a large memset) one too.
# Usage: bench/host_instructions.sh [BUILD_DIR] [BASELINE_BUILD_DIR]
set -euo pipefail
command -v valgrind >/dev/null || { echo "host_instructions: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
build=${1:-build}
base=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
runs=(
  "timed bfs/data, R-MAT scale 12|--mode timing --workload bfs --variant data --graph rmat:scale=12"
  "memory alone, random|-c gtx480 -s traffic.pattern=random -s traffic.instructions=1000"
  "memory alone, frontier|-c gtx480 -s traffic.pattern=frontier -s traffic.instructions=1000"
  "memory alone, stream|-c gtx480 -s traffic.pattern=stream -s traffic.instructions=1000"
)
count() {  # count BUILD ARGS...: the host instructions of one run
  local irrgpu="$1/apps/irrgpu/irrgpu"
  shift
  valgrind --tool=callgrind --callgrind-out-file="$tmp/callgrind.out" "$irrgpu" run -q "$@" -o "$tmp/run" 2>&1 >/dev/null |
    awk '$2 == "Collected" { print $4 }'
}
if [ -n "$base" ]; then
  printf '%-32s %16s %16s %8s\n' run "instructions" "baseline" ratio
else
  printf '%-32s %16s\n' run "instructions"
fi
for r in "${runs[@]}"; do
  name=${r%%|*}
  args=${r#*|}
  n=$(count "$build" $args)
  if [ -n "$base" ]; then
    b=$(count "$base" $args)
    awk -v name="$name" -v n="$n" -v b="$b" 'BEGIN { printf "%-32s %16.0f %16.0f %8.3f\n", name, n, b, n / b }'
  else
    printf '%-32s %16d\n' "$name" "$n"
  fi
done
