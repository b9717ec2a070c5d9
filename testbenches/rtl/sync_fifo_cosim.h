// SPDX-License-Identifier: Apache-2.0
// What sync_fifo's co-simulation declares: compared signals, seeded stimulus, coverage bins and
// the directed sequence.
#pragma once

#include "models/blocks/sync_fifo.h"
#include "testbenches/common/cosim.h"

namespace irr::testing {

using blocks::FifoIn;
using blocks::FifoOut;

inline CosimSpec<FifoIn, FifoOut> fifo_cosim_spec(blocks::FifoParams p) {
  CosimSpec<FifoIn, FifoOut> s;
  s.block = "sync_fifo";
  s.signals = {
      {"push_ok", [](const FifoOut& o) { return std::uint64_t{o.push_ok}; }},
      {"pop_ok", [](const FifoOut& o) { return std::uint64_t{o.pop_ok}; }},
      {"rd_valid", [](const FifoOut& o) { return std::uint64_t{o.rd_valid}; }},
      {"rd_data", [](const FifoOut& o) { return o.rd_data; }, [](const FifoOut& o) { return o.rd_valid; }},
      {"count", [](const FifoOut& o) { return std::uint64_t{o.count}; }},
      {"full", [](const FifoOut& o) { return std::uint64_t{o.full}; }},
      {"empty", [](const FifoOut& o) { return std::uint64_t{o.empty}; }},
  };
  const std::uint32_t depth = p.depth;
  s.bins = {
      {"full", [](const FifoIn&, const FifoOut& o) { return o.full; }},
      {"empty", [](const FifoIn&, const FifoOut& o) { return o.empty; }},
      {"fill to full", [=](const FifoIn&, const FifoOut& o) { return o.push_ok && o.count == depth - 1; }},
      {"drain to empty", [](const FifoIn&, const FifoOut& o) { return o.pop_ok && o.count == 1; }},
      {"push refused when full", [](const FifoIn& i, const FifoOut& o) { return i.push && !i.pop && o.full; }},
      {"pop refused when empty", [](const FifoIn& i, const FifoOut& o) { return i.pop && !i.push && o.empty; }},
      {"push and pop on empty", [](const FifoIn& i, const FifoOut& o) { return i.push && i.pop && o.empty; }},
      {"push and pop on full", [](const FifoIn& i, const FifoOut& o) { return i.push && i.pop && o.full; }},
      {"push and pop partly full",
       [](const FifoIn& i, const FifoOut& o) { return i.push && i.pop && !o.full && !o.empty; }},
      {"reset while not empty", [](const FifoIn& i, const FifoOut& o) { return i.rst && !o.empty; }},
  };
  // Phases of 4 x depth cycles that lean to filling, draining or neither, so that both
  // boundaries are reached often; rare resets; data from the full width.
  s.stimulus = [depth, width = p.width](std::mt19937_64& rng, std::uint64_t cycle) {
    const std::uint64_t phase = (cycle / (4 * depth)) % 3;
    const double push_p[] = {0.9, 0.15, 0.5}, pop_p[] = {0.15, 0.9, 0.5};
    std::uniform_real_distribution<double> u(0, 1);
    FifoIn in;
    in.rst = cycle == 0 || u(rng) < 0.002;
    in.push = u(rng) < push_p[phase];
    in.pop = u(rng) < pop_p[phase];
    in.push_data = rng() & (width == 64 ? ~0ull : (1ull << width) - 1);
    return in;
  };
  s.reset = [](const FifoIn& in) { return in.rst; };
  return s;
}

// Reset; fill past full; push and pop on full; drain past empty; push and pop on empty; then
// push and pop on a partly full queue.
inline std::vector<FifoIn> fifo_directed(blocks::FifoParams p) {
  std::vector<FifoIn> v;
  auto add = [&](bool rst, bool push, bool pop, std::uint64_t data) { v.push_back({rst, push, data, pop}); };
  add(true, false, false, 0);
  for (unsigned i = 0; i <= p.depth; ++i) add(false, true, false, 0x100 + i);
  add(false, true, true, 0xAAA);
  for (unsigned i = 0; i <= p.depth; ++i) add(false, false, true, 0);
  add(false, true, true, 0xBBB);  // on empty: the push goes in, leaving one entry
  add(false, true, true, 0xDDD);  // partly full (depth >= 2): the pop wins
  add(false, true, false, 0xCCC);
  add(false, false, true, 0);
  add(false, false, false, 0);
  return v;
}

}  // namespace irr::testing
