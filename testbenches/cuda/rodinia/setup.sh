# SPDX-License-Identifier: Apache-2.0
# Rodinia 3.1's CUDA programs made buildable here, sourced by rodinia_test.sh and
# experiments/dac_rodinia.py with $suite (../shared/suites/rodinia-3.1), $out (a new folder) and
# $here (this folder) set: the suite copied to $out/src (never edited in ../shared), a CUDA_DIR
# at $out/cuda whose nvcc and gcc are the wrappers beside this script, and `build DIR [TARGET...]`,
# the program's own Makefile. Exits 77 (skipped) without nvcc or the suite; `fail` must be defined.
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$nvcc" ] || { echo "rodinia: skipped: no nvcc (the CUDA toolkit) on the PATH or in /usr/local/cuda/bin"; exit 77; }
[ -d "$suite/cuda" ] || { echo "rodinia: skipped: no Rodinia 3.1 at $suite (../shared/suites/rodinia-3.1)"; exit 77; }
export IRRGPU_NVCC=$nvcc
toolkit=$(dirname "$(dirname "$(readlink -f "$nvcc")")")
rm -rf "$out" && mkdir -p "$out/cuda/bin"
ln -s "$here/nvcc" "$out/cuda/bin/nvcc" && ln -s "$here/gcc" "$out/cuda/bin/gcc"
ln -s "$toolkit/include" "$out/cuda/include"
# The Makefiles link -L$(CUDA_DIR)/lib64 -lcudart, some -lcuda (the driver library, which a machine
# without a GPU driver lacks): lib64 here holds the runtime from where nvcc itself links it, and the
# driver stub of the toolkit, or else an empty libcuda.so (the programs call only the runtime; the
# linker's --as-needed leaves an unused library out of the executable). LIBRARY_PATH for the
# Makefiles that name /usr/local/cuda/lib64 (lavaMD).
mkdir "$out/cuda/lib64"
for dir in $("$nvcc" --dryrun -cudart shared -x cu -o "$out/probe" /dev/null 2>&1 | sed -n 's/.*LIBRARIES=//p' | tr -d '"' | sed 's/-L//g'); do
  for lib in "$dir"/libcudart.so* "$dir"/libcuda.so; do
    [ -e "$lib" ] && [ ! -e "$out/cuda/lib64/${lib##*/}" ] && ln -s "$(readlink -f "$lib")" "$out/cuda/lib64/${lib##*/}"
  done
done
[ -e "$out/cuda/lib64/libcudart.so" ] || { echo "rodinia: FAILED: nvcc's library directories hold no libcudart.so"; exit 1; }
[ -e "$out/cuda/lib64/libcuda.so" ] || gcc -shared -o "$out/cuda/lib64/libcuda.so" -x c /dev/null
export LIBRARY_PATH=$out/cuda/lib64${LIBRARY_PATH:+:$LIBRARY_PATH}
cp -r "$suite/cuda" "$out/src" && cp -r "$suite/common" "$out/common"

# build DIR [TARGET...]: the program's own Makefile, the wrappers first on the PATH.
build() {
  local dir=$1
  shift
  (cd "$out/src/$dir" && PATH="$out/cuda/bin:$PATH" make -s CUDA_DIR="$out/cuda" SDK_DIR="$here/sdk/" "$@" >"$out/$(tr / _ <<<"$dir").build" 2>&1) ||
    { fail "$dir: the build failed: $(grep -m2 -i -e error -e 'cannot find' -e undefined "$out/$(tr / _ <<<"$dir").build")"; return 1; }
}
