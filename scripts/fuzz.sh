#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make fuzz`: builds the libFuzzer targets with clang (AddressSanitizer and UBSan) in BUILD and
# runs each for SECONDS from its corpus (seeded with the project's own files; inputs that reach
# new code accumulate in BUILD/corpus/TARGET across runs). A crash is saved under
# BUILD/crashes/TARGET/ and fails the run; one summary line a target goes to BUILD/fuzz-summary.txt.
# Usage: [FUZZ_SEED=N] scripts/fuzz.sh [BUILD [SECONDS [TARGETS]]]   (exit 77: no clang or libFuzzer here)
set -euo pipefail
build=${1:-build-fuzz}
seconds=${2:-60}
targets=${3:-ptx config schema sweep mtx dimacs snap}
src=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v clang++ >/dev/null 2>&1 || ! compgen -G "/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null; then
  echo "fuzz: skipped: needs clang and libFuzzer (Debian packages clang and libclang-rt-14-dev)" >&2
  exit 77
fi
if [ ! -f "$build/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S "$src" -B "$build" -G Ninja -DIRRGPU_FUZZ=ON -DIRRGPU_BUILD_TESTS=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined" >/dev/null
fi
# shellcheck disable=SC2046
if ! cmake --build "$build" --target $(printf 'fuzz_%s ' $targets) >"$build/build.log" 2>&1; then
  cat "$build/build.log" >&2
  echo "fuzz: the build failed ($build/build.log)" >&2
  exit 1
fi
summary="$build/fuzz-summary.txt"
: >"$summary"
status=0
for t in $targets; do
  corpus="$build/corpus/$t"
  crashes="$build/crashes/$t"
  mkdir -p "$corpus" "$crashes"
  while read -r seed; do
    [ -n "$seed" ] && cp -n "$seed" "$corpus/"
  done <"$build/testbenches/fuzz/fuzz_$t.seeds"
  log="$build/fuzz_$t.log"
  # Bounded in memory (2 GiB) and per input (30 s): an input over either is a finding too.
  if ASAN_OPTIONS=detect_leaks=1 "$build/testbenches/fuzz/fuzz_$t" -max_total_time="$seconds" -rss_limit_mb=2048 ${FUZZ_SEED:+-seed=$FUZZ_SEED} \
      -timeout=30 -print_final_stats=1 -artifact_prefix="$crashes/" "$corpus" >"$log" 2>&1; then
    result=ok
  else
    result="CRASH (input in $crashes/, log $log)"
    status=1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  files=$(find "$corpus" -type f | wc -l)
  line="fuzz_$t: ${runs:-0} executions in ${seconds} s, coverage ${cov:-0} edges, corpus $files inputs: $result"
  echo "$line" | tee -a "$summary"
done
exit $status
