// SPDX-License-Identifier: Apache-2.0
// `irrgpu run --workload bfs|sssp|…`: a graph kernel (workloads/) in one of its variants on a
// graph file or generator, from a source vertex, checked against its CPU reference.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <sstream>

#include "apps/irrgpu/family.h"
#include "sim/output_file.h"
#include "workloads/workloads.h"

namespace irr::app {
namespace {

class GraphJob : public Job {
 public:
  GraphJob(const RunOptions& o, const workloads::Workload& w, std::string unit)
      : o_(o), w_(w), unit_(std::move(unit)), g_(workloads::load_graph(o.graph)) {
    if (const std::string why = w.refuses(g_); !why.empty()) throw Error({"--graph", 0, 0}, why, Error::Kind::usage);
    if (o.source >= 0) {
      if (static_cast<std::uint64_t>(o.source) >= g_.n)
        throw Error({"--source", 0, 0}, std::to_string(o.source) + " is not a vertex of " + g_.name + " (0 to " +
                                            std::to_string(g_.n - 1) + ")",
                    Error::Kind::usage);
      source_ = static_cast<std::uint32_t>(o.source);
    } else {  // as Graph500 does, start from a vertex that has edges
      while (source_ + 1 < g_.n && g_.degree(source_) == 0) ++source_;
    }
  }
  std::string unit() const override { return unit_; }

  Outcome run(runtime::Device& device, core::ptx::ExtensionRegistry&, TimedGpu*) override {
    const workloads::Result r = w_.run(device, g_, source_, o_.variant);
    values_ = r.values;
    return {"", r.launches, r.warp_instructions, r.thread_instructions, r.counters};
  }

  void check(Outcome& r) const override { r.check = w_.check(g_, values_, w_.reference(g_, source_)); }

  std::string summary(const Outcome& r, double host) const override {
    std::ostringstream s;
    s << w_.name << "/" << o_.variant << " on " << g_.name << " (" << g_.n << " vertices, " << g_.edges() << " edges): "
      << r.launches << " kernel launches, " << r.warp_instructions << " warp instructions, " << r.thread_instructions
      << " thread instructions in " << std::setprecision(3) << host << " s host: "
      << static_cast<double>(r.warp_instructions) / host / 1e6 << " M warp, "
      << static_cast<double>(r.thread_instructions) / host / 1e6 << " M thread instructions/s";
    return s.str();
  }

  nlohmann::json record(const Outcome& r, double host) const override {
    std::uint32_t max_degree = 0;  // a graph kernel's critical path is often the largest vertex's edge walk
    for (std::uint32_t v = 0; v < g_.n; ++v) max_degree = std::max(max_degree, g_.degree(v));
    return {{"workload", w_.name}, {"variant", o_.variant}, {"graph", g_.name}, {"vertices", g_.n},
            {"edges", g_.edges()}, {"max_degree", max_degree}, {"source", source_},
            {"thread_instructions", r.thread_instructions},
            {"warp_instructions_per_second", static_cast<double>(r.warp_instructions) / host},
            {"thread_instructions_per_second", static_cast<double>(r.thread_instructions) / host}};
  }

  void write(const std::string& dir, const Outcome&) const override {
    std::ostringstream res;
    for (std::size_t v = 0; v < values_.size(); ++v) {
      res << v << " ";
      if (std::isinf(values_[v])) res << "inf";
      else res << std::setprecision(9) << values_[v];
      res << "\n";
    }
    sim::write_file((std::filesystem::path(dir) / "result.txt").string(), res.str());
  }

 private:
  const RunOptions& o_;
  const workloads::Workload& w_;
  const std::string unit_;
  const workloads::Graph g_;
  std::uint32_t source_ = 0;
  std::vector<double> values_;
};

}  // namespace

std::unique_ptr<Job> prepare_graph(const RunOptions& o) {
  if (o.mode == "functional" && !o.timing_from_kernel.empty())
    throw Error({"--timing-from-kernel", 0, 0}, "fast-forward needs --mode timing", Error::Kind::usage);
  const workloads::Workload& w = workloads::workload(o.workload);
  if (o.graph.empty())
    throw Error({"--graph", 0, 0},
                w.example_input.empty() ? "a workload needs --graph FILE|GENERATOR"
                                        : o.workload + " needs --graph, an input of its own kind (e.g. " + w.example_input + ")",
                Error::Kind::usage);
  std::string names;
  for (const auto& v : w.variants) {
    names += (names.empty() ? "" : ", ") + v.name;
    if (v.name != o.variant) continue;
    if (!v.unit.empty() && o.mode != "timing")
      throw Error({"--variant", 0, 0}, o.variant + " needs the " + v.unit + " unit, which runs in timing mode (--mode timing)",
                  Error::Kind::usage);
    return std::make_unique<GraphJob>(o, w, v.unit);
  }
  throw Error({"--variant", 0, 0}, "'" + o.variant + "' is not a variant of " + w.name + " (" + names + ")", Error::Kind::usage);
}

}  // namespace irr::app
