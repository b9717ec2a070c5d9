// SPDX-License-Identifier: Apache-2.0
// Compact affine execution (CAE, Kim et al. [65]): the dissertation's compute-side baseline for DAC
// [S L738, L772] (../shared/specs/dac_decoupled_delegate.md §3). Per SM it tracks, per warp and
// register, whether the register holds an affine vector (lane l's value = base + l * stride, a
// uniform one when the stride is 0), detected from the values the whole warp writes; an integer
// add, sub, mul, mad, shl, mov or cvt whose register sources are affine, with at most one non-uniform
// factor, executed by all 32 threads and giving an affine result, goes to the SM's affine unit
// beside the SIMT lanes (SmUnit::Take::execute) instead of to the lanes. After divergence (a warp
// not wholly active) nothing is affine: CAE has no affine SIMT stack [S L772]. docs/dac.md "CAE".
#pragma once

#include <cstdint>
#include <vector>

#include "models/core/unit_port.h"
#include "sim/simulation.h"

namespace irr::dac {

class Cae : public core::SmUnit {
 public:
  Cae(sim::Simulation& sim, const sc_core::sc_object& sm);

  bool can_accept(const core::UnitOp&) override { return false; }  // it has no instructions
  void accept(const core::UnitOp&, core::SmPort&) override;
  Take issued(const core::UnitOp& op, const core::Step& step, const core::Warp& warp, core::SmPort& port) override;
  void warp_exit(std::uint32_t warp, core::SmPort& port) override;

  enum class Value : std::uint8_t { vector, affine, uniform };
  // What `bits`-wide values of 32 lanes are (lanes outside `mask` make them a vector).
  static Value classify(const std::uint64_t* values, std::uint32_t mask, unsigned bits);
  // Whether an instruction of this kind may run on the affine unit given its sources' kinds
  // (affine x affine is not affine: one factor of a product, and a shift's amount, must be uniform).
  static bool eligible(const core::ptx::Instruction& in, const std::vector<Value>& sources);

 private:
  Value state(std::uint32_t warp, std::uint32_t reg) const;

  std::vector<std::vector<Value>> regs_;  // per warp slot, per register (vector when unknown)
  std::vector<Value> sources_;            // scratch
  sim::Counter &executed_, &candidates_, &affine_writes_;
  sim::Probe& executed_probe_;  // executed_, modulo 2^16: each step a warp instruction taken from the lanes
};

}  // namespace irr::dac
