// SPDX-License-Identifier: Apache-2.0
// The frontier kernels of frontier.cu with the contractions reading through the IRU (load_iru).
#define USE_IRU
#include "frontier.cu"
