#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Unmodified CUDA programs on irrgpu (docs/cuda-apps.md): each .cu here built with nvcc as the docs
# say (-cudart shared, PTX kept) and run with `irrgpu exec` in functional and timing modes; each
# checks its own results on the CPU (exit 0, "PASS"). Then what must fail, and how: a call irrgpu
# does not provide (named), a program without PTX, a program with NVIDIA's runtime linked in
# statically. Exit 77 (skipped) where nvcc is not installed.
# Usage: cuda_apps_test.sh IRRGPU SOURCE_DIR OUT_DIR
set -uo pipefail
irrgpu=$1 src=$2 out=$3
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ ! -x "$nvcc" ]; then
  echo "cuda apps: skipped: no nvcc (the CUDA toolkit) on the PATH or in /usr/local/cuda/bin"
  exit 77
fi
mkdir -p "$out"
failed=0
fail() { echo "FAILED: $*"; failed=$((failed + 1)); }
build() {  # NAME [nvcc flags...]: testbenches/cuda/NAME.cu, or OUT_DIR/NAME.cu
  local name=$1 cu="$src/testbenches/cuda/$1.cu"
  shift
  [ -f "$cu" ] || cu="$out/$name.cu"
  "$nvcc" "$@" -o "$out/$name" "$cu" 2>"$out/$name.nvcc" || { cat "$out/$name.nvcc"; fail "nvcc $name"; return 1; }
}
for app in vector_add reduce constant streams device_props; do
  build "$app" -cudart shared -arch=compute_75 || continue
  for mode in functional timing; do
    if "$irrgpu" exec --mode "$mode" -o "$out/$app.$mode" -- "$out/$app" >"$out/$app.$mode.log" 2>&1 &&
       grep -q "^PASS" "$out/$app.$mode.log" && grep -q '"exit_code": 0' "$out/$app.$mode/exec.json"; then
      echo "ok: $app ($mode)"
    else
      fail "$app ($mode): $(tail -3 "$out/$app.$mode.log")"
    fi
  done
  [ -f "$out/$app.timing/stats.json" ] || fail "$app: no stats.json from the timed run"
done

# Traces and waveforms as irrgpu run writes them.
if [ -x "$out/vector_add" ]; then
  "$irrgpu" exec -q --txn-trace "$out/trace.json" --vcd "$out/waves.vcd" --trace 'gpu.sm0.*' -- "$out/vector_add" >"$out/trace.log" 2>&1 &&
    grep -q traceEvents "$out/trace.json" && grep -q '\$enddefinitions' "$out/waves.vcd" &&
    echo "ok: a transaction trace and a waveform" || fail "traces: $(tail -2 "$out/trace.log")"
fi
# Plain (uncompressed) PTX for two architectures: the highest is taken.
cp "$src/testbenches/cuda/vector_add.cu" "$out/vector_add_plain.cu"
if build vector_add_plain -cudart shared --no-compress -gencode arch=compute_75,code=compute_75 -gencode arch=compute_80,code=compute_80; then
  "$irrgpu" exec --mode functional -- "$out/vector_add_plain" >"$out/plain.log" 2>&1 && grep -q "^PASS" "$out/plain.log" &&
    echo "ok: uncompressed PTX of two architectures" || fail "plain PTX: $(tail -2 "$out/plain.log")"
fi
# An API irrgpu does not provide stops the program, naming it.
if build unsupported -cudart shared -arch=compute_75; then
  "$irrgpu" exec --mode functional -- "$out/unsupported" >"$out/unsupported.log" 2>&1 && fail "unsupported: exited 0"
  grep -q "cudaMallocManaged" "$out/unsupported.log" && echo "ok: an unsupported call is named" ||
    fail "unsupported: the call is not named: $(tail -2 "$out/unsupported.log")"
fi
# Machine code only (no PTX): a clear error saying how to rebuild.
cp "$src/testbenches/cuda/vector_add.cu" "$out/vector_add_sass.cu"
if build vector_add_sass -cudart shared -gencode arch=compute_75,code=sm_75; then
  "$irrgpu" exec --mode functional -- "$out/vector_add_sass" >"$out/sass.log" 2>&1 && fail "no PTX: exited 0"
  grep -q "carries no PTX" "$out/sass.log" && echo "ok: a program without PTX is refused with the rebuild" ||
    fail "no PTX: $(tail -2 "$out/sass.log")"
  # Said once (by irrgpu, not also by the program), and a timed run's statistics are marked incomplete.
  "$irrgpu" exec -q -o "$out/sass" -- "$out/vector_add_sass" >"$out/sass_timed.log" 2>&1 && fail "no PTX (timed): exited 0"
  [ "$(grep -c "carries no PTX" "$out/sass_timed.log")" = 1 ] && echo "ok: the error is printed once" ||
    fail "no PTX: the error is not printed once: $(cat "$out/sass_timed.log")"
  grep -q '"incomplete": "the program failed: the program carries no PTX' "$out/sass/stats.json" &&
    grep -q '^incomplete,1,,' "$out/sass/stats.csv" && grep -q '"incomplete"' "$out/sass/run.json" &&
    echo "ok: its statistics are marked incomplete" || fail "no PTX: stats.json, stats.csv or run.json not marked incomplete"
fi
# NVIDIA's runtime linked statically (nvcc's default): irrgpu never hears from it.
cp "$src/testbenches/cuda/vector_add.cu" "$out/vector_add_static.cu"
if build vector_add_static -arch=compute_75; then
  "$irrgpu" exec --mode functional -- "$out/vector_add_static" >"$out/static.log" 2>&1 && fail "static runtime: exited 0"
  grep -q "build it with nvcc -cudart shared" "$out/static.log" && echo "ok: a statically linked runtime is named" ||
    fail "static runtime: $(tail -2 "$out/static.log")"
fi
echo "cuda apps: $failed failed"
[ "$failed" -eq 0 ]
