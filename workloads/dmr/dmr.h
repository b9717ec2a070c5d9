// SPDX-License-Identifier: Apache-2.0
// Delaunay mesh refinement (the HWWL paper's DMR, LonestarGPU's benchmark): until no triangle has
// an angle below 30 degrees, bad triangles get a point at their circumcentre (or a border edge's
// midpoint) and their cavities re-triangulated, overlapping cavities resolved by marking
// (workloads/kernels/dmr.cu; the worklist versions in wl.cu). Its input is a triangulation
// (`delaunay:` generator, Graph::mesh); its result is the refined mesh, checked to be a valid
// Delaunay triangulation of the square that keeps the input's points and has no bad triangle.
#pragma once

#include "workloads/workloads.h"

namespace irr::workloads::dmr {

Workload workload();

}  // namespace irr::workloads::dmr
