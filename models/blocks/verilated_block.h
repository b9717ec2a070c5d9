// SPDX-License-Identifier: Apache-2.0
// Steps a Verilated (--cc) model as a StepBlock: eval() sets the inputs with the clock low and
// evaluates, edge() raises the clock. Each instance has its own VerilatedContext, so X-initial
// randomisation (--x-initial unique) is seeded per instance, and may write an FST waveform; a
// coverage build writes its counts when coverage is on (models/blocks/coverage.h).
// Internal to the RTL adapters: it includes Verilator's headers.
#pragma once

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"  // in Verilator's own headers
#include <spdlog/spdlog.h>
#include <verilated.h>
#include <verilated_cov.h>
#include <verilated_fst_c.h>
#pragma GCC diagnostic pop

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "models/blocks/coverage.h"
#include "sim/error.h"

namespace irr::blocks {

// True of the classes verilated with coverage (the build's generated includes say so).
template <typename V>
inline constexpr bool coverage_build = false;

template <typename V>
class Verilated {
 public:
  Verilated(const char* name, std::uint64_t seed, const std::string& fst, std::uint64_t period_ps)
      : ctx_(std::make_unique<VerilatedContext>()), name_(name), half_(period_ps / 2 ? period_ps / 2 : 1) {
    ctx_->randReset(2);  // with --x-initial unique: every uninitialised bit random, from the seed
    ctx_->randSeed(static_cast<int>(seed % 0x7fffffff));
    if (!fst.empty()) ctx_->traceEverOn(true);
    top_ = std::make_unique<V>(ctx_.get(), name);
    if (!fst.empty()) {
      fst_ = std::make_unique<VerilatedFstC>();
      top_->trace(fst_.get(), 99);
      fst_->open(fst.c_str());
      if (!fst_->isOpen()) throw Error({fst, 0, 0}, "cannot write the FST waveform", Error::Kind::usage);
    }
    top_->clk = 0;
    top_->eval();
  }
  ~Verilated() {
    if (fst_) fst_->close();
    top_->final();
    if constexpr (coverage_build<V>)
      if (!coverage_dir().empty()) ctx_->coveragep()->write(coverage_file(name_, "", ".dat").c_str());
  }
  V& top() { return *top_; }
  // After the inputs are set: evaluate with the clock low.
  void settle() {
    top_->clk = 0;
    top_->eval();
    if (fst_) fst_->dump(time_);
  }
  void rising_edge() {
    top_->clk = 1;
    top_->eval();
    if (fst_) fst_->dump(time_ + half_);
    time_ += 2 * half_;
  }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<V> top_;
  std::unique_ptr<VerilatedFstC> fst_;
  std::string name_;
  std::uint64_t half_, time_ = 0;
};

// Packs `values` of `width` bits each into a Verilated port (an integer or a VlWide), and back.
template <typename P>
void pack(P& port, const std::vector<std::uint32_t>& values, unsigned width) {
  if constexpr (std::is_integral_v<P>) {
    std::uint64_t x = 0;
    for (std::size_t i = 0; i < values.size(); ++i) x |= std::uint64_t{values[i] & ((1u << width) - 1)} << (i * width);
    port = static_cast<P>(x);
  } else {
    for (auto& word : port.m_storage) word = 0;
    for (std::size_t i = 0; i < values.size(); ++i)
      for (unsigned b = 0; b < width; ++b)
        if (values[i] >> b & 1) port[(i * width + b) / 32] |= 1u << ((i * width + b) % 32);
  }
}

template <typename P>
std::vector<std::uint32_t> unpack(const P& port, std::size_t n, unsigned width) {
  std::vector<std::uint32_t> v(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (unsigned b = 0; b < width; ++b) {
      const std::size_t bit = i * width + b;
      bool set;
      if constexpr (std::is_integral_v<P>) set = std::uint64_t{port} >> bit & 1;
      else set = port[bit / 32] >> (bit % 32) & 1;
      if (set) v[i] |= 1u << b;
    }
  return v;
}

}  // namespace irr::blocks
