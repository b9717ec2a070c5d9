#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Regenerates the checked-in PTX of the test kernels (needs nvcc; the build never does).
set -euo pipefail
cd "$(dirname "$0")"
for cu in *.cu; do
  nvcc -ptx -arch=sm_75 -lineinfo "$cu" -o "${cu%.cu}.ptx"
  # Keep the checked-in files free of this machine's paths.
  sed -i "s|\"$(pwd)/|\"|" "${cu%.cu}.ptx"
done
