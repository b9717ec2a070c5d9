#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# cmake/SystemC.cmake falls back to SYSTEMC_HOME when neither the SystemCLanguage package nor
# pkg-config is available. Usage: systemc_home_test.sh SOURCE_DIR SYSTEMC_HOME
set -euo pipefail
src=$1 home=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log=$(SYSTEMC_HOME="$home" cmake -S "$src/testbenches/install/systemc_home" -B "$tmp" -G Ninja \
      -DIRRGPU_SOURCE_DIR="$src" -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON)
echo "$log" | grep -q "irrgpu-systemc-via: SYSTEMC_HOME" || { echo "$log"; exit 1; }
cmake --build "$tmp" >/dev/null
SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$tmp/probe" | grep -q '^2\.3'
echo "1 passed, 0 failed"
