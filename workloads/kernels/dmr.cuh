// SPDX-License-Identifier: Apache-2.0
// Delaunay mesh refinement (workloads/dmr), LonestarGPU's DMR: a bad triangle (an angle below 30
// degrees) gets a point at its circumcentre — or, when that lies beyond the square's border or
// encroaches on a border edge (inside its diametral circle), at that edge's midpoint (Ruppert) —
// and the cavity of triangles whose circumcircle holds the point is re-triangulated around it.
// Cavities that overlap are resolved by marking: each attempt marks its cavity and the triangles
// around it with its key (round, then lower triangle first, by atomicMax); in the next launch an
// attempt whose marks all survived re-triangulates, the others try again. Shared by the topology
// kernels (dmr.cu) and the worklist kernels (wl.cu); workloads/dmr/dmr.cpp drives them.
//
// A triangle t's points are v[3t .. 3t+2] (counter-clockwise), nb[3t + i] the triangle across the
// edge opposite point i (DMR_NONE on the border). An attempt for t keeps its cavity in
// cav[DMR_SLOTS t ..], its size in cavn[t], its point in cx/cy[t], the border edge it splits in
// split[t] (cavity index << 2 | edge, or DMR_NONE).
#pragma once

#define DMR_NONE 0xffffffffu
#define DMR_CAVITY 30             // cavity triangles at most (the run stops naming it past that)
#define DMR_SLOTS (DMR_CAVITY + 2)  // the new triangles of a cavity: its border edges
#define DMR_BAD_COS 0.86602540378443865  // cos 30 degrees
#define DMR_ERR_CAPACITY 1u
#define DMR_ERR_CAVITY 2u
#define DMR_ERR_WALK 4u

struct DmrMesh {
  double* xy;
  unsigned *v, *nb, *npoints, *ntri;
  unsigned long long* owner;
  unsigned *cav, *cavn, *split;
  double *cx, *cy;
  unsigned *error;
  unsigned pcap, tcap;
};

