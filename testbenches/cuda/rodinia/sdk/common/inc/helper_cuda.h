// SPDX-License-Identifier: Apache-2.0
// The two error checks Rodinia's cfd takes from the CUDA Samples' helper_cuda.h (not part of the
// toolkit), written here: a failed call prints where and exits.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define checkCudaErrors(call) irrgpu_check_cuda((call), #call, __FILE__, __LINE__)
#define getLastCudaError(what) irrgpu_check_cuda(cudaGetLastError(), (what), __FILE__, __LINE__)

inline void irrgpu_check_cuda(cudaError_t e, const char* what, const char* file, int line) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "%s:%d: %s: %s\n", file, line, what, cudaGetErrorString(e));
  std::exit(EXIT_FAILURE);
}
