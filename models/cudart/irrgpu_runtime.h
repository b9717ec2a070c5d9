// SPDX-License-Identifier: Apache-2.0
// irrgpu's additions to the CUDA runtime API, for programs that drive a unit from the host (run
// with `irrgpu exec`, docs/cuda-apps.md): what a unit answers (as cudaDeviceGetAttribute answers
// for the device) and the commands it takes before a launch. The names are the units' own:
// "hwwl.work_remains", "hwwl.cores", "hwwl.double_buffer" (docs/hwwl.md), "iru.configure"
// (docs/iru.md). A name no enabled unit knows stops the program, naming the ones that are.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

// Declared weak: a program that uses them builds with plain nvcc against NVIDIA's runtime and finds
// irrgpu's at run time; outside irrgpu they are null (test `if (irrgpuQuery)` to run anywhere).
__attribute__((weak)) unsigned long long irrgpuQuery(const char* name);
// Returns a cudaError_t: 0, or the error the unit gave (irrgpu reports its text; the run fails).
__attribute__((weak)) int irrgpuCommand(const char* name, const unsigned long long* args, int count);

#ifdef __cplusplus
}
#endif
