// SPDX-License-Identifier: Apache-2.0
// DATS's host API on the runtime (Wireframe's DepLinks, docs/dats.md): a launch whose blocks wait
// for the blocks they depend on, as a CTA plan (runtime::CtaPlan) that the runtime runs in the
// graph's order functionally and that the dependency-aware CTA scheduler takes on the timed GPU.
#pragma once

#include <functional>

#include "models/dats/dep_graph.h"
#include "models/runtime/device.h"

namespace irr::dats {

// The plan of one launch: its dependency graph, and the graph's node array (8-byte entries: edge
// start u32, parent count u16, level u16, in VID order) and edge array (u32 child VIDs) as the
// plan's two arrays, which the CTA scheduler reads from device memory.
struct DependencyPlan : runtime::CtaPlan {
  DependencyGraph graph;
};
DependencyPlan plan(DependencyGraph graph);

// `mapping` runs once per block and names the blocks it depends on; each block starts only after
// all of them finished. Functionally the blocks run one at a time in the dependency graph's order
// (level by level). Throws irr::Error on a cycle; on the timed GPU without the dependency-aware
// scheduler, an irr::Error saying how to enable it.
runtime::LaunchStats launch_with_dependencies(runtime::Device& device, const runtime::Kernel& k, core::Dim3 grid,
                                              core::Dim3 block, const runtime::Args& args,
                                              const std::function<void(DepLinks&)>& mapping,
                                              std::uint32_t dynamic_shared = 0);

}  // namespace irr::dats
