#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A profile-guided build of irrgpu (`make pgo`; docs/performance.md "Profile-guided build"):
# instruments the simulator, trains it on short timed, functional and memory-system runs, then
# builds it (and the CUDA runtime library of `irrgpu exec`) with the profile and link-time
# optimisation. Last it re-runs the training runs on the optimised binary and fails unless every
# statistic is byte-identical to the instrumented binary's: the optimisation must not change what
# a run reports.
# Usage: scripts/pgo-build.sh [BUILD_DIR]   (default build-pgo)
set -euo pipefail
build=$(realpath -m "${1:-build-pgo}")
cd "$(dirname "$0")/.."
irrgpu="$build/apps/irrgpu/irrgpu"
train=$(mktemp -d)
trap 'rm -rf "$train"' EXIT

# Training: every clock domain, the SM's issue paths, the units, the memory system alone and the
# functional executor, each run a few seconds at most.
runs=(
  "-c gtx480 --workload bfs --variant data --graph rmat:scale=12"
  "-c gtx480 --workload sssp --variant data --graph rmat:scale=11"
  "-c gtx480 --workload bfs --variant frontier --graph rmat:scale=11"
  "-c gtx480 --workload bfs --variant hwwl --graph rmat:scale=10"
  "-c gtx480 --workload bfs --variant iru --graph rmat:scale=10"
  "-c graphmem --workload bfs --variant harish --graph rmat:scale=11"
  "-c gtx480 --workload heat2d --tiles 8x8"
  "-c gtx480 -s traffic.pattern=random -s traffic.instructions=300"
  "-c gtx480 -s traffic.pattern=stream -s traffic.instructions=300"
  "-c gtx480 -s traffic.pattern=frontier -s traffic.instructions=300"
  "-c gtx480 --mode functional --workload bfs --variant data --graph rmat:scale=12"
  "-c gtx480 --mode functional --workload pr --variant topology --graph rmat:scale=11"
)
run_all() {  # run_all TAG: every training run, its output in $train/TAG<i>; TAG check: each
  local i=0 f  # compared with the instrumented binary's (tag train)
  for r in "${runs[@]}"; do
    i=$((i + 1))
    # shellcheck disable=SC2086  # each entry is a list of arguments
    "$irrgpu" run -q $r -o "$train/$1$i" >/dev/null || { echo "pgo-build: training run failed: irrgpu run $r" >&2; exit 1; }
    [ "$1" = check ] || continue
    f=stats.json
    [ -f "$train/train$i/$f" ] || f=result.txt  # functional runs: the workload's result
    cmp -s "$train/train$i/$f" "$train/check$i/$f" ||
      { echo "pgo-build: the optimised binary's $f differs from the instrumented one's on irrgpu run $r" >&2; exit 1; }
  done
}

echo "pgo-build: 1/3 instrumented build in $build"
cmake -S . -B "$build" -G Ninja -DIRRGPU_PGO=generate >/dev/null
cmake --build "$build" --target irrgpu_cli
find "$build" -name '*.gcda' -delete  # a profile from this training alone
echo "pgo-build: 2/3 training (${#runs[@]} runs)"
run_all train
echo "pgo-build: 3/3 optimised build"
cmake -S . -B "$build" -DIRRGPU_PGO=use >/dev/null
cmake --build "$build" --target irrgpu_cli irrgpu_cudart

run_all check
echo "pgo-build: $irrgpu built with the profile; its statistics match on all ${#runs[@]} training runs"
