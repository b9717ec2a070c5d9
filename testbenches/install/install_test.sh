#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs irrgpu from the build tree into a temporary prefix, builds a user program against it
# with find_package(irrgpu), and runs it, compiled with the build's own flags (a sanitizer build's
# libraries need the sanitizer in the program too). Usage: install_test.sh SOURCE_DIR BINARY_DIR [CXX_FLAGS]
set -euo pipefail
src=$1 bin=$2 flags=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$bin" --prefix "$tmp/prefix" >/dev/null
cmake -S "$src/testbenches/install/consumer" -B "$tmp/build" -G Ninja \
      -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_CXX_FLAGS="$flags" >/dev/null
cmake --build "$tmp/build" >/dev/null
out=$("$tmp/build/consumer")
echo "$out"
[ "$out" = "completed 100" ]
test -x "$tmp/prefix/bin/irrgpu"
test -f "$tmp/prefix/share/irrgpu/configs/gtx480.yaml"
echo "1 passed, 0 failed"
