// SPDX-License-Identifier: Apache-2.0
// What Rodinia 3.1 calls and CUDA 13 removed, mapped to the successors, force-included by the nvcc
// wrapper beside this file (the programs' sources are not edited).
#pragma once
#ifdef __cplusplus
#include <cuda_runtime.h>
#define cudaThreadSynchronize cudaDeviceSynchronize
#define cudaThreadExit cudaDeviceReset
// cudaDeviceProp fields: asyncEngineCount succeeds deviceOverlap; clockRate (only printed) reads
// a reserved word, zero.
#define deviceOverlap asyncEngineCount
#define clockRate reserved[0]
#endif
