// SPDX-License-Identifier: Apache-2.0
#include "models/blocks/coverage.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "sim/error.h"
#include "sim/output_file.h"

namespace irr::blocks {

namespace {
bool required = false;

void create(const std::string& d) {
  std::error_code ec;
  if (!d.empty()) std::filesystem::create_directories(d, ec);
  if (ec) throw Error({d, 0, 0}, "cannot create the coverage folder: " + ec.message(), Error::Kind::usage);
}

std::string& dir() {
  static std::string d = [] {
    const char* env = std::getenv("IRRGPU_COVERAGE");
    const std::string from_env = env ? env : "";
    create(from_env);
    return from_env;
  }();
  return d;
}
}  // namespace

const std::string& coverage_dir() { return dir(); }
bool coverage_required() { return required; }

void set_coverage_dir(const std::string& d, bool must) {
  create(d);
  dir() = d;
  required = must;
}

std::string coverage_file(const std::string& block, const std::string& kind, const std::string& ext) {
  static std::atomic<unsigned> n{0};
  return coverage_dir() + "/" + block + kind + "-" + std::to_string(::getpid()) + "-" + std::to_string(n++) + ext;
}

void write_bins(const std::string& block, const std::map<std::string, std::uint64_t>& bins) {
  if (coverage_dir().empty()) return;
  sim::write_file(coverage_file(block, "-bins", ".json"), nlohmann::json(bins).dump(1) + "\n", "coverage bins");
}

}  // namespace irr::blocks
