// SPDX-License-Identifier: Apache-2.0
// Small kernels whose nvcc PTX (checked in beside) the parser and executor tests use.
extern "C" __global__ void warp(int* out, float* f) {
  unsigned m = __activemask();
  int v = threadIdx.x;
  int s = __shfl_down_sync(0xffffffff, v, 1);
  unsigned b = __ballot_sync(0xffffffff, v & 1);
  int a = __any_sync(0xffffffff, v > 3);
  out[threadIdx.x] = s + b + a + m + __popc(v) + __clz(v) + __brev(v) + (v >> 3) + (int)sqrtf(f[v]) + __float2int_rn(f[v] * 2.5f);
  unsigned long long x = clock64();
  if (v == 0) atomicCAS(out, 0, (int)x);
  double d = (double)f[v] / 3.0; out[v+32] = (int)d;
  short sh = (short)v; out[v+64] = sh * 3;
}
