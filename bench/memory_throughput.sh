#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Memory transactions per host second with every hop modelled (L1, request crossbar, L2 slice,
# atomic unit, DRAM, reply crossbar), for docs/performance.md. Runs each pattern three times on
# the gtx480 preset and prints the median rate from run.json.
# Usage: bench/memory_throughput.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
irrgpu="$build/apps/irrgpu/irrgpu"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-10s %14s %16s %12s\n' pattern transactions "transactions/s" "cycles/s"
for pattern in frontier stream random; do
  rates=()
  for i in 1 2 3; do
    "$irrgpu" run -q -c gtx480 -s traffic.pattern=$pattern -s traffic.instructions=1000 -o "$tmp/$pattern$i"
    rates+=("$(python3 -c "import json; r=json.load(open('$tmp/$pattern$i/run.json')); print(r['memory_transactions'], r['rates']['memory_transactions_per_second'], r['rates']['core_cycles_per_second'])")")
  done
  printf '%s\n' "${rates[@]}" | sort -k2 -g | sed -n 2p |
    awk -v p=$pattern '{ printf "%-10s %14d %16.0f %12.0f\n", p, $1, $2, $3 }'
done
