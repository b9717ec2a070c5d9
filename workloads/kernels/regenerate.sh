#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Regenerates the workloads' checked-in PTX and ptxas metadata (needs nvcc; the build never does).
set -euo pipefail
exec "$(dirname "$0")/../../testbenches/ptx/regenerate.sh" "$(cd "$(dirname "$0")" && pwd)"
