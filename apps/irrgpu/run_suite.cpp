// SPDX-License-Identifier: Apache-2.0
// `irrgpu run --workload vecadd|saxpy|…`: a suite kernel (workloads/suite) as written (variant
// original) or split by the DAC pass (variant dac), functionally or on the timed GPU — where the
// dac variant runs each CTA's affine stream in its companion warp with DAC in every SM
// (docs/dac.md) — checked against its CPU reference.
#include <iomanip>
#include <sstream>

#include "apps/irrgpu/family.h"
#include "apps/irrgpu/timed_gpu.h"
#include "models/dac/queues.h"
#include "models/gpu/dac_gpu.h"
#include "workloads/suite/suite.h"

namespace irr::app {
namespace {

namespace suite = workloads::suite;

class SuiteJob : public Job {
 public:
  SuiteJob(const RunOptions& o, const suite::Kernel& k, bool split) : o_(o), k_(k), split_(split) {}
  std::string unit() const override { return split_ ? "dac" : ""; }

  Outcome run(runtime::Device& device, core::ptx::ExtensionRegistry& extensions, TimedGpu* timed) override {
    dac::Options options;  // the dissertation's pass; timed, the unit's (the DCRF's size is the hardware's)
    dac::Queues* queues = nullptr;
    dac::Queues functional;  // the queues' reference semantics, without the unit
    if (timed && split_) {
      gpu::DacGpu& unit = timed->units->get<gpu::DacGpu>("dac");
      queues = &unit.queues();
      options = unit.pass_options();
    } else if (split_) {
      dac::bind(extensions, functional);
      queues = &functional;
    }
    suite::Launcher l(device, split_ ? &extensions : nullptr, queues, options, true);
    l.scale = o_.scale;
    const suite::Outcome r = k_.run(l);
    return {r.error, l.launches, l.warp_instructions};
  }

  std::string summary(const Outcome& r, double host) const override {
    std::ostringstream s;
    s << k_.name << "/" << variant() << ": " << r.launches << " kernel launches, " << r.warp_instructions
      << " warp instructions in " << std::setprecision(3) << host << " s host";
    return s.str();
  }

  nlohmann::json record(const Outcome&, double) const override {
    return {{"workload", k_.name}, {"variant", variant()}, {"scale", o_.scale}};
  }

 private:
  std::string variant() const { return split_ ? "dac" : "original"; }
  const RunOptions& o_;
  const suite::Kernel& k_;
  const bool split_;
};

}  // namespace

std::unique_ptr<Job> prepare_suite(const RunOptions& o) {
  if (!o.graph.empty()) throw Error({"--graph", 0, 0}, o.workload + " is a suite kernel: it takes no graph", Error::Kind::usage);
  if (!o.timing_from_kernel.empty())
    throw Error({"--timing-from-kernel", 0, 0}, "suite kernels run timed from their first launch", Error::Kind::usage);
  const suite::Kernel& k = suite::kernel(o.workload);
  if (o.scale == 0 || o.scale > 4096)
    throw Error({"--scale", 0, 0}, std::to_string(o.scale) + ": an input size multiplier from 1 to 4096", Error::Kind::usage);
  const std::string variant = o.variant == "data" ? "original" : o.variant;  // "data": --variant not given
  if (variant != "original" && variant != "dac")
    throw Error({"--variant", 0, 0}, "'" + variant + "' is not a variant of suite kernel " + k.name + " (original, dac)",
                Error::Kind::usage);
  return std::make_unique<SuiteJob>(o, k, variant == "dac");
}

}  // namespace irr::app
