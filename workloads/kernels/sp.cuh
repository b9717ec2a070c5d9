// SPDX-License-Identifier: Apache-2.0
// Survey propagation on a K-SAT factor graph (Braunstein, Mezard and Zecchina's update, as
// LonestarGPU's SP), shared by the topology kernels (sp.cu) and the worklist kernel (wl.cu).
// Clause a's literals are edges crow[a] .. crow[a+1]-1: lit[e] = variable << 1 | negated, eta[e]
// its survey. occ[vrow[v] .. vrow[v+1]-1] are variable v's edges, eclause[e] an edge's clause.
// Decimation removes only: csat[a] 1 once a fixed variable satisfies clause a, val[v] 1 (true)
// or 2 (false) once v is fixed; a fixed variable's literal in a clause still open is false.
#pragma once

#define SP_MAX_K 8
#define SP_EPSILON 0.01f  // a survey that moves less has converged (LonestarGPU's; the SP paper 1e-3)

// Clause a's new surveys from its variables' other live clauses; returns the largest change.
__device__ __forceinline__ float sp_update(unsigned a, const unsigned* crow, const unsigned* lit, const unsigned* vrow,
                                           const unsigned* occ, const unsigned* eclause, const unsigned* csat,
                                           const unsigned* val, float* eta) {
  const unsigned first = crow[a], last = crow[a + 1];
  float ratio[SP_MAX_K];  // per literal: the probability its variable is forced against a (u / (u + s + 0))
  // Loops over a clause's literals stay rolled: unrolled to SP_MAX_K the kernels outgrow kim4x16's
  // 8 KB instruction cache, which is not modelled (testbenches/unit/presets_test.cpp).
#pragma unroll 1
  for (unsigned e = first; e < last; ++e) {
    const unsigned v = lit[e] >> 1;
    if (val[v]) continue;
    float same = 1.f, opposite = 1.f;  // products of (1 - eta) over v's other live clauses, by sign
    for (unsigned o = vrow[v]; o < vrow[v + 1]; ++o) {
      const unsigned f = occ[o];
      if (f == e || csat[eclause[f]]) continue;
      const float p = 1.f - eta[f];
      if ((lit[f] ^ lit[e]) & 1) opposite *= p;
      else same *= p;
    }
    const float u = (1.f - opposite) * same, s = (1.f - same) * opposite, z = same * opposite;
    ratio[e - first] = u + s + z > 0.f ? u / (u + s + z) : 0.f;
  }
  float change = 0.f;
#pragma unroll 1
  for (unsigned e = first; e < last; ++e) {
    if (val[lit[e] >> 1]) continue;
    float survey = 1.f;
#pragma unroll 1
    for (unsigned f = first; f < last; ++f)
      if (f != e && !val[lit[f] >> 1]) survey *= ratio[f - first];
    change = fmaxf(change, fabsf(survey - eta[e]));
    eta[e] = survey;
  }
  return change;
}
