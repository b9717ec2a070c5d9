// SPDX-License-Identifier: Apache-2.0
// What the CUDA libraries' PTX uses beyond ordinary kernels (issue 81): carry chains, bit masks
// and field extension, cache hints and prefetches, and, where the architecture has them,
// asynchronous copies (cp.async on sm_80, cp.async.bulk with an mbarrier and elect.sync on sm_90).
// The checked-in PTX is sm_75's; the PTX corpus test compiles it for sm_80 and sm_90 too.

// out[i] = a[i] + b[i] as 64-bit sums of 32-bit halves through the carry, and the high word of
// a[i] * b[i]'s 64-bit product plus a[i] through mad.lo.cc / madc.hi.
extern "C" __global__ void carry_chain(const unsigned* a, const unsigned* b, unsigned long long* sum,
                                       unsigned long long* mad, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned lo, hi, plo, phi;
  asm("add.cc.u32 %0, %2, %3;\n\taddc.u32 %1, 0, 0;" : "=r"(lo), "=r"(hi) : "r"(a[i]), "r"(b[i]));
  sum[i] = (static_cast<unsigned long long>(hi) << 32) | lo;
  asm("mad.lo.cc.u32 %0, %2, %3, %2;\n\tmadc.hi.u32 %1, %2, %3, 0;" : "=r"(plo), "=r"(phi) : "r"(a[i]), "r"(b[i]));
  mad[i] = (static_cast<unsigned long long>(phi) << 32) | plo;
}

// bmsk, szext, a prefetch and a load that does not allocate in the L1.
extern "C" __global__ void bits(const unsigned* in, unsigned* mask, int* field, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  asm volatile("prefetch.global.L2 [%0];" ::"l"(in + i));
  unsigned v;
  asm("ld.global.nc.L1::no_allocate.u32 %0, [%1];" : "=r"(v) : "l"(in + i));
  unsigned m;
  int f;
  asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(m) : "r"(v & 31), "r"(v >> 5 & 31));
  asm("szext.clamp.s32 %0, %1, %2;" : "=r"(f) : "r"(v), "r"(v >> 10 & 31));
  mask[i] = m;
  field[i] = f;
}

// A block's 256 ints staged through shared memory and written back reversed: by cp.async on
// sm_80, by one elected thread's cp.async.bulk on an mbarrier on sm_90, by loads before.
extern "C" __global__ void staged_reverse(const int* in, int* out) {
  __shared__ alignas(16) int tile[256];
  const int t = threadIdx.x;  // 64 threads
  const int* src = in + blockIdx.x * 256;
#if __CUDA_ARCH__ >= 900
  __shared__ alignas(8) unsigned long long bar;
  unsigned leader;
  asm volatile("{ .reg .pred p; elect.sync _|p, -1; selp.u32 %0, 1, 0, p; }" : "=r"(leader));
  const unsigned b = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  if (t < 32 && leader) {
    asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(b));
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 1024, [%2];" ::"r"(
                     static_cast<unsigned>(__cvta_generic_to_shared(tile))),
                 "l"(src), "r"(b)
                 : "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 1024;" ::"r"(b) : "memory");
  }
  __syncthreads();
  for (unsigned done = 0; !done;)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(b) : "memory");
#elif __CUDA_ARCH__ >= 800
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(static_cast<unsigned>(__cvta_generic_to_shared(&tile[4 * t]))),
               "l"(src + 4 * t)
               : "memory");
  asm volatile("cp.async.commit_group;\n\tcp.async.wait_all;" ::: "memory");
  __syncthreads();
#else
  for (int k = 0; k < 4; ++k) tile[4 * t + k] = src[4 * t + k];
  __syncthreads();
#endif
  for (int k = t; k < 256; k += 64) out[blockIdx.x * 256 + k] = tile[255 - k];
}
