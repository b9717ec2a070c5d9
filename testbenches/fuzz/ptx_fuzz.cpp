// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the PTX lexer and parser, then the resource count `irrgpu ptx check` prints. Any
// input must end in a module or an irr::Error naming where; anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "models/core/ptx/parser.h"
#include "models/core/ptx/resources.h"
#include "sim/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const irr::core::ptx::Module m = irr::core::ptx::parse(text, "fuzz.ptx");
    for (const auto* k : m.kernels()) irr::core::ptx::kernel_resources(m, *k, {});
  } catch (const irr::Error&) {
  }
  return 0;
}
