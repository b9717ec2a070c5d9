// SPDX-License-Identifier: Apache-2.0
// Kernels in the style of the suites of seed 001's Table 3.2 (Rodinia, Parboil, the CUDA SDK),
// written here for the DAC study (workloads/suite, docs/dac.md): each covers a kind of access the
// decoupling pass meets — affine streams, 2-D blocks, tiles in shared memory, clamped or indexed
// neighbours, indirection, atomics, loops with affine and non-affine bounds, constant memory.

// --- vector: c = a + b; y = a·x + y (CUDA SDK vectorAdd, BLAS saxpy) ---
extern "C" __global__ void vecadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void saxpy(float alpha, const float* x, float* y, int n) {
  // A grid-stride loop: an affine bound, the same tuple on every trip.
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = alpha * x[i] + y[i];
}

// --- stencil: 2-D 5-point Jacobi step (Parboil stencil, in two dimensions) ---
extern "C" __global__ void stencil5(const float* in, float* out, int w, int h, float c0, float c1) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int i = y * w + x;
  if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
    out[i] = in[i];
  } else {
    out[i] = c0 * in[i] + c1 * (in[i - w] + in[i + w] + in[i - 1] + in[i + 1]);
  }
}

// --- sgemm: C = A·B with 16x16 tiles in shared memory (CUDA SDK matrixMul, Parboil sgemm) ---
#define TILE 16
extern "C" __global__ void sgemm(const float* A, const float* B, float* C, int m, int n, int k) {
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0;
  for (int t = 0; t < k; t += TILE) {
    as[threadIdx.y][threadIdx.x] = A[row * k + t + threadIdx.x];
    bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + col];
    __syncthreads();
    for (int j = 0; j < TILE; ++j) sum += as[threadIdx.y][j] * bs[j][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = sum;
}

// --- hotspot: one step of the thermal simulation (Rodinia hotspot, without its pyramid) ---
extern "C" __global__ void hotspot(const float* power, const float* temp, float* out, int w, int h, float cap,
                                   float rx, float ry, float rz, float amb) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int i = y * w + x;
  // Neighbours clamped at the edges, as Rodinia's: min/max make those addresses non-affine.
  float n = temp[max(y - 1, 0) * w + x], s = temp[min(y + 1, h - 1) * w + x];
  float e = temp[y * w + min(x + 1, w - 1)], wv = temp[y * w + max(x - 1, 0)];
  float t = temp[i];
  out[i] = t + cap * (power[i] + (s + n - 2.0f * t) * ry + (e + wv - 2.0f * t) * rx + (amb - t) * rz);
}

// --- pathfinder: one row of the dynamic programme (Rodinia pathfinder, a launch per row) ---
extern "C" __global__ void pathfinder(const int* wall, const int* src, int* dst, int cols, int row) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  int best = src[c];
  if (c > 0) best = min(best, src[c - 1]);
  if (c < cols - 1) best = min(best, src[c + 1]);
  dst[c] = wall[row * cols + c] + best;
}

// --- srad: speckle-reducing diffusion, its two kernels (Rodinia srad v2: neighbour index arrays) ---
extern "C" __global__ void srad1(const float* J, const int* iN, const int* iS, const int* jW, const int* jE, float* dN,
                                 float* dS, float* dW, float* dE, float* c, int rows, int cols, float q0sqr) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= cols || y >= rows) return;
  int k = y * cols + x;
  float jc = J[k];
  float n = J[iN[y] * cols + x] - jc, s = J[iS[y] * cols + x] - jc;
  float w = J[y * cols + jW[x]] - jc, e = J[y * cols + jE[x]] - jc;
  float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
  float l = (n + s + w + e) / jc;
  float num = 0.5f * g2 - (1.0f / 16.0f) * (l * l);
  float den = 1 + 0.25f * l;
  float qsqr = num / (den * den);
  den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
  float cv = 1.0f / (1.0f + den);
  c[k] = cv < 0 ? 0 : cv > 1 ? 1 : cv;
  dN[k] = n;
  dS[k] = s;
  dW[k] = w;
  dE[k] = e;
}

extern "C" __global__ void srad2(float* J, const int* iS, const int* jE, const float* dN, const float* dS,
                                 const float* dW, const float* dE, const float* c, int rows, int cols, float lambda) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= cols || y >= rows) return;
  int k = y * cols + x;
  float cn = c[k], cs = c[iS[y] * cols + x], cw = c[k], ce = c[y * cols + jE[x]];
  float d = cn * dN[k] + cs * dS[k] + cw * dW[k] + ce * dE[k];
  J[k] = J[k] + 0.25f * lambda * d;
}

