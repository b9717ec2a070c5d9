// SPDX-License-Identifier: Apache-2.0
// One worklist interface for the data-driven kernels, two implementations chosen by a macro, as
// the HWWL paper's single API (docs/workloads.md):
//   - default: the software worklist of the baselines — this kernel's input in an array with a
//     pull counter, its output appended with atomicAdd (double-buffered by the host);
//   - IRRGPU_HWWL: the hardware worklist's instructions (docs/hwwl.md).
// A kernel declares WL_PARAMS last in its parameter list and loops: WL_PULL() gives a work ID,
// WL_DONE when the kernel's work is finished, or WL_WAIT / WL_REFILL (>= WL_REFILL: pull again);
// WL_PUSH(id) adds work for the next kernel. A device function that pushes declares WL_PARAMS
// too and is called with WL_ARGS.
#pragma once

#define WL_WAIT 0xfffffffeu
#define WL_DONE 0xffffffffu
#define WL_REFILL 0xfffffffdu

#ifdef IRRGPU_HWWL

#define WL_PARAMS int wl_unused
#define WL_ARGS wl_unused
__device__ __forceinline__ unsigned wl_hw_pull() {
  unsigned id;
  asm volatile("wlpull.b32 %0;" : "=r"(id) : : "memory");
  return id;
}
__device__ __forceinline__ void wl_hw_push(unsigned id) { asm volatile("wlpush.b32 %0;" : : "r"(id) : "memory"); }
#define WL_PULL() wl_hw_pull()
#define WL_PUSH(id) wl_hw_push(id)

#else

#define WL_PARAMS const unsigned *wl_in, unsigned wl_in_count, unsigned *wl_next, unsigned *wl_out, unsigned *wl_out_count
#define WL_ARGS wl_in, wl_in_count, wl_next, wl_out, wl_out_count
__device__ __forceinline__ unsigned wl_sw_pull(const unsigned* in, unsigned count, unsigned* next) {
  const unsigned i = atomicAdd(next, 1u);
  return i < count ? in[i] : WL_DONE;
}
#define WL_PULL() wl_sw_pull(wl_in, wl_in_count, wl_next)
#define WL_PUSH(id) (wl_out[atomicAdd(wl_out_count, 1u)] = (id))

#endif
