// SPDX-License-Identifier: Apache-2.0
// DAC's predicate expansion unit (PEU; seed 001 §3.4.3, specs/dac_decoupled_delegate.md §1.6): an
// affine comparison turned into one 32-bit predicate mask a warp. Both operands scalar: one
// comparison serves the whole CTA [S L613]. An affine operand (b, o) against a scalar: the first
// and last active threads of a warp compared; when they agree, every thread between agrees too
// (the values move in one direction), so two comparisons give the warp's mask; otherwise the
// warp's lanes compare one by one, as the SIMT lanes would [S L615]. docs/dac.md.
#pragma once

#include <cstdint>
#include <vector>

#include "models/core/ptx/module.h"

namespace irr::dac {

struct PredicateExpansion {
  std::vector<std::uint32_t> masks;  // per warp: bit l = the predicate of lane l (inactive lanes 0)
  std::uint64_t comparisons = 0;     // comparisons the PEU made
  std::uint64_t lane_warps = 0;      // warps it handed to the SIMT lanes (32 comparisons each)
};

// setp.<cmp> (signed when `is_signed`) of a(t) = base + t·offset against the scalar b, for the CTA's
// warps (t = 32w + l, 64-bit values), each warp's active threads in `active` (one mask a warp).
PredicateExpansion expand_predicate(core::ptx::Cmp cmp, bool is_signed, std::int64_t base, std::int64_t offset,
                                    std::int64_t b, const std::vector<std::uint32_t>& active);

}  // namespace irr::dac
