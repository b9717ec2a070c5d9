// SPDX-License-Identifier: Apache-2.0
// `irrgpu run --workload dtw|heat2d|hist|int_img|sor|sw`: a wavefront workload (workloads/wavefront)
// in one of its five versions, functionally or on the timed GPU, checked against its CPU reference.
#include <iomanip>
#include <sstream>

#include "apps/irrgpu/family.h"
#include "apps/irrgpu/timed_gpu.h"
#include "workloads/wavefront/wavefront.h"

namespace irr::app {
namespace {

namespace wf = workloads::wavefront;

class WavefrontJob : public Job {
 public:
  WavefrontJob(const RunOptions& o, const wf::Workload& w, std::string variant, wf::Shape shape)
      : o_(o), w_(w), variant_(std::move(variant)), v_(wf::variant(variant_)), shape_(shape) {}

  Outcome run(runtime::Device& device, core::ptx::ExtensionRegistry&, TimedGpu* timed) override {
    if (timed) {
      const sim::Config& c = timed->sim->config();
      if (v_.dependencies && c.get_string("gpu.cta_scheduler") != "dats")
        throw Error({"--variant", 0, 0}, variant_ + " launches with block dependencies: it needs the dependency-aware CTA "
                                         "scheduler (--set gpu.cta_scheduler=dats)", Error::Kind::usage);
      if (!o_.seed.empty()) shape_.seed = c.get_uint("sim.seed");
    }
    const wf::Result r = w_.run(device, shape_, variant_);
    return {r.check, r.launches, r.warp_instructions, r.thread_instructions};
  }

  std::string summary(const Outcome& r, double host) const override {
    std::ostringstream s;
    s << w_.name << "/" << variant_ << " on " << shape_.tiles_x << " x " << shape_.tiles_y << " tiles of " << shape_.tile
      << " x " << shape_.tile << ": " << r.launches << " kernel launches, " << r.warp_instructions << " warp instructions, "
      << r.thread_instructions << " thread instructions in " << std::setprecision(3) << host << " s host";
    return s.str();
  }

  nlohmann::json record(const Outcome& r, double) const override {
    return {{"workload", w_.name}, {"variant", variant_}, {"tiles_x", shape_.tiles_x}, {"tiles_y", shape_.tiles_y},
            {"tile", shape_.tile}, {"blocks", std::uint64_t{shape_.tiles_x} * shape_.tiles_y},
            {"waves", shape_.tiles_x + shape_.tiles_y - 1}, {"seed", shape_.seed},
            {"thread_instructions", r.thread_instructions}};
  }

 private:
  const RunOptions& o_;
  const wf::Workload& w_;
  const std::string variant_;
  const wf::Variant& v_;
  wf::Shape shape_;
};

}  // namespace

std::unique_ptr<Job> prepare_wavefront(const RunOptions& o) {
  if (!o.graph.empty()) throw Error({"--graph", 0, 0}, o.workload + " is a wavefront workload: it takes --tiles, not a graph", Error::Kind::usage);
  const wf::Workload& w = *wf::find(o.workload);
  const std::string variant = o.variant == "data" ? "global" : o.variant;  // "data": --variant not given
  wf::variant(variant);  // an unknown one is an error naming the known ones
  wf::Shape shape;
  wf::parse_tiles(o.tiles, shape);
  if (o.tile == 0 || o.tile > 1024)
    throw Error({"--tile", 0, 0}, std::to_string(o.tile) + " elements per tile side: 1 to 1,024 (one thread each, a block a tile)",
                Error::Kind::usage);
  shape.tile = o.tile;
  if (o.mode == "functional" && !o.seed.empty()) {  // timed, the seed is the configuration's sim.seed
    std::size_t used = 0;
    try {
      shape.seed = std::stoull(o.seed, &used);
    } catch (const std::exception&) {
    }
    if (used == 0 || used != o.seed.size() || o.seed[0] == '-')
      throw Error({"--seed", 0, 0}, "'" + o.seed + "' is not a non-negative integer", Error::Kind::usage);
  }
  return std::make_unique<WavefrontJob>(o, w, variant, shape);
}

}  // namespace irr::app
