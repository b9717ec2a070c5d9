// SPDX-License-Identifier: Apache-2.0
// The IRU's device API [S L184] (docs/iru.md): load_iru gives the calling thread an element of the
// array configure_iru named — its index, and optionally its secondary value and its position in the
// original array — chosen by the IRU so that a warp's elements touch few lines of the target array;
// false when the thread got none (its element was merged into another one, or none was left).
// One ldiru instruction; the overloads are the paper's (Figures 9-11). Each asks only for what it
// returns: the reply carries the secondary value and the position only when asked (docs/iru.md).
#pragma once

__device__ __forceinline__ bool load_iru(unsigned& index, unsigned& secondary, unsigned& position) {
  unsigned valid;
  asm volatile("ldiru.b32 %0, %1, %2, %3;" : "=r"(valid), "=r"(index), "=r"(secondary), "=r"(position) : : "memory");
  return valid != 0;
}
__device__ __forceinline__ bool load_iru(unsigned& index, unsigned& secondary) {
  unsigned valid;
  asm volatile("ldiru.b32 %0, %1, %2;" : "=r"(valid), "=r"(index), "=r"(secondary) : : "memory");
  return valid != 0;
}
__device__ __forceinline__ bool load_iru(unsigned& index) {
  unsigned valid;
  asm volatile("ldiru.b32 %0, %1;" : "=r"(valid), "=r"(index) : : "memory");
  return valid != 0;
}
__device__ __forceinline__ bool load_iru(unsigned& index, float& secondary) {
  unsigned bits;
  const bool valid = load_iru(index, bits);
  secondary = __uint_as_float(bits);
  return valid;
}
