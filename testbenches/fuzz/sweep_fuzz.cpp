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
  // In memory (/dev/shm) where there is one: rewriting a file on disk for every input costs
  // a flush to the file system at each close.
  static const std::string file = [] {
    std::string dir = std::string(access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp") + "/irrgpu-fuzz-sweep-XXXXXX";
    if (!mkdtemp(dir.data())) std::abort();
    return dir + "/sweep.yaml";
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
