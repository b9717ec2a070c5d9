// SPDX-License-Identifier: Apache-2.0
// Survey propagation on random K-SAT (the HWWL paper's SP, LonestarGPU's benchmark): surveys swept
// to convergence on the GPU (workloads/kernels/sp.cu, or wl.cu's worklist of clauses), the most
// biased variables fixed and their clauses removed, again until the surveys are trivial, then
// WalkSAT on the host for the rest. Its input is a factor graph (`sat:` generator, Graph::clauses);
// its result is an assignment, checked to satisfy every clause.
#pragma once

#include "workloads/workloads.h"

namespace irr::workloads::sp {

Workload workload();

}  // namespace irr::workloads::sp
