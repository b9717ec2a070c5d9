// SPDX-License-Identifier: Apache-2.0
// The parameter sets of sync_fifo verilated by the build (models/blocks/CMakeLists.txt).
#include "models/blocks/sync_fifo_rtl.h"

#include "sync_fifo_variants.inc"  // generated: #include "Vsync_fifo_dD_wW.h" and IRRGPU_FIFO_VARIANTS(X)

namespace irr::blocks {

std::vector<FifoParams> fifo_rtl_builds() {
  std::vector<FifoParams> v;
#define IRRGPU_LIST(D, W) v.push_back({D, W});
  IRRGPU_FIFO_VARIANTS(IRRGPU_LIST)
#undef IRRGPU_LIST
  return v;
}

std::unique_ptr<FifoBlock> make_fifo_rtl(FifoParams p, std::uint64_t seed, const std::string& fst,
                                         std::uint64_t period_ps) {
#define IRRGPU_MAKE(D, W) \
  if (p.depth == D && p.width == W) return std::make_unique<FifoRtl<Vsync_fifo_d##D##_w##W>>(p, seed, fst, period_ps);
  IRRGPU_FIFO_VARIANTS(IRRGPU_MAKE)
#undef IRRGPU_MAKE
  no_rtl_build(
      "sync_fifo", p, fifo_rtl_builds(),
      [](const FifoParams& f) { return "depth " + std::to_string(f.depth) + " x width " + std::to_string(f.width); },
      "IRRGPU_FIFO_RTL_BUILDS", "models/blocks/CMakeLists.txt");
}

std::unique_ptr<FifoBlock> make_fifo(const std::string& impl, FifoParams p, std::uint64_t seed,
                                     const std::string& waveform, std::uint64_t period_ps) {
  if (impl == "model") return std::make_unique<FifoModel>(p, waveform, period_ps);
  if (impl == "rtl") return make_fifo_rtl(p, seed, waveform, period_ps);
  throw Error("sync_fifo: impl '" + impl + "' is not model or rtl", Error::Kind::config);
}

}  // namespace irr::blocks
