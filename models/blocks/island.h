// SPDX-License-Identifier: Apache-2.0
// What every RTL island has, written once: the choice between its model and its RTL (a
// configuration's `impl` key), and its Verilated builds — one per parameter set the build
// verilated (irrgpu_verilate_builds, cmake/Verilate.cmake, writes their X-macro list) — with the
// error for a set it did not verilate, and the sets also verilated with coverage, made instead while
// coverage is on (models/blocks/coverage.h). No Verilator header here: the model's side includes it.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/blocks/coverage.h"
#include "sim/error.h"

namespace irr::blocks {

// `model()` or `rtl()` as `impl` says; another value is a configuration error naming `block`.
template <typename Block, typename Model, typename Rtl>
std::unique_ptr<Block> model_or_rtl(const std::string& block, const std::string& impl, Model model, Rtl rtl) {
  if (impl == "model") return model();
  if (impl == "rtl") return rtl();
  throw Error(block + ": impl '" + impl + "' is not model or rtl", Error::Kind::config);
}

// An island's builds: for each parameter set, the factory of its Verilated class. `Args` are what
// a build takes besides the parameters (seed, waveform file, ...).
template <typename Block, typename Params, typename... Args>
class RtlBuilds {
 public:
  using Make = std::unique_ptr<Block> (*)(const Params&, Args...);
  struct Build {
    Params params;
    Make make;
  };
  // `variable`: the CMake cache variable, set in `cmake_file`, that lists the sets to verilate
  // (IRRGPU_X_RTL_BUILDS; IRRGPU_X_COVERAGE_BUILDS lists the `coverage` ones).
  RtlBuilds(std::string block, std::function<std::string(const Params&)> name, std::string variable,
            std::string cmake_file, std::vector<Build> builds, std::vector<Build> coverage)
      : block_(std::move(block)), name_(std::move(name)), variable_(std::move(variable)),
        cmake_file_(std::move(cmake_file)), builds_(std::move(builds)), coverage_(std::move(coverage)) {}

  // The factory of one build: its RTL class made from the parameters and the rest.
  template <typename Rtl>
  static std::unique_ptr<Block> rtl(const Params& p, Args... args) {
    return std::make_unique<Rtl>(p, args...);
  }

  std::vector<Params> params() const {
    std::vector<Params> v;
    for (const auto& b : builds_) v.push_back(b.params);
    return v;
  }

  // The build of `p`; a configuration error naming what was asked for, what was built and the
  // variable that adds a set, when the build did not verilate it.
  // While coverage is on, a coverage build of `p` if there is one (required under
  // coverage_required(): `irrgpu coverage`).
  std::unique_ptr<Block> make(const Params& p, Args... args) const {
    if (!coverage_dir().empty()) {
      for (const auto& b : coverage_)
        if (b.params == p) return b.make(p, args...);
      if (coverage_required()) missing(p, coverage_, "verilated with coverage", "_COVERAGE_BUILDS");
    }
    for (const auto& b : builds_)
      if (b.params == p) return b.make(p, args...);
    missing(p, builds_, "built", "_RTL_BUILDS");
  }

 private:
  [[noreturn]] void missing(const Params& p, const std::vector<Build>& builds, const char* what, const char* var) const {
    std::string list;
    for (const auto& b : builds) list += (list.empty() ? "" : ", ") + name_(b.params);
    const std::string variable = variable_.substr(0, variable_.rfind("_RTL_BUILDS")) + var;
    throw Error(block_ + ": no RTL build for " + name_(p) + " (" + what + ": " + (list.empty() ? "none" : list) +
                    "; add it to " + variable + " in " + cmake_file_ + ")",
                Error::Kind::config);
  }

  std::string block_;
  std::function<std::string(const Params&)> name_;
  std::string variable_, cmake_file_;
  std::vector<Build> builds_, coverage_;
};

}  // namespace irr::blocks
