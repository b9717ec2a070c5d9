#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# PTX generality (docs/reliability.md): every .cu in the project compiled by nvcc at -O3, -O0 -G
# and -lineinfo for sm_75, sm_80 and sm_90 (as compute_XX: PTX only, no ptxas); `irrgpu ptx check` must take every file. Exit 77
# (skipped) where nvcc is not installed. corpus_gaps.txt lists what the parser does not take yet
# (a glob of file names, then why): those must still be rejected, so that a fix updates the list.
# Usage: corpus_test.sh IRRGPU SOURCE_DIR OUT_DIR
set -euo pipefail
irrgpu=$1 src=$2 out=$3
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