// --- backprop: a layer's forward pass and weight adjustment (Rodinia backprop, one thread a unit) ---
extern "C" __global__ void bp_forward(const float* in, const float* w, float* hidden, int n_in, int n_hid) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n_hid) return;
  float sum = 0;
  for (int i = 0; i < n_in; ++i) sum += in[i] * w[i * n_hid + j];  // in[i]: a scalar address
  hidden[j] = 1.0f / (1.0f + __expf(-sum));
}

extern "C" __global__ void bp_adjust(const float* delta, const float* ly, float* w, float* oldw, int n_in, int n_hid,
                                     float eta, float momentum) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;  // 16x16 blocks, as Rodinia's
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (j >= n_hid || i >= n_in) return;
  int k = i * n_hid + j;
  float dw = eta * delta[j] * ly[i] + momentum * oldw[k];
  w[k] += dw;
  oldw[k] = dw;
}

// --- blackscholes: European options (CUDA SDK BlackScholes) ---
__device__ float cnd(float d) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f, a5 = 1.330274429f;
  float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float c = 0.3989422804f * __expf(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0 ? 1.0f - c : c;
}

extern "C" __global__ void blackscholes(const float* s, const float* x, const float* t, float* call, float* put,
                                        float r, float v, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float sq = sqrtf(t[i]);
    float d1 = (__logf(s[i] / x[i]) + (r + 0.5f * v * v) * t[i]) / (v * sq);
    float d2 = d1 - v * sq;
    float e = x[i] * __expf(-r * t[i]);
    call[i] = s[i] * cnd(d1) - e * cnd(d2);
    put[i] = e * (1.0f - cnd(d2)) - s[i] * (1.0f - cnd(d1));
  }
}

// --- histogram: 256 bins, per-block in shared memory then merged (CUDA SDK histogram256) ---
extern "C" __global__ void histogram(const unsigned char* data, unsigned* bins, int n) {
  __shared__ unsigned local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

// --- spmv: y = A·x, CSR, a thread a row (Parboil spmv's scalar kernel) ---
extern "C" __global__ void spmv(const int* row, const int* col, const float* val, const float* x, float* y, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  float sum = 0;
  for (int j = row[r]; j < row[r + 1]; ++j) sum += val[j] * x[col[j]];  // bounds from memory: non-affine
  y[r] = sum;
}

// --- lbm: D2Q5 collide-and-stream (Parboil lbm's kind of streaming, in two dimensions) ---
extern "C" __global__ void lbm(const float* f, float* g, int w, int h, float omega) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int cells = w * h, i = y * w + x;
  float f0 = f[i], f1 = f[cells + i], f2 = f[2 * cells + i], f3 = f[3 * cells + i], f4 = f[4 * cells + i];
  float rho = f0 + f1 + f2 + f3 + f4;
  float ux = (f1 - f2) / rho, uy = (f3 - f4) / rho;
  float e0 = rho / 3.0f, e1 = rho / 6.0f * (1 + 3 * ux), e2 = rho / 6.0f * (1 - 3 * ux);
  float e3 = rho / 6.0f * (1 + 3 * uy), e4 = rho / 6.0f * (1 - 3 * uy);
  // Stream to the neighbours; a population leaving the grid bounces back into its cell.
  g[i] = f0 + omega * (e0 - f0);
  float p1 = f1 + omega * (e1 - f1), p2 = f2 + omega * (e2 - f2), p3 = f3 + omega * (e3 - f3), p4 = f4 + omega * (e4 - f4);
  if (x + 1 < w) g[cells + i + 1] = p1; else g[2 * cells + i] = p1;
  if (x > 0) g[2 * cells + i - 1] = p2; else g[cells + i] = p2;
  if (y + 1 < h) g[3 * cells + i + w] = p3; else g[4 * cells + i] = p3;
  if (y > 0) g[4 * cells + i - w] = p4; else g[3 * cells + i] = p4;
}

// --- convolution: a separable filter's row pass, taps in constant memory (CUDA SDK convolutionSeparable) ---
#define RADIUS 4
__constant__ float taps[2 * RADIUS + 1];
extern "C" __global__ void conv_rows(const float* in, float* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float sum = 0;
  for (int k = -RADIUS; k <= RADIUS; ++k)
    if (x + k >= 0 && x + k < w) sum += taps[RADIUS + k] * in[y * w + x + k];  // an affine condition in the loop
  out[y * w + x] = sum;
}
