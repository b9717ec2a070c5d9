#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Timing-mode speed against functional-mode speed on the same workloads (docs/performance.md):
# warp and thread instructions per host second in each mode, and their ratio; median of three.
# Usage: bench/timing_speed.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
irrgpu="$build/apps/irrgpu/irrgpu"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rate() {  # median warp-instruction rate (M/s) and thread rate of one mode
  local w=$1 v=$2 g=$3 mode=$4 rates=()
  for i in 1 2 3; do
    "$irrgpu" run -q --mode "$mode" --workload "$w" --variant "$v" --graph "$g" -o "$tmp/$i" >/dev/null
    rates+=("$(python3 -c "import json; r=json.load(open('$tmp/$i/workload.json')); print(r['warp_instructions_per_second']/1e6, r['thread_instructions_per_second']/1e6)")")
  done
  printf '%s\n' "${rates[@]}" | sort -g | sed -n 2p
}
printf '%-14s %-16s %12s %12s %12s %12s %8s\n' workload graph "timed Mw/s" "timed Mt/s" "func Mw/s" "func Mt/s" ratio
for spec in "bfs data rmat:scale=14" "sssp data rmat:scale=12" "pr data rmat:scale=12"; do
  read -r w v g <<<"$spec"
  read -r tw tt <<<"$(rate "$w" "$v" "$g" timing)"
  read -r fw ft <<<"$(rate "$w" "$v" "$g" functional)"
  awk -v w="$w/$v" -v g="$g" -v tw="$tw" -v tt="$tt" -v fw="$fw" -v ft="$ft" \
    'BEGIN { printf "%-14s %-16s %12.3f %12.2f %12.2f %12.2f %8.3f\n", w, g, tw, tt, fw, ft, tw / fw }'
done
