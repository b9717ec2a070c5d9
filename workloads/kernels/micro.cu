// SPDX-License-Identifier: Apache-2.0
// Calibration microbenchmarks (workloads/micro, docs/results/calibration.md), after Wong et al.
// (ISPASS 2010) and Mei & Chu (TPDS 2017): dependent chains timed with clock64(), and throughput
// kernels timed by the GPU's kernel cycles. Chains use inline PTX so that nvcc keeps exactly one
// load (or ALU operation) per step, with no address arithmetic in between, and keeps the clock
// reads where they are written (volatile asm is not reordered).

typedef unsigned long long u64;

__device__ __forceinline__ u64 now() {
  u64 t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));
  return t;
}

// A store that reads v: it issues only once v is written back, so the clock read after it
// waits for the whole chain.
__device__ __forceinline__ void sink(u64* out, u64 v) { asm volatile("st.global.u64 [%0], %1;" ::"l"(out), "l"(v) : "memory"); }

// A timed chain of N dependent steps on x. It first sinks its input, so that the clock starts
// once the input is written back (a parameter load or the previous chain's last step would
// otherwise be timed too), and sinks its result before the clock stops.
template <int N, typename T, typename Step>
__device__ u64 timed_chain(T& x, u64* out, Step step) {
  sink(out, static_cast<u64>(x));
  const u64 t0 = now();
#pragma unroll
  for (int i = 0; i < N; ++i) step(x);
  sink(out, static_cast<u64>(x));
  return now() - t0;
}

__device__ __forceinline__ void load_global(u64& p) { asm volatile("ld.global.u64 %0, [%0];" : "+l"(p)); }
__device__ __forceinline__ void load_shared(unsigned& a) { asm volatile("ld.shared.u32 %0, [%0];" : "+r"(a)); }
__device__ __forceinline__ void add_int(unsigned& x) { asm volatile("add.u32 %0, %0, 1;" : "+r"(x)); }
__device__ __forceinline__ void fma_fp(float& x) { asm volatile("fma.rn.f32 %0, %0, 0f3F800000, 0f3F800000;" : "+f"(x)); }

// One thread walks a chain of 8-byte pointers: `warm` untimed steps, then 32 and 64 timed steps.
// out[1], out[2]: the two times; (out[2] - out[1]) / 32 is the load-to-use latency. Every timed
// chain here follows an untimed one of the same kind, so that both timed chains start alike.
extern "C" __global__ void mb_chase(u64 p, unsigned warm, u64* out) {
  for (unsigned i = 0; i < warm; ++i) load_global(p);
  timed_chain<1>(p, out, load_global);
  const u64 a = timed_chain<32>(p, out, load_global);
  const u64 b = timed_chain<64>(p, out, load_global);
  out[1] = a;
  out[2] = b;
}

// One warp; lane t chases its own word at t * stride (mod 1024 words), which points to itself:
// stride 1 touches 32 banks, 2 makes 2-way bank conflicts, 32 makes 32-way, 0 is a broadcast.
extern "C" __global__ void mb_shared(unsigned stride, u64* out) {
  __shared__ unsigned words[1024];
  const unsigned w = (threadIdx.x * stride) % 1024;
  unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(&words[w]));
  words[w] = a;
  timed_chain<1>(a, out + 3, load_shared);
  const u64 t1 = timed_chain<32>(a, out + 3, load_shared);
  const u64 t2 = timed_chain<64>(a, out + 3, load_shared);
  if (threadIdx.x == 0) {
    out[1] = t1;
    out[2] = t2;
  }
}

// One thread: chains of dependent integer adds and single-precision FMAs, 32 and 64 long.
extern "C" __global__ void mb_alu_chain(unsigned seed, u64* out) {
  unsigned x = seed;
  float f = static_cast<float>(seed);
  timed_chain<1>(x, out, add_int);
  const u64 i32 = timed_chain<32>(x, out, add_int), i64 = timed_chain<64>(x, out, add_int);
  timed_chain<1>(f, out, fma_fp);
  const u64 f32 = timed_chain<32>(f, out, fma_fp), f64 = timed_chain<64>(f, out, fma_fp);
  out[1] = i32;
  out[2] = i64;
  out[3] = f32;
  out[4] = f64;
}

// Independent FMAs: eight chains per thread, so a scheduler always has a ready warp.
extern "C" __global__ void mb_issue(unsigned iterations, float* out) {
  float a0 = threadIdx.x, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, a4 = a0 + 4, a5 = a0 + 5, a6 = a0 + 6, a7 = a0 + 7;
  for (unsigned i = 0; i < iterations; ++i) {
    a0 = fmaf(a0, 0.999f, 1.0f); a1 = fmaf(a1, 0.999f, 1.0f); a2 = fmaf(a2, 0.999f, 1.0f); a3 = fmaf(a3, 0.999f, 1.0f);
    a4 = fmaf(a4, 0.999f, 1.0f); a5 = fmaf(a5, 0.999f, 1.0f); a6 = fmaf(a6, 0.999f, 1.0f); a7 = fmaf(a7, 0.999f, 1.0f);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}

// Stream copy, grid-stride, 16 bytes per thread and step: global memory bandwidth.
extern "C" __global__ void mb_copy(const float4* in, float4* out, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = in[i];
}

// Every block reads the same `n` float4s `reps` times: an L2-resident footprint larger than an L1.
extern "C" __global__ void mb_read(const float4* in, unsigned n, unsigned reps, float* out) {
  float s = 0;
  for (unsigned r = 0; r < reps; ++r)
    for (unsigned i = threadIdx.x; i < n; i += blockDim.x) {
      const float4 v = in[(i + r * 97 + blockIdx.x * 13) % n];
      s += v.x + v.y + v.z + v.w;
    }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// Atomic adds, `iterations` per thread, on: 0 one address for all threads, 1 one address per
// warp, 2 one address per thread (in distinct 128-byte lines).
__device__ unsigned atomic_index(unsigned mode) {
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  return mode == 0 ? 0 : mode == 1 ? (g / 32) * 32 : g * 32;
}

extern "C" __global__ void mb_atomic_global(unsigned* counters, unsigned mode, unsigned iterations) {
  const unsigned at = atomic_index(mode);
  for (unsigned i = 0; i < iterations; ++i) atomicAdd(&counters[at], 1u);
}

// The same on shared memory (per block); each block adds its totals to `counters` at the end.
extern "C" __global__ void mb_atomic_shared(unsigned* counters, unsigned mode, unsigned iterations) {
  __shared__ unsigned words[1024];
  for (unsigned i = threadIdx.x; i < 1024; i += blockDim.x) words[i] = 0;
  __syncthreads();
  const unsigned at = mode == 0 ? 0 : mode == 1 ? threadIdx.x / 32 : threadIdx.x;
  for (unsigned i = 0; i < iterations; ++i) atomicAdd(&words[at], 1u);
  __syncthreads();
  for (unsigned i = threadIdx.x; i < 1024; i += blockDim.x)
    if (words[i]) atomicAdd(&counters[i], words[i]);
}

// One warp loads in[t * stride]: the coalescer's line requests per warp load.
extern "C" __global__ void mb_stride(const unsigned* in, unsigned stride, unsigned* out) {
  out[threadIdx.x] = in[threadIdx.x * stride];
}

// Nothing: launch overhead.
extern "C" __global__ void mb_empty() {}
