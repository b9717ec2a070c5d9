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
# Ours, then the runtime calls ordinary programs make, then Thrust and CUB from the toolkit's own
# headers (code nobody here wrote). Compiled for compute_75, the libraries' kernels are sized for
# Turing's 64 K registers an SM: they are timed on the Turing preset (rtx2080ti), the rest on gtx480.
for app in vector_add reduce constant streams device_props double_math runtime_calls thrust_algorithms cub_algorithms; do
  build "$app" -cudart shared -arch=compute_75 --extended-lambda || continue
  preset=gtx480
  [[ $app == thrust_* || $app == cub_* ]] && preset=rtx2080ti
  for mode in functional timing; do
    if "$irrgpu" exec -c "$preset" --mode "$mode" -o "$out/$app.$mode" -- "$out/$app" >"$out/$app.$mode.log" 2>&1 &&
       grep -q "^PASS" "$out/$app.$mode.log" && grep -q '"exit_code": 0' "$out/$app.$mode/exec.json"; then
      echo "ok: $app ($mode)"
    else
      fail "$app ($mode): $(tail -3 "$out/$app.$mode.log")"
    fi
  done
  [ -f "$out/$app.timing/stats.json" ] || fail "$app: no stats.json from the timed run"
done
# Sampled simulation (docs/sampling.md) on a program of many kernels nobody here wrote: its output
# as unsampled, and the sampling line in the summary.
if [ -x "$out/thrust_algorithms" ]; then
  "$irrgpu" exec -c rtx2080ti -s sim.sampling=kernels -o "$out/thrust.sampled" -- "$out/thrust_algorithms" \
    >"$out/thrust.sampled.log" 2>&1 && grep -q "^PASS" "$out/thrust.sampled.log" &&
    grep -q "^sampled: .* launches timed whole" "$out/thrust.sampled.log" && echo "ok: thrust_algorithms (sim.sampling kernels)" ||
    fail "thrust_algorithms sampled: $(tail -3 "$out/thrust.sampled.log")"
fi
# DAC on unmodified programs (docs/dac.md): every kernel split by the decoupling pass as its module
# loads, its affine stream in the companion warps; the program prints what it printed without DAC
# (but the simulated time streams measures), and exec.json names what the pass did to each kernel
# (runtime_calls: a managed pointer beyond the PWAQ's 40-bit addresses, launched as written).
untimed() { sed -E 's/[0-9.]+ ms between/T ms between/' "$1"; }
for app in vector_add reduce streams runtime_calls cub_algorithms; do
  [ -x "$out/$app" ] || continue
  preset=gtx480
  [[ $app == cub_* ]] && preset=rtx2080ti
  "$irrgpu" exec -q -c "$preset" -- "$out/$app" >"$out/$app.nodac.out" 2>&1
  if "$irrgpu" exec -q -c "$preset" -s dac.enabled=true -o "$out/$app.dac" -- "$out/$app" >"$out/$app.dac.out" 2>&1 &&
     [ "$(untimed "$out/$app.nodac.out")" = "$(untimed "$out/$app.dac.out")" ] &&
     grep -q '"rewrite": "dac: decoupled' "$out/$app.dac/exec.json" &&
     grep -q '^PASS' "$out/$app.dac.out"; then
    echo "ok: $app (dac.enabled: the same output, kernels decoupled)"
  else
    fail "$app with DAC: $(diff "$out/$app.nodac.out" "$out/$app.dac.out" | head -3) $(tail -2 "$out/$app.dac.out")"
  fi
done
grep -q "launched as written where an argument is beyond the PWAQ's 40-bit addresses" "$out/runtime_calls.dac/exec.json" &&
  echo "ok: runtime_calls' managed pointer launched as written" || fail "runtime_calls with DAC: no note of the managed pointer"
# Occupancy answers by one rule (models/core/occupancy.h), with SMs (timing) or without (functional).
[ "$(grep '^occupancy:' "$out/runtime_calls.functional.log")" = "$(grep '^occupancy:' "$out/runtime_calls.timing.log")" ] &&
  grep -q '^occupancy: [1-9]' "$out/runtime_calls.timing.log" && echo "ok: occupancy alike, functional and timed" ||
  fail "occupancy: $(grep -h '^occupancy:' "$out"/runtime_calls.*.log)"

