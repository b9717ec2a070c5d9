// SPDX-License-Identifier: Apache-2.0
// Barnes-Hut (workloads/bh), LonestarGPU's structure (Burtscher and Pingali): an octree built by
// inserting bodies under per-slot locks, summarised bottom-up (mass, centre of mass, bodies below),
// bodies sorted in tree order, forces by a walk of the tree, integration. Shared by the
// topology kernels (bh.cu) and the worklist kernels (wl.cu); workloads/bh/bh.cpp drives them.
//
// Nodes 0 .. n-1 are bodies, n .. n+cap-1 cells (BH_ROOT(n) the root); a cell's arrays are
// indexed by node - n. child[8 (node - n) + octant] holds a node, BH_EMPTY or BH_LOCKED (a body
// being split). A cell's mass is negative until it is summarised. The force walk needs no stack:
// the sort threads the tree, first[c] a cell's first child and next[k] the node after k's subtree.
#pragma once

#define BH_EMPTY 0xffffffffu
#define BH_LOCKED 0xfffffffeu
#define BH_NONE 0xffffffffu
#define BH_MAX_DEPTH 48  // deeper means bodies (nearly) coincide: the host says so
#define BH_ERR_CELLS 1u
#define BH_ERR_DEPTH 2u
#define BH_ERR_WALK 4u
#define BH_THETA2 0.25f   // opening angle 0.5, squared (LonestarGPU's)
#define BH_EPS2 0.0025f   // softening 0.05, squared (LonestarGPU's)

struct BhTree {
  float *x, *y, *z, *mass;  // bodies and cells (a cell's: its centre of mass)
  unsigned* next;                                   // bodies and cells
  unsigned *child, *parent, *count, *start, *first;  // cells (count: bodies below)
  float* half;                                      // cells: half the side
  unsigned* sorted;                                 // bodies in tree order
  unsigned *ncells, *error;
  unsigned n, cap;
};

__device__ __forceinline__ unsigned bh_octant(float px, float py, float pz, float cx, float cy, float cz) {
  return (px > cx ? 1u : 0u) | (py > cy ? 2u : 0u) | (pz > cz ? 4u : 0u);
}

__device__ __forceinline__ void bh_shift(unsigned oct, float h, float& cx, float& cy, float& cz) {
  cx += oct & 1 ? h : -h;
  cy += oct & 2 ? h : -h;
  cz += oct & 4 ? h : -h;
}

// One attempt to insert body b from the root (centre cx, cy, cz, half side h): false when the
// slot it needs is locked or was taken meanwhile (try again) or on an error (t.error set).
__device__ __noinline__ bool bh_insert(const BhTree& t, unsigned b, float cx, float cy, float cz, float h) {
  const float px = t.x[b], py = t.y[b], pz = t.z[b];
  unsigned cell = t.n;
  for (unsigned depth = 0;; ++depth) {
    if (depth > BH_MAX_DEPTH) {
      atomicOr(t.error, BH_ERR_DEPTH);
      return true;
    }
    const unsigned oct = bh_octant(px, py, pz, cx, cy, cz);
    unsigned* slot = &t.child[8 * (cell - t.n) + oct];
    const unsigned ch = *(volatile unsigned*)slot;
    h *= 0.5f;
    bh_shift(oct, h, cx, cy, cz);
    if (ch != BH_EMPTY && ch != BH_LOCKED && ch >= t.n) {  // a cell: descend
      cell = ch;
      continue;
    }
    if (ch == BH_LOCKED || atomicCAS(slot, ch, BH_LOCKED) != ch) return false;
    if (ch == BH_EMPTY) {
      atomicExch(slot, b);
      return true;
    }
    // A body is there: cells down until the two part, published by the slot's unlock.
    const unsigned top = t.n + atomicAdd(t.ncells, 1u);
    unsigned sub = top, up = cell;
    const float ox = t.x[ch], oy = t.y[ch], oz = t.z[ch];
    for (;;) {
      if (sub - t.n >= t.cap || ++depth > BH_MAX_DEPTH) {
        atomicOr(t.error, sub - t.n >= t.cap ? BH_ERR_CELLS : BH_ERR_DEPTH);
        atomicExch(slot, ch);
        return true;
      }
      t.half[sub - t.n] = h;
      t.mass[sub] = -1.f;
      t.parent[sub - t.n] = up;
      const unsigned mine = bh_octant(px, py, pz, cx, cy, cz), theirs = bh_octant(ox, oy, oz, cx, cy, cz);
      if (mine != theirs) {
        t.child[8 * (sub - t.n) + mine] = b;
        t.child[8 * (sub - t.n) + theirs] = ch;
        break;
      }
      const unsigned deeper = t.n + atomicAdd(t.ncells, 1u);
      if (deeper - t.n < t.cap) t.child[8 * (sub - t.n) + mine] = deeper;
      h *= 0.5f;
      bh_shift(mine, h, cx, cy, cz);
      up = sub;
      sub = deeper;
    }
    __threadfence();
    atomicExch(slot, top);
    return true;
  }
}

