// SPDX-License-Identifier: Apache-2.0
// Wavefront kernels after Wireframe's six workloads [W L421]: DTW, HEAT2D, HIST, INT_IMG, SOR and SW.
// The data is an n x m matrix cut into T x T tiles (T = blockDim.x, one thread per tile row or
// column); one block computes one tile, after its west and north neighbours (and so, transitively,
// the north-west one). A tile's cells are computed inside the block in their own wavefront order.
//
// `diag`: -1 when the grid is the tile grid (one launch; the blocks' dependencies come from DepLinks),
// else the anti-diagonal of tiles this launch computes (the global-barrier and CDP versions: one
// launch per wave, block i taking the i-th tile of the wave).
#include <cstdint>

__device__ bool tile_of(int diag, int tiles_x, int tiles_y, int& tx, int& ty) {
  if (diag < 0) {
    tx = blockIdx.x;
    ty = blockIdx.y;
    return true;
  }
  const int x0 = diag - (tiles_y - 1) > 0 ? diag - (tiles_y - 1) : 0;
  tx = x0 + blockIdx.x;
  ty = diag - tx;
  return tx < tiles_x && ty >= 0;
}

// Dynamic time warping: D[i][j] = |a_i - b_j| + min(D[i-1][j], D[i][j-1], D[i-1][j-1]).
extern "C" __global__ void dtw(const float* a, const float* b, float* d, int n, int m, int diag) {
  const int T = blockDim.x, t = threadIdx.x;
  int tx, ty;
  if (!tile_of(diag, m / T, n / T, tx, ty)) return;
  const int i = ty * T + t;
  for (int s = 0; s < 2 * T - 1; ++s) {
    const int j = tx * T + s - t;
    if (s - t >= 0 && s - t < T) {
      float best;
      if (i == 0 && j == 0) best = 0.0f;
      else {
        best = 3.0e38f;
        if (i > 0) best = fminf(best, d[(i - 1) * m + j]);
        if (j > 0) best = fminf(best, d[i * m + j - 1]);
        if (i > 0 && j > 0) best = fminf(best, d[(i - 1) * m + j - 1]);
      }
      d[i * m + j] = fabsf(a[i] - b[j]) + best;
    }
    __syncthreads();
  }
}

// Smith-Waterman local alignment score, linear gap: H = max(0, diag + s(a_i, b_j), up - 2, left - 2).
extern "C" __global__ void sw(const unsigned char* a, const unsigned char* b, int* h, int n, int m, int diag) {
  const int T = blockDim.x, t = threadIdx.x;
  int tx, ty;
  if (!tile_of(diag, m / T, n / T, tx, ty)) return;
  const int i = ty * T + t;
  for (int s = 0; s < 2 * T - 1; ++s) {
    const int j = tx * T + s - t;
    if (s - t >= 0 && s - t < T) {
      const int nw = i > 0 && j > 0 ? h[(i - 1) * m + j - 1] : 0;
      const int up = i > 0 ? h[(i - 1) * m + j] : 0;
      const int left = j > 0 ? h[i * m + j - 1] : 0;
      int v = nw + (a[i] == b[j] ? 3 : -3);
      v = max(v, up - 2);
      v = max(v, left - 2);
      h[i * m + j] = max(v, 0);
    }
    __syncthreads();
  }
}

// One in-place (Gauss-Seidel) sweep of a five-point stencil over the interior, in row-major order's
// dependencies: u = u + c0 * u + c1 * (north + south + west + east). HEAT2D: c0 = -4 alpha, c1 = alpha;
// SOR: c0 = -omega, c1 = omega / 4.
__device__ void stencil(float* u, int n, int m, int diag, float c0, float c1) {
  const int T = blockDim.x, t = threadIdx.x;
  int tx, ty;
  if (!tile_of(diag, m / T, n / T, tx, ty)) return;
  const int i = ty * T + t;
  for (int s = 0; s < 2 * T - 1; ++s) {
    const int j = tx * T + s - t;
    if (s - t >= 0 && s - t < T && i > 0 && j > 0 && i < n - 1 && j < m - 1) {
      const float c = u[i * m + j];
      const float sum = u[(i - 1) * m + j] + u[(i + 1) * m + j] + u[i * m + j - 1] + u[i * m + j + 1];
      u[i * m + j] = c + c0 * c + c1 * sum;
    }
    __syncthreads();
  }
}

extern "C" __global__ void heat2d(float* u, int n, int m, int diag, float alpha) {
  stencil(u, n, m, diag, -4.0f * alpha, alpha);
}

extern "C" __global__ void sor(float* u, int n, int m, int diag, float omega) {
  stencil(u, n, m, diag, -omega, 0.25f * omega);
}

// Integral image of `img` (row-major n x m) into `out`, for the cells where img's value falls in
// [lo, hi): the tile's column sums in shared memory, then each row accumulated along and offset by
// the north tile's last row, the west tile's last column and the north-west corner.
__device__ void integral_tile(const unsigned char* img, unsigned* out, int n, int m, int tx, int ty, unsigned lo,
                              unsigned hi, unsigned* col) {
  const int T = blockDim.x, t = threadIdx.x;
  const int i0 = ty * T, j0 = tx * T;
  unsigned run = 0;
  for (int r = 0; r < T; ++r) {  // thread t: column j0 + t
    const unsigned v = img[(i0 + r) * m + j0 + t];
    run += v >= lo && v < hi ? 1u : 0u;
    col[r * T + t] = run;
  }
  __syncthreads();
  const int i = i0 + t;  // thread t: row i
  const unsigned west = j0 > 0 ? out[i * m + j0 - 1] : 0u;
  const unsigned corner = i0 > 0 && j0 > 0 ? out[(i0 - 1) * m + j0 - 1] : 0u;
  unsigned acc = 0;
  for (int c = 0; c < T; ++c) {
    acc += col[t * T + c];
    const unsigned north = i0 > 0 ? out[(i0 - 1) * m + j0 + c] : 0u;
    out[i * m + j0 + c] = acc + north + west - corner;
  }
  __syncthreads();
}

// Integral image of the bitmap `img >= 128`: each cell counts the set pixels above and left of it.
extern "C" __global__ void int_img(const unsigned char* img, unsigned* out, int n, int m, int diag) {
  extern __shared__ unsigned col[];  // the tile's column sums: T x T words (the host launches with 4 T^2 bytes)
  int tx, ty;
  if (!tile_of(diag, m / blockDim.x, n / blockDim.x, tx, ty)) return;
  integral_tile(img, out, n, m, tx, ty, 128u, 256u, col);
}

// Integral histogram: one integral image per bin of `bins` equal bins over [0, 256), bin b at
// out + b * n * m.
extern "C" __global__ void hist(const unsigned char* img, unsigned* out, int n, int m, int diag, int bins) {
  extern __shared__ unsigned col[];  // as int_img's
  int tx, ty;
  if (!tile_of(diag, m / blockDim.x, n / blockDim.x, tx, ty)) return;
  const unsigned width = 256u / bins;
  for (int b = 0; b < bins; ++b)
    integral_tile(img, out + (size_t)b * n * m, n, m, tx, ty, b * width, (b + 1) * width, col);
}
