// SPDX-License-Identifier: Apache-2.0
// The decoupling pass (seed 001 §3.3, Fig. 3.6): a kernel split into an affine stream (address
// and predicate computation on scalars and affine values, each decoupled load, store and branch
// predicate turned into enq.data / enq.addr / enq.pred; one affine warp per CTA in hardware) and
// a non-affine stream (the original with those operands taken by deq.data / deq.addr / deq.pred
// and the computation they no longer need removed). Control flow on scalar/affine predicates and
// barriers are in both streams; under a branch on a non-affine value the affine stream skips to
// the branch's post-dominator. docs/dac.md.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "models/core/ptx/parser.h"
#include "models/dac/analysis.h"

namespace irr::dac {

struct Summary {
  std::size_t original = 0, affine = 0, non_affine = 0;  // static instructions in each
  std::size_t removed = 0;  // original instructions the non-affine stream no longer has
  std::size_t loads = 0, loads_decoupled = 0, stores = 0, stores_decoupled = 0;  // global
  std::size_t predicates_decoupled = 0, barriers = 0;
  struct Left {
    std::uint32_t line;
    std::string why;
  };
  std::vector<Left> not_decoupled;  // loads, stores and branches that could have been, with why not
  bool decoupled() const { return loads_decoupled + stores_decoupled > 0; }
};

// One instruction of a stream and where it came from.
struct Line {
  std::uint32_t origin;  // pc in the original kernel
  enum class Kind : std::uint8_t { copy, changed, added } kind;
};

struct Streams {
  Analysis analysis;
  core::ptx::Function affine, non_affine;  // kernels named affine_name(K) and non_affine_name(K)
  std::vector<Line> affine_lines, non_affine_lines;
  Summary summary;
};

std::string affine_name(const std::string& kernel);      // K_dac_affine
std::string non_affine_name(const std::string& kernel);  // K_dac_dp
// `registry` must hold enq and deq (add_dac_instructions).
Streams split(const core::ptx::Function& kernel, const core::ptx::ExtensionRegistry& registry, const Options& options = {});
// A copy of `m` with both streams of every kernel added (a launch of K becomes one of K's affine
// stream then one of its non-affine stream, over the same grid and arguments).
core::ptx::Module split_module(const core::ptx::Module& m, const core::ptx::ExtensionRegistry& registry,
                               const Options& options = {});

// Both streams as PTX, each instruction with its class; unchanged instructions as `text` (the
// module's lines) has them. Then the summary.
void print(std::ostream& out, const core::ptx::Function& kernel, const Streams& s, const std::vector<std::string>& text);

}  // namespace irr::dac