__device__ __forceinline__ double dmr_orient(double ax, double ay, double bx, double by, double px, double py) {
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

__device__ __forceinline__ void dmr_point(const DmrMesh& m, unsigned t, int i, double& x, double& y) {
  const unsigned p = m.v[3 * t + i];
  x = m.xy[2 * p];
  y = m.xy[2 * p + 1];
}

// The smallest angle below 30 degrees (workloads/graph/delaunay.cpp's min_angle_cos).
__device__ __noinline__ bool dmr_bad(const DmrMesh& m, unsigned t) {
  double x[3], y[3], len2[3];
  for (int i = 0; i < 3; ++i) dmr_point(m, t, i, x[i], y[i]);
  for (int i = 0; i < 3; ++i) {
    const int s = (i + 1) % 3, u = (i + 2) % 3;
    len2[i] = (x[s] - x[u]) * (x[s] - x[u]) + (y[s] - y[u]) * (y[s] - y[u]);
  }
  const int i = len2[1] < len2[0] ? (len2[2] < len2[1] ? 2 : 1) : (len2[2] < len2[0] ? 2 : 0);
  const double b2 = len2[(i + 1) % 3], c2 = len2[(i + 2) % 3];
  return (b2 + c2 - len2[i]) / (2 * sqrt(b2 * c2)) > DMR_BAD_COS;
}

// Whether (px, py) is strictly inside triangle t's circumcircle.
__device__ __noinline__ bool dmr_incircle(const DmrMesh& m, unsigned t, double px, double py) {
  double x[3], y[3];
  for (int i = 0; i < 3; ++i) dmr_point(m, t, i, x[i], y[i]), x[i] -= px, y[i] -= py;
  return (x[0] * x[0] + y[0] * y[0]) * (x[1] * y[2] - x[2] * y[1]) - (x[1] * x[1] + y[1] * y[1]) * (x[0] * y[2] - x[2] * y[0]) +
             (x[2] * x[2] + y[2] * y[2]) * (x[0] * y[1] - x[1] * y[0]) > 0;
}

// Phase one for bad triangle t: its point, its cavity, the marks. False when t is not bad (or on
// an error, m.error set).
__device__ __noinline__ bool dmr_cavity(const DmrMesh& m, unsigned t, unsigned long long key) {
  if (!dmr_bad(m, t)) return false;
  double x[3], y[3];
  #pragma unroll 1
  for (int i = 0; i < 3; ++i) dmr_point(m, t, i, x[i], y[i]);
  const double bx = x[1] - x[0], by = y[1] - y[0], qx = x[2] - x[0], qy = y[2] - y[0], d = 2 * (bx * qy - by * qx);
  double px = x[0] + (qy * (bx * bx + by * by) - by * (qx * qx + qy * qy)) / d;
  double py = y[0] + (bx * (qx * qx + qy * qy) - qx * (bx * bx + by * by)) / d;
  // Walk to the triangle holding the point: across an edge it lies beyond.
  unsigned cur = t, split = DMR_NONE;
  #pragma unroll 1
  for (unsigned steps = 0;; ++steps) {
    if (steps > *m.ntri) {
      atomicOr(m.error, DMR_ERR_WALK);
      return false;
    }
    #pragma unroll 1
    for (int i = 0; i < 3; ++i) dmr_point(m, cur, i, x[i], y[i]);
    int beyond = -1;
    #pragma unroll 1
    for (int i = 0; i < 3 && beyond < 0; ++i)
      if (dmr_orient(x[(i + 1) % 3], y[(i + 1) % 3], x[(i + 2) % 3], y[(i + 2) % 3], px, py) < 0) beyond = i;
    if (beyond < 0) break;
    if (m.nb[3 * cur + beyond] == DMR_NONE) {  // beyond the border
      split = beyond;
      break;
    }
    cur = m.nb[3 * cur + beyond];
  }
  #pragma unroll 1
  for (int i = 0; i < 3 && split == DMR_NONE; ++i) {  // encroaching on a border edge of its triangle
    const int s = (i + 1) % 3, u = (i + 2) % 3;
    if (m.nb[3 * cur + i] == DMR_NONE && (px - x[s]) * (px - x[u]) + (py - y[s]) * (py - y[u]) < 0) split = i;
  }
  if (split != DMR_NONE) {
    const int s = (split + 1) % 3, u = (split + 2) % 3;
    px = (x[s] + x[u]) / 2;
    py = (y[s] + y[u]) / 2;
  }
  unsigned* cav = &m.cav[DMR_SLOTS * t];
  unsigned n = 1;
  cav[0] = cur;
  #pragma unroll 1
  for (unsigned k = 0; k < n; ++k)
    #pragma unroll 1
    for (int i = 0; i < 3; ++i) {
      const unsigned u = m.nb[3 * cav[k] + i];
      if (u == DMR_NONE) continue;
      bool in = false;
      #pragma unroll 1
      for (unsigned j = 0; j < n; ++j) in = in || cav[j] == u;
      if (in || !dmr_incircle(m, u, px, py)) continue;
      if (n == DMR_CAVITY) {
        atomicOr(m.error, DMR_ERR_CAVITY);
        return false;
      }
      cav[n++] = u;
    }
  m.cavn[t] = n;
  m.split[t] = split;  // an edge of cav[0]
  m.cx[t] = px;
  m.cy[t] = py;
  #pragma unroll 1
  for (unsigned k = 0; k < n; ++k) {
    atomicMax(&m.owner[cav[k]], key);
    #pragma unroll 1
    for (int i = 0; i < 3; ++i)
      if (m.nb[3 * cav[k] + i] != DMR_NONE) atomicMax(&m.owner[m.nb[3 * cav[k] + i]], key);
  }
  return true;
}

// Phase two for t's attempt: when every mark is still its key, the point is added and the cavity
// re-triangulated; cav[DMR_SLOTS t ..] then lists the new triangles and the count is returned.
// 0 when another attempt won a triangle (or on an error).
__device__ __noinline__ unsigned dmr_refine(const DmrMesh& m, unsigned t, unsigned long long key) {
  unsigned* cav = &m.cav[DMR_SLOTS * t];
  const unsigned n = m.cavn[t], split = m.split[t];
  #pragma unroll 1
  for (unsigned k = 0; k < n; ++k) {
    if (m.owner[cav[k]] != key) return 0;
    #pragma unroll 1
    for (int i = 0; i < 3; ++i)
      if (m.nb[3 * cav[k] + i] != DMR_NONE && m.owner[m.nb[3 * cav[k] + i]] != key) return 0;
  }
  unsigned a[DMR_SLOTS], b[DMR_SLOTS], out[DMR_SLOTS], slot[DMR_SLOTS];
  unsigned edges = 0;
  #pragma unroll 1
  for (unsigned k = 0; k < n; ++k)
    #pragma unroll 1
    for (int i = 0; i < 3; ++i) {
      const unsigned u = m.nb[3 * cav[k] + i];
      bool in = false;
      #pragma unroll 1
      for (unsigned j = 0; j < n && u != DMR_NONE; ++j) in = in || cav[j] == u;
      if (in || (k == 0 && i == (int)split)) continue;
      if (edges == DMR_SLOTS) {
        atomicOr(m.error, DMR_ERR_CAVITY);
        return 0;
      }
      a[edges] = m.v[3 * cav[k] + (i + 1) % 3];
      b[edges] = m.v[3 * cav[k] + (i + 2) % 3];
      out[edges++] = u;
    }
  const unsigned p = atomicAdd(m.npoints, 1u);
  const unsigned fresh = edges > n ? atomicAdd(m.ntri, edges - n) : 0;
  if (p >= m.pcap || fresh + edges - n > m.tcap) {
    atomicOr(m.error, DMR_ERR_CAPACITY);
    return 0;
  }
  m.xy[2 * p] = m.cx[t];
  m.xy[2 * p + 1] = m.cy[t];
  #pragma unroll 1
  for (unsigned j = 0; j < edges; ++j) slot[j] = j < n ? cav[j] : fresh + j - n;
  #pragma unroll 1
  for (unsigned j = 0; j < edges; ++j) {
    const unsigned s = 3 * slot[j];
    m.v[s] = a[j];
    m.v[s + 1] = b[j];
    m.v[s + 2] = p;
    m.nb[s] = m.nb[s + 1] = DMR_NONE;
    m.nb[s + 2] = out[j];
    #pragma unroll 1
    for (unsigned k = 0; k < edges; ++k) {
      if (a[k] == b[j]) m.nb[s] = slot[k];      // across (b, p)
      if (b[k] == a[j]) m.nb[s + 1] = slot[k];  // across (p, a)
    }
    if (out[j] != DMR_NONE)  // its edge (b, a): by the edge, as a cavity triangle's slot may be reused already
      #pragma unroll 1
      for (int i = 0; i < 3; ++i)
        if (m.v[3 * out[j] + (i + 1) % 3] == b[j] && m.v[3 * out[j] + (i + 2) % 3] == a[j]) m.nb[3 * out[j] + i] = slot[j];
  }
  #pragma unroll 1
  for (unsigned j = 0; j < edges; ++j) cav[j] = slot[j];
  return edges;
}