# Two streams built with the per-thread default stream (the runtime's _ptsz/_ptds entry points).
cp "$src/testbenches/cuda/streams.cu" "$out/streams_per_thread.cu"
if build streams_per_thread -cudart shared -arch=compute_75 --default-stream per-thread; then
  "$irrgpu" exec --mode functional -- "$out/streams_per_thread" >"$out/streams_per_thread.log" 2>&1 &&
    grep -q "^PASS" "$out/streams_per_thread.log" && echo "ok: streams (--default-stream per-thread)" ||
    fail "streams per thread: $(tail -3 "$out/streams_per_thread.log")"
fi
# A source-line profile of a program built with -lineinfo: its CUDA lines, with their text.
cp "$src/testbenches/cuda/reduce.cu" "$out/reduce_lines.cu"
if build reduce_lines -cudart shared -arch=compute_75 -lineinfo; then
  "$irrgpu" exec --profile -o "$out/profile" -- "$out/reduce_lines" >"$out/profile.log" 2>&1 &&
    grep -q "profile: the costliest CUDA lines" "$out/profile.log" && grep -q "| __syncthreads();" "$out/profile.log" &&
    grep -q '"file": ".*reduce_lines.cu"' "$out/profile/profile.json" && echo "ok: a source-line profile (exec --profile)" ||
    fail "profile: $(tail -3 "$out/profile.log")"
fi
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
# Thrust at compute_80 and compute_90, CUB at compute_90: the same algorithms through those
# architectures' PTX (compute_90's transform kernel copies with cp.async.bulk and an mbarrier); and
# the asynchronous copies written out (async_copy.cu), functional and timed.
for arch in 80 90; do
  for lib in thrust cub; do
    [[ $lib == cub && $arch == 80 ]] && continue
    name=${lib}_algorithms_$arch
    cp "$src/testbenches/cuda/${lib}_algorithms.cu" "$out/$name.cu"
    build "$name" -cudart shared -arch=compute_$arch --extended-lambda || continue
    "$irrgpu" exec --mode functional -- "$out/$name" >"$out/$name.log" 2>&1 && grep -q "^PASS" "$out/$name.log" &&
      echo "ok: $name (functional)" || fail "$name: $(tail -3 "$out/$name.log")"
  done
done
if build async_copy -cudart shared -arch=compute_90; then
  for mode in functional timing; do
    "$irrgpu" exec -c rtx2080ti --mode "$mode" -- "$out/async_copy" >"$out/async_copy.$mode.log" 2>&1 &&
      grep -q "^PASS" "$out/async_copy.$mode.log" && echo "ok: async_copy (compute_90, $mode)" ||
      fail "async_copy ($mode): $(tail -3 "$out/async_copy.$mode.log")"
  done
fi
# An API irrgpu does not provide stops the program, naming it.
if build unsupported -cudart shared -arch=compute_75; then
  "$irrgpu" exec --mode functional -- "$out/unsupported" >"$out/unsupported.log" 2>&1 && fail "unsupported: exited 0"
  grep -q "cudaGraphCreate" "$out/unsupported.log" && echo "ok: an unsupported call is named" ||
    fail "unsupported: the call is not named: $(tail -2 "$out/unsupported.log")"
fi
# A kernel with an instruction irrgpu does not run fails alone, when launched, naming itself, its
# PTX line and the instruction; the module's other kernel has run, and the program saw the failure.
if build one_bad_kernel -cudart shared -arch=compute_75; then
  "$irrgpu" exec --mode functional -- "$out/one_bad_kernel" >"$out/one_bad_kernel.log" 2>&1 && fail "one bad kernel: exited 0"
  grep -q "^ok fill" "$out/one_bad_kernel.log" && grep -q "^stop_here: cudaErrorLaunchFailure" "$out/one_bad_kernel.log" &&
    grep -Eq "kernel stop_here\(int\*\) cannot run: application PTX \(compute_75\):[0-9]+:[0-9]+: unsupported instruction 'brkpt'" "$out/one_bad_kernel.log" &&
    echo "ok: one unsupported kernel fails alone, at launch, naming itself" || fail "one bad kernel: $(tail -3 "$out/one_bad_kernel.log")"
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
