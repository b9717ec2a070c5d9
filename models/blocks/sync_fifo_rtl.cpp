// SPDX-License-Identifier: Apache-2.0
// The parameter sets of sync_fifo verilated by the build (models/blocks/CMakeLists.txt).
#include "models/blocks/sync_fifo_rtl.h"

#include "models/blocks/island.h"
#include "sync_fifo_variants.inc"  // generated: #include "Vsync_fifo_dD_wW.h" and IRRGPU_FIFO_VARIANTS(X)

namespace irr::blocks {

namespace {

using FifoBuilds = RtlBuilds<FifoBlock, FifoParams, std::uint64_t, const std::string&, std::uint64_t>;

const FifoBuilds& fifo_builds() {
  static const FifoBuilds b(
      "sync_fifo",
      [](const FifoParams& f) { return "depth " + std::to_string(f.depth) + " x width " + std::to_string(f.width); },
      "IRRGPU_FIFO_RTL_BUILDS", "models/blocks/CMakeLists.txt", {
#define IRRGPU_BUILD(D, W) {{D, W}, FifoBuilds::rtl<FifoRtl<Vsync_fifo_d##D##_w##W>>},
#define IRRGPU_COVERAGE_BUILD(D, W) {{D, W}, FifoBuilds::rtl<FifoRtl<Vsync_fifo_d##D##_w##W##_cov>>},
        IRRGPU_FIFO_VARIANTS(IRRGPU_BUILD)
      }, {IRRGPU_FIFO_COVERAGE_VARIANTS(IRRGPU_COVERAGE_BUILD)});
#undef IRRGPU_BUILD
#undef IRRGPU_COVERAGE_BUILD
  return b;
}

}  // namespace

std::vector<FifoParams> fifo_rtl_builds() { return fifo_builds().params(); }

std::unique_ptr<FifoBlock> make_fifo_rtl(FifoParams p, std::uint64_t seed, const std::string& fst,
                                         std::uint64_t period_ps) {
  return fifo_builds().make(p, seed, fst, period_ps);
}

std::unique_ptr<FifoBlock> make_fifo(const std::string& impl, FifoParams p, std::uint64_t seed,
                                     const std::string& waveform, std::uint64_t period_ps) {
  return model_or_rtl<FifoBlock>(
      "sync_fifo", impl, [&] { return std::make_unique<FifoModel>(p, waveform, period_ps); },
      [&] { return make_fifo_rtl(p, seed, waveform, period_ps); });
}

}  // namespace irr::blocks
