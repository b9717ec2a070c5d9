// SPDX-License-Identifier: Apache-2.0
// Fuzz target: a user's YAML configuration file against the built-in schema (types, units,
// ranges, enums, unknown keys, includes of the built-in presets), then the effective
// configuration written back as YAML. Bad input must be an irr::Error naming where.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "sim/config.h"
#include "sim/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto schema = std::make_shared<const irr::sim::Schema>(irr::sim::Schema::builtin());
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    irr::sim::Config cfg(schema);
    // Includes resolve in a folder that does not exist: only the built-in presets load.
    cfg.load_yaml(text, "fuzz.yaml", "/nonexistent-fuzz-dir");
    cfg.to_yaml(true);
  } catch (const irr::Error&) {
  }
  return 0;
}
