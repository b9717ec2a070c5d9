// SPDX-License-Identifier: Apache-2.0
// Fuzz target: a sweep file (docs/sweeps.md) read and expanded to its runs, every configuration a
// run would load built against the schema. Bad input must be an irr::Error naming where.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "apps/irrgpu/sweep/spec.h"
#include "sim/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The reader takes a file (layers and graphs resolve beside it): one in a folder of its own,
  // so that files a sweep names relative to itself do not exist.
  static const std::string file = [] {
    char dir[] = "/tmp/irrgpu-fuzz-sweep-XXXXXX";
    if (!mkdtemp(dir)) std::abort();
    return std::string(dir) + "/sweep.yaml";
  }();
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    irr::app::sweep::expand(file);
  } catch (const irr::Error&) {
  }
  return 0;
}
