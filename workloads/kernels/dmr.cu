// SPDX-License-Identifier: Apache-2.0
// Delaunay mesh refinement (dmr.cuh; workloads/dmr), topology-driven: each round a thread per
// triangle, every bad one attempting its cavity, then a thread per triangle again, each attempt
// re-triangulating if its marks survived. The worklist versions are wl.cu's dmr_*_wl.
#include "dmr.cuh"

// `changed` set when a triangle attempted; attempt[t] = round for those that did.
extern "C" __global__ void dmr_cavity_all(DmrMesh m, unsigned triangles, unsigned round, unsigned* attempt, int* changed) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < triangles && dmr_cavity(m, t, (unsigned long long)round << 32 | (0xffffffffu - t))) {
    attempt[t] = round;
    *changed = 1;
  }
}

extern "C" __global__ void dmr_refine_all(DmrMesh m, unsigned triangles, unsigned round, const unsigned* attempt) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < triangles && attempt[t] == round) dmr_refine(m, t, (unsigned long long)round << 32 | (0xffffffffu - t));
}
