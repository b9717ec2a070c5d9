// SPDX-License-Identifier: Apache-2.0
// Barnes-Hut N-body (the HWWL paper's BH, LonestarGPU's benchmark): per time step the bodies'
// bounding box, an octree built under locks, summarised, its bodies sorted in tree order, forces by
// a tree walk (opening angle 0.5) and a kick-drift step (workloads/kernels/bh.cu; the worklist
// versions in wl.cu). Its input is a body set (`plummer:` generator, Graph::bodies); its result is
// each body's position and last acceleration, checked against a double-precision Barnes-Hut.
#pragma once

#include "workloads/workloads.h"

namespace irr::workloads::bh {

Workload workload();

}  // namespace irr::workloads::bh
