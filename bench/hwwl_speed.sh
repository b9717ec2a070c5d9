#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The HWWL unit testbench's speed (docs/performance.md): core cycles and pulls per host second with
# a million work IDs, median of three, with the model banks, without the invariant checks, and with
# the RTL banks in the loop.
# Usage: bench/hwwl_speed.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
irrgpu="$build/apps/irrgpu/irrgpu"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-36s %14s %12s %10s\n' configuration "k cycles/s" "M pulls/s" seconds
for extra in "" "hwwl.check_invariants=false" "hwwl.bank.impl=rtl"; do
  runs=()
  for i in 1 2 3; do
    "$irrgpu" run -q -s sim.top=hwwl -s hwwl.testbench.work_ids=1000000 -s hwwl.testbench.overflow_ids=1000000 \
      ${extra:+-s "$extra"} -o "$tmp/$i" >/dev/null
    runs+=("$(python3 -c "
import json
r = json.load(open('$tmp/$i/run.json')); s = json.load(open('$tmp/$i/stats.json'))['stats']
t = r['host_seconds']
print(r['rates']['core_cycles_per_second'] / 1e3, s['hwwl_tb.hwwl.pulls']['value'] / t / 1e6, t)")")
  done
  read -r c p t <<<"$(printf '%s\n' "${runs[@]}" | sort -g | sed -n 2p)"
  awk -v n="${extra:-defaults}" -v c="$c" -v p="$p" -v t="$t" 'BEGIN { printf "%-36s %14.0f %12.1f %10.2f\n", n, c, p, t }'
done
