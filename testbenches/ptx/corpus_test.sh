#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# PTX generality (docs/reliability.md): every .cu in the project compiled by nvcc at -O3, -O0 -G
# and -lineinfo for sm_75, sm_80 and sm_90 (as compute_XX: PTX only, no ptxas); `irrgpu ptx check`
# must take every file, and with each option set's PTX every workload variant must pass its CPU
# check, the Exec tests (CPU references) must pass, the suite kernels must pass theirs as written
# and split by the DAC pass, and the microbenchmarks must run. Exit 77
# (skipped) where nvcc is not installed. corpus_gaps.txt lists what the parser does not take yet
# (a glob of file names, then why): those must still be rejected, so that a fix updates the list.
# Usage: corpus_test.sh IRRGPU SOURCE_DIR OUT_DIR EXEC_TEST
set -euo pipefail
irrgpu=$1 src=$2 out=$3 exec_test=$4
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ ! -x "$nvcc" ]; then
  echo "ptx corpus: skipped: no nvcc (the CUDA toolkit) on the PATH or in /usr/local/cuda/bin"
  exit 77
fi
mkdir -p "$out"
files=0 rejected=0 known=0
gaps="$(dirname "$0")/corpus_gaps.txt"
known_gap() {
  local pattern why
  while read -r pattern why; do
    [[ -z "$pattern" || "$pattern" == \#* ]] && continue
    # shellcheck disable=SC2053
    [[ "$1" == $pattern ]] && return 0
  done <"$gaps"
  return 1
}
while read -r cu; do
  for arch in compute_75 compute_80 compute_90; do
    for flags in "-O3" "-O0 -G" "-lineinfo"; do
      name="$(basename "${cu%.cu}")_${arch}_$(tr -d ' -' <<<"$flags")"
      # nvcc hands some PTX to ptxas to check, which refuses the units' extension instructions
      # (ldiru, wl*) after the PTX is written: only other errors stop the test.
      # shellcheck disable=SC2086
      if ! "$nvcc" -ptx -arch="$arch" $flags "$cu" -o "$out/$name.ptx" 2>"$out/$name.nvcc"; then
        if grep -E "error" "$out/$name.nvcc" | grep -Evq "known instruction: '(ldiru|wlinit|wlcfg|wlpull|wlpush)'|aborted due to errors"; then
          cat "$out/$name.nvcc" >&2
          exit 1
        fi
      fi
      files=$((files + 1))
      if "$irrgpu" ptx check "$out/$name.ptx" >"$out/$name.log" 2>&1; then
        if known_gap "$name"; then
          rejected=$((rejected + 1))
          echo "taken now, remove it from corpus_gaps.txt: $name"
        fi
      elif known_gap "$name"; then
        known=$((known + 1))
      else
        rejected=$((rejected + 1))
        echo "rejected: $name: $(tail -1 "$out/$name.log")"
      fi
    done
  done
done < <(find "$src/testbenches/ptx" "$src/workloads/kernels" -name '*.cu' | sort)
echo "ptx corpus: $files files from $((files / 9)) sources; $known known gaps (corpus_gaps.txt); $rejected unexpected"
[ "$rejected" -eq 0 ]
known=0

# Running it: every workload variant (graph ones on a small graph, or on the small input of their
# own kind the listing names, "[e.g. --graph G]"; wavefront ones on 3x3 tiles of 8x8; the variants
# that need a unit or DATS in timing mode), as `irrgpu workloads` lists them.
listing=$("$irrgpu" workloads)
runs=$(awk '/^wavefront workloads/ { exit }
            /^[a-z_0-9]+:/ { w = $1; sub(":", "", w); example = ""
                             if (match($0, /\[e\.g\. --graph [^]]*\]$/)) example = substr($0, RSTART + 14, RLENGTH - 15) }
            /^  [a-z_0-9]+:/ { v = $1; sub(":", "", v); print w, v, ($0 ~ /timing mode/ ? "timing" : "functional"), "graph", example }' <<<"$listing")
wavefront=$(awk '/^suite kernels/ { exit } /^wavefront workloads/ { f = 1; next } f && /^[a-z_0-9]+:/ { w = $1; sub(":", "", w); print w }' <<<"$listing")
variants=$(awk '/^suite kernels/ { exit } /^wavefront workloads/ { f = 1; next } f && /^  [a-z_0-9]+:/ { v = $1; sub(":", "", v); print v, ($0 ~ /timed:/ ? "timing" : "functional") }' <<<"$listing")
while read -r w; do
  while read -r v mode; do runs+=$'\n'"$w $v $mode wavefront"; done <<<"$variants"
done <<<"$wavefront"
lock_benchmarks=$(awk '/^lock benchmarks/ { f = 1; next } f && /^[a-z_0-9]+:/ { w = $1; sub(":", "", w); print w }' <<<"$listing")
lock_variants=$(awk '/^lock benchmarks/ { f = 1; next } f && /^  [a-z_0-9]+:/ { v = $1; sub(":", "", v); print v }' <<<"$listing")
checked=0
# The code an option set's files hold, without the target, line numbers, debug sections and blank
# lines. Today the three architectures' PTX differs only in testbenches/ptx/library.cu, and
# -lineinfo's is -O3's: the same code is run once (the parse check above takes every file). The
# Exec tests read every file; the workload runs only the project's kernels (workloads/kernels).
code_of() {  # TAG [SOURCE_DIR]: the code of every file of TAG, or only of those from SOURCE_DIR
  local ptx
  for ptx in "$out"/*_"$1".ptx; do
    if [ -n "${2:-}" ]; then b=$(basename "${ptx%_"$1".ptx}"); [ -f "$2/$b.cu" ] || continue; fi
    sed -e '/^[[:space:]]*\.section[[:space:]]*\.debug/,$d' -e '/^[[:space:]]*\.\(version\|target\|loc\|file\)\b/d' -e '/^[[:space:]]*$/d' "$ptx"
  done | sha256sum | cut -d' ' -f1
}
declare -A ran ran_workloads
for arch in compute_75 compute_80 compute_90; do
  for flags in "-O3" "-O0 -G" "-lineinfo"; do
    tag="${arch}_$(tr -d ' -' <<<"$flags")"
    code=$(code_of "$tag")
    if [ -n "${ran[$code]:-}" ]; then
      echo "ptx corpus run: $tag is the same code as ${ran[$code]} (but for its target, lines and debug information): run once"
      continue
    fi
    ran[$code]=$tag
    workloads_code=$(code_of "$tag" "$src/workloads/kernels")
    same_workloads=${ran_workloads[$workloads_code]:-}
    ran_workloads[$workloads_code]=${same_workloads:-$tag}
    dir="$out/kernels_$tag"
    mkdir -p "$dir"
    for ptx in "$out"/*_"$tag".ptx; do ln -sf "$ptx" "$dir/$(basename "${ptx%_"$tag".ptx}").ptx"; done
    if ! IRRGPU_TEST_PTX_DIR="$dir" "$exec_test" --gtest_filter='Exec.*-Exec.ErrorsNameTheKernel' >"$dir/exec.log" 2>&1; then
      echo "failed: the Exec tests with $flags for $arch ($dir/exec.log)"; grep -E "FAILED|Failure" "$dir/exec.log" | head -5
      rejected=$((rejected + 1))
    fi
    if [ -n "$same_workloads" ]; then
      echo "ptx corpus run: $tag's workload kernels are the same code as $same_workloads's: their runs once"
      continue
    fi
    while read -r w v mode kind example; do
      [ -z "$w" ] && continue
      args=(run -q --mode "$mode" --workload "$w" --variant "$v")
      if [ -n "$example" ]; then args+=(--graph "$example")
      elif [ "$kind" = graph ]; then args+=(--graph "$src/testbenches/graphs/small.mtx")
      else args+=(--tiles 3x3 --tile 8); [ "$mode" = timing ] && args+=(-s gpu.cta_scheduler=dats); fi
      if IRRGPU_WORKLOADS_DIR="$dir" "$irrgpu" "${args[@]}" >"$dir/$w.$v.log" 2>&1 && grep -q "check: PASS" "$dir/$w.$v.log"; then
        if known_gap "run_${w}_${v}_$tag"; then
          echo "passes now, remove it from corpus_gaps.txt: run_${w}_${v}_$tag"
          rejected=$((rejected + 1))
        fi
      elif known_gap "run_${w}_${v}_$tag"; then
        known=$((known + 1))
      else
        echo "failed: $w $v ($mode) with $flags for $arch: $(tail -2 "$dir/$w.$v.log")"
        rejected=$((rejected + 1))
      fi
      checked=$((checked + 1))
    done <<<"$runs"
    # The suite kernels, as written and split by the DAC pass (docs/dac.md): each against its CPU
    # reference and the split against the original.
    if IRRGPU_WORKLOADS_DIR="$dir" "$irrgpu" dac run >"$dir/dac.log" 2>&1; then
      checked=$((checked + 1))
    elif known_gap "dac_$tag"; then
      known=$((known + 1))
    else
      echo "failed: dac run with $flags for $arch: $(grep -v ' ok$' "$dir/dac.log" | tail -3)"
      rejected=$((rejected + 1))
    fi
    # The lock benchmarks' spin loops and message passing (workloads/locks), every variant listed.
    for b in $lock_benchmarks; do
      # Contended where it is cheap; SGD's contention and MST's and MF's default graphs cost
      # seconds a run functionally and cover no more PTX.
      case $b in
        sgd) input=(--collisions 100000) ;;
        mst) input=(--graph grid:rows=16,cols=16) ;;
        mf) input=(--graph mesh:rows=8,cols=8) ;;
        *) input=(--collisions 1024) ;;
      esac
      for v in $lock_variants; do
        if IRRGPU_WORKLOADS_DIR="$dir" "$irrgpu" run -q --mode functional --workload "$b" --variant "$v" "${input[@]}" \
            --servers 4 >"$dir/$b.$v.log" 2>&1 && grep -q "check: PASS" "$dir/$b.$v.log"; then
          checked=$((checked + 1))
        else
          echo "failed: $b $v with $flags for $arch: $(tail -2 "$dir/$b.$v.log")"
          rejected=$((rejected + 1))
        fi
      done
    done
    # The microbenchmarks call their step through a function pointer (indirect at -O0 -G).
    if ! IRRGPU_WORKLOADS_DIR="$dir" "$irrgpu" calibrate alu >"$dir/calibrate.log" 2>&1; then
      echo "failed: calibrate alu with $flags for $arch: $(tail -2 "$dir/calibrate.log")"
      rejected=$((rejected + 1))
    fi
  done
done
echo "ptx corpus run: the Exec tests on ${#ran[@]} distinct option sets' code; $checked workload runs checked against the CPU ($known known gaps) and the microbenchmarks on ${#ran_workloads[@]}; $rejected unexpected"
[ "$rejected" -eq 0 ]
