// SPDX-License-Identifier: Apache-2.0
// Co-simulation harness for RTL islands: drives a model and its RTL with one seeded stimulus
// (or a directed list of inputs) and checks both, every cycle, against an independent reference
// written from the block's specification. A block gets its co-simulation test by declaring its
// compared signals, its stimulus and its coverage bins (see testbenches/rtl/sync_fifo_test.cpp).
// With coverage on ($IRRGPU_COVERAGE), a spec that names its block writes the bins it hit there
// for `irrgpu coverage` (models/blocks/coverage.h).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "models/blocks/coverage.h"
#include "sim/step_block.h"

namespace irr::testing {

template <typename Out>
struct Signal {
  std::string name;
  std::function<std::uint64_t(const Out&)> value;
  // Compared only when this holds of the reference's outputs (e.g. data only when valid).
  std::function<bool(const Out&)> compared = nullptr;
};

template <typename In, typename Out>
struct Bin {
  std::string name;
  std::function<bool(const In&, const Out&)> hit;  // the inputs and the reference's outputs
};

template <typename In, typename Out>
struct CosimSpec {
  std::string block;  // the RTL block's name (rtl/blocks.json), for its coverage bins
  std::vector<Signal<Out>> signals;
  std::vector<Bin<In, Out>> bins;
  std::function<In(std::mt19937_64&, std::uint64_t cycle)> stimulus;
  // The block's reset input: outputs are compared only once a reset has been applied (before
  // it, registers hold their random X-initial values).
  std::function<bool(const In&)> reset;
};

struct Mismatch {
  std::uint64_t cycle;
  std::string signal;
  std::uint64_t model, rtl, reference;
  std::string str() const {
    std::ostringstream s;
    s << "cycle " << cycle << ": " << signal << ": model=0x" << std::hex << model << " rtl=0x" << rtl
      << " reference=0x" << reference;
    return s.str();
  }
};

struct CosimReport {
  std::uint64_t cycles = 0;
  bool out_of_reset = false;
  std::vector<Mismatch> mismatches;
  std::map<std::string, std::uint64_t> bins;  // hits per bin
  std::vector<std::string> missed_bins() const {
    std::vector<std::string> m;
    for (const auto& [name, hits] : bins)
      if (!hits) m.push_back(name);
    return m;
  }
  std::string summary() const {
    std::string s = std::to_string(cycles) + " cycles, " + std::to_string(mismatches.size()) + " mismatches";
    for (const auto& m : mismatches) s += "\n  " + m.str();
    for (const auto& b : missed_bins()) s += "\n  bin never hit: " + b;
    return s;
  }
};

// One cycle of all three; returns false once max_mismatches are recorded.
template <typename In, typename Out>
bool cosim_cycle(sim::StepBlock<In, Out>& model, sim::StepBlock<In, Out>& rtl, sim::StepBlock<In, Out>& reference,
                 const CosimSpec<In, Out>& spec, const In& in, CosimReport& report, std::size_t max_mismatches) {
  const Out m = model.step(in), r = rtl.step(in), ref = reference.step(in);
  const bool compare = report.out_of_reset;
  if (spec.reset(in)) report.out_of_reset = true;
  ++report.cycles;
  if (!compare) return true;
  for (const auto& b : spec.bins)
    if (b.hit(in, ref)) ++report.bins[b.name];
  for (const auto& sig : spec.signals) {
    if (sig.compared && !sig.compared(ref)) continue;
    const std::uint64_t vm = sig.value(m), vr = sig.value(r), vref = sig.value(ref);
    if (vm != vref || vr != vref) report.mismatches.push_back({report.cycles - 1, sig.name, vm, vr, vref});
  }
  return report.mismatches.size() < max_mismatches;
}

template <typename In, typename Out>
CosimReport cosim_random(sim::StepBlock<In, Out>& model, sim::StepBlock<In, Out>& rtl, sim::StepBlock<In, Out>& reference,
                         const CosimSpec<In, Out>& spec, std::uint64_t cycles, std::uint64_t seed,
                         std::size_t max_mismatches = 10) {
  CosimReport report;
  for (const auto& b : spec.bins) report.bins[b.name] = 0;
  std::mt19937_64 rng(seed);
  for (std::uint64_t c = 0; c < cycles; ++c)
    if (!cosim_cycle(model, rtl, reference, spec, spec.stimulus(rng, c), report, max_mismatches)) break;
  if (!spec.block.empty()) blocks::write_bins(spec.block, report.bins);
  return report;
}

template <typename In, typename Out>
CosimReport cosim_directed(sim::StepBlock<In, Out>& model, sim::StepBlock<In, Out>& rtl,
                           sim::StepBlock<In, Out>& reference, const CosimSpec<In, Out>& spec,
                           const std::vector<In>& inputs, std::size_t max_mismatches = 10) {
  CosimReport report;
  for (const auto& b : spec.bins) report.bins[b.name] = 0;
  for (const In& in : inputs)
    if (!cosim_cycle(model, rtl, reference, spec, in, report, max_mismatches)) break;
  if (!spec.block.empty()) blocks::write_bins(spec.block, report.bins);
  return report;
}

// Random co-simulation under each seed, which also seeds the RTL's X-initial values: every cycle
// runs, nothing mismatches, every bin is hit. `model()`, `rtl(seed)` and `reference()` make fresh
// blocks (unique_ptrs) for each seed.
template <typename In, typename Out, typename MakeModel, typename MakeRtl, typename MakeReference>
void expect_clean_cosim(const CosimSpec<In, Out>& spec, std::uint64_t cycles, std::initializer_list<std::uint64_t> seeds,
                        MakeModel model, MakeRtl rtl, MakeReference reference) {
  for (std::uint64_t seed : seeds) {
    auto m = model();
    auto r = rtl(seed);
    auto ref = reference();
    const CosimReport report = cosim_random<In, Out>(*m, *r, *ref, spec, cycles, seed);
    EXPECT_EQ(report.cycles, cycles) << report.summary();
    EXPECT_TRUE(report.mismatches.empty()) << "seed " << seed << ": " << report.summary();
    EXPECT_TRUE(report.missed_bins().empty()) << "seed " << seed << ": " << report.summary();
  }
}

}  // namespace irr::testing
