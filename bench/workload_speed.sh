#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Functional-mode speed of the workloads (docs/performance.md): BFS on an R-MAT scale-18 graph
# and the other workloads on smaller ones; median of three runs.
# Usage: bench/workload_speed.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
irrgpu="$build/apps/irrgpu/irrgpu"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-16s %-24s %16s %14s %14s\n' workload graph "thread instr." "M warp/s" "M thread/s"
run() {
  local w=$1 v=$2 g=$3 rates=()
  for i in 1 2 3; do
    "$irrgpu" run -q --mode functional --workload "$w" --variant "$v" --graph "$g" -o "$tmp/$i" >/dev/null
    rates+=("$(python3 -c "import json; r=json.load(open('$tmp/$i/workload.json')); print(r['thread_instructions'], r['warp_instructions_per_second']/1e6, r['thread_instructions_per_second']/1e6)")")
  done
  printf '%s\n' "${rates[@]}" | sort -k3 -g | sed -n 2p |
    awk -v w="$w/$v" -v g="$g" '{ printf "%-16s %-24s %16d %14.2f %14.2f\n", w, g, $1, $2, $3 }'
}
run bfs data rmat:scale=18
run bfs topology rmat:scale=16
run sssp data rmat:scale=16
run pr data rmat:scale=14