// Cell c's mass, centre of mass and bodies below from its children: false (nothing written)
// while a child cell is not summarised yet.
__device__ __noinline__ bool bh_summarise(const BhTree& t, unsigned c) {
  float m = 0.f, sx = 0.f, sy = 0.f, sz = 0.f;
  unsigned bodies = 0;
  for (unsigned o = 0; o < 8; ++o) {
    const unsigned k = t.child[8 * (c - t.n) + o];
    if (k == BH_EMPTY) continue;
    const float km = *(volatile float*)&t.mass[k];
    if (km < 0.f) return false;
    m += km;
    sx += km * *(volatile float*)&t.x[k];
    sy += km * *(volatile float*)&t.y[k];
    sz += km * *(volatile float*)&t.z[k];
    bodies += k < t.n ? 1u : *(volatile unsigned*)&t.count[k - t.n];
  }
  t.x[c] = sx / m;
  t.y[c] = sy / m;
  t.z[c] = sz / m;
  t.count[c - t.n] = bodies;
  __threadfence();
  *(volatile float*)&t.mass[c] = m;
  return true;
}

// Cell c (its start and next known) places its children in tree order: a body's sorted slot, a
// cell's start; threads the walk (first, next). A child cell's start is written last, after a
// fence: in the topology-driven sweep it tells another thread the child is ready, and its next
// must be set by then. Returns the child cells' bit mask by octant.
__device__ __noinline__ unsigned bh_sort(const BhTree& t, unsigned c) {
  const unsigned begin = *(volatile unsigned*)&t.start[c - t.n];
  unsigned s = begin, prev = BH_NONE, cells = 0;
#pragma unroll 1  // kim4x16's 8 KB instruction cache (presets_test)
  for (unsigned o = 0; o < 8; ++o) {
    const unsigned k = t.child[8 * (c - t.n) + o];
    if (k == BH_EMPTY) continue;
    if (prev == BH_NONE) t.first[c - t.n] = k;
    else t.next[prev] = k;
    prev = k;
    if (k < t.n) {
      t.sorted[s++] = k;
    } else {
      s += t.count[k - t.n];
      cells |= 1u << o;
    }
  }
  t.next[prev] = *(volatile unsigned*)&t.next[c];
  __threadfence();
  s = begin;
#pragma unroll 1  // kim4x16's 8 KB instruction cache (presets_test)
  for (unsigned o = 0; o < 8; ++o) {
    const unsigned k = t.child[8 * (c - t.n) + o];
    if (k == BH_EMPTY) continue;
    if (k < t.n) {
      ++s;
    } else {
      *(volatile unsigned*)&t.start[k - t.n] = s;
      s += t.count[k - t.n];
    }
  }
  return cells;
}

// Body b's acceleration from a walk of the tree: a cell far enough (side / distance below the
// opening angle) counts as its centre of mass, else its children are visited.
__device__ __noinline__ void bh_force(const BhTree& t, unsigned b, float* ax, float* ay, float* az) {
  const float px = t.x[b], py = t.y[b], pz = t.z[b];
  float fx = 0.f, fy = 0.f, fz = 0.f;
  unsigned k = t.n;
  for (unsigned steps = 0; k != BH_NONE; ++steps) {
    if (steps > 2 * (t.n + t.cap)) {  // each node is visited at most once: the threading is broken
      atomicOr(t.error, BH_ERR_WALK);
      break;
    }
    const float dx = t.x[k] - px, dy = t.y[k] - py, dz = t.z[k] - pz, d2 = dx * dx + dy * dy + dz * dz;
    if (k >= t.n) {
      const float side = 2.f * t.half[k - t.n];
      if (side * side >= BH_THETA2 * d2) {  // too close: open it
        k = t.first[k - t.n];
        continue;
      }
    }
    const float r2 = d2 + BH_EPS2, s = t.mass[k] * rsqrtf(r2) / r2;
    fx += dx * s;
    fy += dy * s;
    fz += dz * s;
    k = t.next[k];
  }
  ax[b] = fx;
  ay[b] = fy;
  az[b] = fz;
}
