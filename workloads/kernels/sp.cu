// SPDX-License-Identifier: Apache-2.0
// Survey propagation with decimation (workloads/sp): the topology-driven survey sweep over every
// clause, the variables' biases and the fixing of the most biased ones. The worklist version of
// the sweep is wl.cu's sp_update_wl.
#include "sp.cuh"

// One sweep: every open clause updates its surveys in place; `changed` set when one moved.
extern "C" __global__ void sp_update_all(const unsigned* crow, const unsigned* lit, const unsigned* vrow, const unsigned* occ,
                                         const unsigned* eclause, const unsigned* csat, const unsigned* val, float* eta,
                                         unsigned m, int* changed) {
  const unsigned a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= m || csat[a]) return;
  if (sp_update(a, crow, lit, vrow, occ, eclause, csat, val, eta) > SP_EPSILON) *changed = 1;
}

// Each free variable's bias W+ - W- and polarisation max(W+, W-) from the surveys of its live
// clauses (both 0 once fixed).
extern "C" __global__ void sp_bias(const unsigned* lit, const unsigned* vrow, const unsigned* occ, const unsigned* eclause,
                                   const unsigned* csat, const unsigned* val, const float* eta, float* bias, float* polar,
                                   unsigned n) {
  const unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  float plain = 1.f, negated = 1.f;
  if (!val[v])
    for (unsigned o = vrow[v]; o < vrow[v + 1]; ++o) {
      const unsigned f = occ[o];
      if (csat[eclause[f]]) continue;
      if (lit[f] & 1) negated *= 1.f - eta[f];
      else plain *= 1.f - eta[f];
    }
  const float t = (1.f - plain) * negated, f = (1.f - negated) * plain, sum = t + f + plain * negated;
  const bool none = val[v] || sum <= 0.f;
  bias[v] = none ? 0.f : (t - f) / sum;
  polar[v] = none ? 0.f : fmaxf(t, f) / sum;
}

// Fixes the `count` chosen variables (chosen[i] = v << 1 | 1 for false): each clause a literal
// of theirs satisfies is removed.
extern "C" __global__ void sp_fix(const unsigned* chosen, unsigned count, const unsigned* lit, const unsigned* vrow,
                                  const unsigned* occ, const unsigned* eclause, unsigned* csat, unsigned* val) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const unsigned v = chosen[i] >> 1, negative = chosen[i] & 1;
  val[v] = negative ? 2 : 1;
  for (unsigned o = vrow[v]; o < vrow[v + 1]; ++o)
    if ((lit[occ[o]] & 1) == negative) csat[eclause[occ[o]]] = 1;
}
