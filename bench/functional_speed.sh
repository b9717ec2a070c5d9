#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Functional executor speed: warp instructions per host second on the tiled matrix multiply and
# the reduction of testbenches/ptx, through the exec tests' kernels (docs/performance.md).
# Usage: bench/functional_speed.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$build/bench/functional_speed"
