#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Rodinia 3.1's CUDA programs (../shared/suites/rodinia-3.1, code nobody here wrote) as a standing
# test: each copied out of the suite, built by its own Makefile through the nvcc and gcc wrappers
# beside this script (-cudart shared, PTX, compat.h), given small inputs and run by `irrgpu exec`
# functionally, and timed on gtx480 where short, also with DAC; inputs from inputs.py (Rodinia's data package is
# not in ../shared). A program passes when it exits 0 with no call failed on the device and its
# result holds: its own check where it has one (lud, hotspot3D, huffman), one worked out here (bfs,
# nn), else the timed run's output files identical to the functional run's, or its last message.
# docs/cuda-apps.md has the table of all 23 programs. Exit 77 (skipped) without nvcc or the suite.
# Usage: rodinia_test.sh IRRGPU SUITE_DIR OUT_DIR
set -uo pipefail
irrgpu=$1 suite=$2 out=$3
here=$(dirname "$(readlink -f "$0")")
. "$here/setup.sh"
failed=0 passed=0
fail() { echo "FAILED: $*"; failed=$((failed + 1)); }

# run NAME DIR MODE CHECK COMMAND...: irrgpu exec in the program's folder; CHECK is a command run
# there afterwards on the log (exit 0 when the program's result holds). MODE dac: timed with DAC's
# decoupling pass on every kernel (-s dac.enabled=true, docs/cuda-apps.md).
run() {
  local name=$1 dir=$2 mode=$3 check=$4
  shift 4
  local log="$out/$name.$mode.log" how=(--mode "$mode")
  [ "$mode" = dac ] && how=(--mode timing -s dac.enabled=true)
  if (cd "$out/src/$dir" && timeout 600 "$irrgpu" exec -q "${how[@]}" -o "$out/$name.$mode" -- "$@" >"$log" 2>&1) &&
     grep -q '"exit_code": 0' "$out/$name.$mode/exec.json" && (cd "$out/src/$dir" && eval "$check") <"$log"; then
    echo "ok: $name ($mode)"
    passed=$((passed + 1))
  else
    fail "$name ($mode): $(grep -v '^  ' "$log" | tail -2)"
  fi
}
finished() { grep -q "$1"; }
# same FILE NAME: the timed run wrote FILE as the functional one did (kept as FILE.NAME.functional).
same() { if [ -f "$1.$2.functional" ]; then cmp -s "$1" "$1.$2.functional"; else cp "$1" "$1.$2.functional"; fi; }
# nn's five nearest hurricanes to (30, 90) against the distances worked out here.
nearest() {
  grep -o 'Distance=[0-9.]*' | cut -d= -f2 >"$out/nn.got"
  cat "$out"/data/nn/cane2_*.db | awk '{ la = substr($0, 29, 5) + 0; lo = substr($0, 34, 5) + 0; printf "%.6f\n", sqrt((la - 30) ^ 2 + (lo - 90) ^ 2) }' |
    sort -g | awk 'NR <= 5' | paste - "$out/nn.got" | awk '{ d = $1 - $2; if (d < -1e-4 || d > 1e-4 || NF != 2) bad = 1 } END { exit bad || NR != 5 }'
}
python3 "$here/inputs.py" "$out/data"

# bfs: a random graph in Rodinia's format, and the distances a BFS on the CPU gives.
gen_bfs() {
  awk -v n=2048 -v deg=6 'BEGIN { srand(7); print n; e = 0
    for (v = 0; v < n; v++) { print e, deg; for (k = 0; k < deg; k++) dst[e++] = (v * 37 + int(rand() * n)) % n }
    print 0; print e; for (i = 0; i < e; i++) print dst[i], 1 }' >"$out/src/bfs/graph.txt"
  awk 'NR == 1 { n = $1; next } NR <= n + 1 { start[NR - 2] = $1; cnt[NR - 2] = $2; next }
       NR == n + 2 { src = $1; next } NR == n + 3 { next } { dst[NR - n - 4] = $1 }
       END { for (v = 0; v < n; v++) d[v] = -1; d[src] = 0; q[0] = src; h = 0; t = 1
             while (h < t) { u = q[h++]; for (i = start[u]; i < start[u] + cnt[u]; i++) if (d[dst[i]] < 0) { d[dst[i]] = d[u] + 1; q[t++] = dst[i] } }
             for (v = 0; v < n; v++) print v ") cost:" d[v] }' "$out/src/bfs/graph.txt" >"$out/bfs.expected"
}

