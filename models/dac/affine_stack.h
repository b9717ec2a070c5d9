// SPDX-License-Identifier: Apache-2.0
// The affine SIMT stack of one CTA's affine warp [S L629-L637] (../shared/specs/
// dac_decoupled_delegate.md §1.9): a warp-level stack (WLS) whose entries hold a PC and a
// reconvergence PC shared by all the CTA's warps and a 2-bit code per warp — 11 every thread of
// the warp on this path, 00 none, 10 some — and per-warp stacks (PWS) holding a thread mask only
// for the warps whose code is 10. The timed SM runs the affine warp's control by min-PC
// reconvergence (docs/dac.md); this model follows the same branches as the post-dominator stack
// would hold them and counts what the WLS and the PWSs hold, so their depth is checked against
// their sizes and their accesses counted for energy.
//
// A divergent branch (the threads at it do not all go one way) turns the top entry into the
// reconvergence entry and pushes an entry for each path that does not start at the reconvergence
// point (1 or 2; the pre-Volta rule of GPGPU-Sim, the dissertation's simulator); a branch
// reconverging where the top entry does (a loop's exit taken by some threads each iteration)
// updates that entry instead of pushing. Entries pop when the affine warp issues at their
// reconvergence point (or past it: every warp has reached it, min-PC having run the lower ones).
#pragma once

#include <cstdint>
#include <vector>

namespace irr::dac {

class AffineStack {
 public:
  // `threads`: each of the CTA's warps' thread masks (11 is "all of these").
  explicit AffineStack(std::vector<std::uint32_t> threads) : threads_(std::move(threads)) {}

  struct At {  // a warp at a branch: its threads there, and those that take it
    std::uint32_t warp = 0, active = 0, taken = 0;
  };
  // The affine warp issued a branch at `pc` to `target` reconverging at `rpc`, for the warps `at`.
  // Returns the WLS entries pushed (0: no divergence, or the top entry updated).
  unsigned branch(std::uint32_t pc, std::uint32_t target, std::uint32_t rpc, const std::vector<At>& at);
  // The affine warp issued at `pc`: entries reconverging at or before it pop. Returns how many.
  unsigned issued(std::uint32_t pc);

  unsigned depth() const;                        // WLS entries, the base entry included
  unsigned pws_depth(std::uint32_t warp) const;  // PWS entries of one warp (its masks)
  unsigned pws_max() const;                      // the deepest PWS now
  // PWS masks written by the last branch() / read by the last issued()'s pops (energy).
  unsigned pws_written() const { return written_; }
  unsigned pws_read() const { return read_; }

 private:
  struct Level {
    std::uint32_t rpc = 0;
    unsigned entries = 0;              // paths pushed (1 or 2)
    std::vector<std::uint8_t> mixed;   // per warp: its PWS masks for this level's entries
  };
  unsigned code_mixed(std::uint32_t warp, std::uint32_t mask) const {
    return mask != 0 && mask != threads_[warp];
  }

  std::vector<std::uint32_t> threads_;
  std::vector<Level> levels_;
  unsigned written_ = 0, read_ = 0;
};

}  // namespace irr::dac
