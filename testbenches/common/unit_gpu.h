// SPDX-License-Identifier: Apache-2.0
// A timed GPU with one unit attached (HwwlGpu, IruGpu, ...) and the host's runtime on it, with the
// unit's queries and commands: what the units' system tests start from.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/gpu/gpu.h"
#include "testbenches/common/testing.h"

namespace irr::testing {

template <class Unit>
struct UnitGpu {
  Testbench tb;
  gpu::Gpu& g;
  core::ptx::ExtensionRegistry reg;
  std::unique_ptr<Unit> unit;
  runtime::Device dev;
  UnitGpu(std::vector<std::string> sets, const std::string& preset)
      : tb([&] {
          sets.push_back("log.level=warn");
          sets.push_back("host.launch_overhead=0ps");
          return sets;
        }(), preset),
        g(tb.add<gpu::Gpu>("gpu")),
        unit(std::make_unique<Unit>(tb.sim(), g, reg)),
        dev(g.memory(), &reg) {
    dev.set_backend(&g);
    unit->serve(dev);
  }
};

}  // namespace irr::testing
