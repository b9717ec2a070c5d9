// SPDX-License-Identifier: Apache-2.0
// `irrgpu run --workload ht --variant global|delegated`: a fine-grained lock benchmark
// (workloads/locks) with global spin locks or with its critical sections delegated to server
// blocks, functionally or on the timed GPU, checked against the data structure it must leave.
#include <iomanip>
#include <sstream>

#include "apps/irrgpu/family.h"
#include "sim/config.h"
#include "workloads/locks/locks.h"

namespace irr::app {
namespace {

namespace locks = workloads::locks;

class LocksJob : public Job {
 public:
  LocksJob(const locks::Benchmark& b, std::string variant, locks::Options opt)
      : b_(b), variant_(std::move(variant)), opt_(std::move(opt)) {}

  Outcome run(runtime::Device& device, core::ptx::ExtensionRegistry&, TimedGpu*) override {
    const locks::Outcome r = b_.run(device, variant_, opt_);
    return {r.error, r.launches, r.warp_instructions, r.thread_instructions, r.counters};
  }

  std::string summary(const Outcome& r, double host) const override {
    std::ostringstream s;
    s << b_.name << "/" << variant_ << ": "
      << (opt_.graph.empty() ? std::to_string(opt_.items) + " items over " + std::to_string(opt_.collisions) + " entries"
                             : "graph " + opt_.graph)
      << ", " << r.warp_instructions << " warp instructions in " << std::setprecision(3) << host << " s host";
    for (const auto& [name, value] : r.counters) s << "\n  " << name << ": " << value;
    return s.str();
  }

  nlohmann::json record(const Outcome&, double) const override {
    nlohmann::json record = {{"workload", b_.name}, {"variant", variant_}, {"items", opt_.items},
                             {"collisions", opt_.collisions}, {"servers", opt_.servers}};
    if (!opt_.graph.empty()) record["graph"] = opt_.graph;
    return record;
  }

 private:
  const locks::Benchmark& b_;
  const std::string variant_;
  const locks::Options opt_;
};

}  // namespace

std::unique_ptr<Job> prepare_locks(const RunOptions& o) {
  const locks::Benchmark& b = *locks::find(o.workload);
  if (!o.graph.empty() && b.graph.empty())
    throw Error({"--graph", 0, 0}, b.name + " is a lock benchmark: it takes no graph", Error::Kind::usage);
  if (!b.graph.empty() && o.scale != 1)
    throw Error({"--scale", 0, 0}, b.name + " runs on its graph (--graph): it takes no scale", Error::Kind::usage);
  if (!o.timing_from_kernel.empty())
    throw Error({"--timing-from-kernel", 0, 0}, "lock benchmarks are one launch, timed from its start", Error::Kind::usage);
  if (o.scale == 0 || o.scale > 1024)
    throw Error({"--scale", 0, 0}, std::to_string(o.scale) + ": 16,384 items times 1 to 1024", Error::Kind::usage);
  if (o.collisions == 0 || o.collisions > (1u << 24))
    throw Error({"--collisions", 0, 0}, std::to_string(o.collisions) + ": entries to pick from, 1 to 2^24", Error::Kind::usage);
  if (o.servers == 0 || o.servers > 1024)
    throw Error({"--servers", 0, 0}, std::to_string(o.servers) + ": server blocks, 1 to 1024", Error::Kind::usage);
  const std::string variant = o.variant == "data" ? "global" : o.variant;  // "data": --variant not given
  std::string names;
  bool known = false;
  for (const auto& v : locks::variants()) {
    names += (names.empty() ? "" : ", ") + v.first;
    known = known || v.first == variant;
  }
  if (!known)
    throw Error({"--variant", 0, 0}, "'" + variant + "' is not a variant of lock benchmark " + b.name + " (" + names + ")",
                Error::Kind::usage);
  locks::Options opt;
  opt.items = 16384 * o.scale;
  opt.collisions = o.collisions;
  opt.servers = o.servers;
  opt.handoff = o.handoff;
  opt.graph = o.graph.empty() ? b.graph : o.graph;
  sim::Config cfg = load(o.config);  // the items' keys from sim.seed, in either mode
  if (!o.seed.empty()) cfg.set("sim.seed=" + o.seed, {"--seed", 0, 0});
  opt.seed = cfg.get_uint("sim.seed");
  return std::make_unique<LocksJob>(b, variant, opt);
}

}  // namespace irr::app