build bfs && gen_bfs && for mode in functional timing dac; do
  run bfs bfs "$mode" 'diff -q result.txt "$out/bfs.expected" >/dev/null' ./bfs.out graph.txt
done
build backprop && for mode in functional timing dac; do run backprop backprop "$mode" 'finished "Training done"' ./backprop 2048; done
build gaussian && for mode in functional timing dac; do run gaussian gaussian "$mode" 'finished "Time total"' ./gaussian -s 16; done
build lud && for mode in functional timing dac; do
  run lud lud "$mode" 'awk "/>>>Verify<<<</ { v = 1 } /dismatch/ { bad = 1 } END { exit bad || !v }"' cuda/lud_cuda -s 64 -v
done
build nw && for mode in functional timing dac; do run nw nw "$mode" 'finished "Processing bottom-right matrix"' ./needle 64 10; done
build pathfinder && for mode in functional timing dac; do run pathfinder pathfinder "$mode" 'finished "targetBlock"' ./pathfinder 1000 20 5; done
build lavaMD && run lavaMD lavaMD functional 'finished "Total time"' ./lavaMD -boxes1d 2
build particlefilter && run particlefilter particlefilter functional 'finished "ENTIRE PROGRAM TOOK"' ./particlefilter_naive -x 32 -y 32 -z 4 -np 100 &&
  run particlefilter_float particlefilter functional 'finished "ENTIRE PROGRAM TOOK"' ./particlefilter_float -x 32 -y 32 -z 4 -np 100
build streamcluster && run streamcluster streamcluster functional 'finished "time kernel"' ./sc_gpu 10 20 16 256 256 100 none output.txt 1
build srad/srad_v1 && run srad_v1 srad/srad_v1 functional 'finished "Total time"' ./srad 2 0.5 64 64
build srad/srad_v2 && for mode in functional timing dac; do run srad_v2 srad/srad_v2 "$mode" 'finished "Computation Done"' ./srad 64 64 0 31 0 31 0.5 2; done
build hotspot && for mode in functional timing dac; do
  run hotspot hotspot "$mode" 'same output.out hotspot' ./hotspot 64 2 4 ../../data/hotspot/temp_64 ../../data/hotspot/power_64 output.out
done
# hotspot3D's Makefile includes an absolute path of its authors' machine: built as it says, by hand.
(cd "$out/src/hotspot3D" && PATH="$out/cuda/bin:$PATH" nvcc -O3 3D.cu -o 3D >"$out/hotspot3D.build" 2>&1) || fail "hotspot3D: the build failed"
for mode in functional timing dac; do  # it checks itself against its CPU version: "Accuracy"
  run hotspot3D hotspot3D "$mode" 'awk "/^Accuracy:/ { ok = \$2 < 1e-3 } END { exit !ok }"' ./3D 64 8 4 ../../data/hotspot3D/power_64x8 ../../data/hotspot3D/temp_64x8 output.out
done
build dwt2d && cp "$out/data/dwt2d/rgb64.bin" "$out/src/dwt2d/" && for mode in functional timing dac; do
  run dwt2d dwt2d "$mode" 'same rgb64.bin.dwt.r dwt2d && same rgb64.bin.dwt.b dwt2d' ./dwt2d rgb64.bin -d 64x64 -f -5 -l 3
done
build b+tree && for mode in functional timing dac; do
  run b+tree b+tree "$mode" 'finished "command: j" && same output.txt b+tree' ./b+tree.out file ../../data/b+tree/keys.txt command ../../data/b+tree/command.txt
done
build huffman && run huffman huffman functional 'finished "PASS! vectors are matching"' ./pavle ../../data/huffman/text.in
build nn && for mode in functional timing dac; do run nn nn "$mode" nearest ./nn ../../data/nn/files.txt -r 5 -lat 30 -lng 90; done
build myocyte && run myocyte myocyte functional 'awk "/not opened/ { bad = 1 } /Total time/ { done = 1 } END { exit bad || !done }"' ./myocyte.out 5 1 0
build cfd euler3d && run cfd cfd functional 'finished "Saved solution"' ./euler3d ../../data/cfd/brick.domn
build heartwall && run heartwall heartwall functional 'finished "frame progress: 0"' ./heartwall ../../data/heartwall/test.avi 1
echo "rodinia: $passed runs passed, $failed failed"
[ "$failed" -eq 0 ]
