// SPDX-License-Identifier: Apache-2.0
// Barnes-Hut (bh.cuh; workloads/bh): the bounding box, the topology-driven build, summary and sort
// (every body or cell each launch, the host relaunching until done), the force and integration
// kernels. The worklist versions of the build, summary, sort and force are wl.cu's bh_*_wl.
#include "bh.cuh"

// A float as an int that orders as the float does (for atomicMin / atomicMax).
__device__ __forceinline__ int bh_ordered(float f) {
  const int i = __float_as_int(f);
  return i >= 0 ? i : i ^ 0x7fffffff;
}

// box[0..2] the least x, y, z as bh_ordered ints, box[3..5] the greatest (the host starts them at
// INT_MAX / INT_MIN): each block reduces its bodies in shared memory, then one atomic per bound.
extern "C" __global__ void bh_bbox(const float* x, const float* y, const float* z, unsigned n, int* box) {
  __shared__ float lo[3][256], hi[3][256];
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x, t = threadIdx.x;
  const unsigned j = i < n ? i : 0;
  lo[0][t] = hi[0][t] = x[j];
  lo[1][t] = hi[1][t] = y[j];
  lo[2][t] = hi[2][t] = z[j];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      for (unsigned a = 0; a < 3; ++a) {
        lo[a][t] = fminf(lo[a][t], lo[a][t + s]);
        hi[a][t] = fmaxf(hi[a][t], hi[a][t + s]);
      }
    __syncthreads();
  }
  if (t < 3) {
    atomicMin(&box[t], bh_ordered(lo[t][0]));
    atomicMax(&box[3 + t], bh_ordered(hi[t][0]));
  }
}

// Every body inserted, each thread retrying its own until the locks let it.
extern "C" __global__ void bh_build(BhTree t, float cx, float cy, float cz, float h) {
  const unsigned b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b < t.n)
    while (!bh_insert(t, b, cx, cy, cz, h)) {
    }
}

// One sweep over the cells: each whose child cells are all summarised summarises itself.
extern "C" __global__ void bh_summarise_all(BhTree t) {
  const unsigned c = t.n + blockIdx.x * blockDim.x + threadIdx.x;
  if (c - t.n < *t.ncells && t.mass[c] < 0.f) bh_summarise(t, c);
}

// One sweep over the cells: each placed (start known) and not sorted yet places its children;
// `changed` set when one did.
extern "C" __global__ void bh_sort_all(BhTree t, int* changed) {
  const unsigned c = t.n + blockIdx.x * blockDim.x + threadIdx.x;
  if (c - t.n >= *t.ncells || t.first[c - t.n] != BH_NONE || *(volatile unsigned*)&t.start[c - t.n] == BH_NONE) return;
  __threadfence();
  bh_sort(t, c);
  *changed = 1;
}

// The i-th body in tree order (a warp's bodies are near each other, so walk alike).
extern "C" __global__ void bh_force_all(BhTree t, float* ax, float* ay, float* az) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < t.n) bh_force(t, t.sorted[i], ax, ay, az);
}

// A time step's kick and drift (LonestarGPU's dt).
extern "C" __global__ void bh_integrate(float* x, float* y, float* z, float* vx, float* vy, float* vz, const float* ax,
                                        const float* ay, const float* az, unsigned n, float dt) {
  const unsigned b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= n) return;
  vx[b] += ax[b] * dt;
  vy[b] += ay[b] * dt;
  vz[b] += az[b] * dt;
  x[b] += vx[b] * dt;
  y[b] += vy[b] * dt;
  z[b] += vz[b] * dt;
}
