// SPDX-License-Identifier: Apache-2.0
// PageRank, push style with atomic adds: topology-driven power iterations, and a data-driven
// residual push over a worklist (vertices whose residual crossed the threshold).
#define D 0.85f

extern "C" __global__ void pr_push(const unsigned* row, const unsigned* col, const float* rank, float* next, unsigned n) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  unsigned deg = row[v + 1] - row[v];
  if (!deg) return;
  float share = rank[v] / deg;
  for (unsigned e = row[v]; e < row[v + 1]; ++e) atomicAdd(&next[col[e]], share);
}

extern "C" __global__ void pr_update(float* rank, float* next, unsigned n, float* delta) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  float r = (1.0f - D) / n + D * next[v];
  atomicAdd(delta, fabsf(r - rank[v]));
  rank[v] = r;
  next[v] = 0.0f;
}

extern "C" __global__ void pr_data(const unsigned* row, const unsigned* col, float* rank, float* residual,
                                   const unsigned* in, unsigned in_count, unsigned* out, unsigned* out_count, float eps) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < in_count; i += gridDim.x * blockDim.x) {
    unsigned v = in[i];
    float r = atomicExch(&residual[v], 0.0f);
    if (r == 0.0f) continue;
    rank[v] += r;
    unsigned deg = row[v + 1] - row[v];
    if (!deg) continue;
    float share = D * r / deg;
    for (unsigned e = row[v]; e < row[v + 1]; ++e) {
      unsigned u = col[e];
      float old = atomicAdd(&residual[u], share);
      if (old < eps && old + share >= eps) out[atomicAdd(out_count, 1u)] = u;
    }
  }
}
