// SPDX-License-Identifier: Apache-2.0
// Fuzz target: a model's schema.yaml (the validator's own input: key types, defaults, bounds,
// units, enums), then the configuration documentation generated from it. A schema is the
// project's own file, so a mistake in it is an internal error (std::logic_error), but it must
// name the file and line like any other.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "sim/error.h"
#include "sim/schema.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    irr::sim::Schema schema;
    schema.add({"fuzz/schema.yaml", text});
    schema.markdown();
  } catch (const std::logic_error& e) {
    if (std::string(e.what()).rfind("fuzz/schema.yaml:", 0) != 0) __builtin_trap();
  }
  return 0;
}
