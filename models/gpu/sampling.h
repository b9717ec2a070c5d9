// SPDX-License-Identifier: Apache-2.0
// Sampled simulation by kernels (sim.sampling: kernels; docs/sampling.md). Graph workloads
// launch many kernels of a few kinds (a BFS level, a relaxation round): the GPU runs each launch
// functionally first and hands its profile here; launches of one kernel, grid and block whose
// instruction profiles are alike (principal-kernel selection as in Accel-Sim's PKA, with the
// basic-block vector of SimPoint) form a cluster, clusters made online in launch order. A
// cluster's first launch is timed as warm-up (cold caches), the next are timed in detail; once the
// last `min_timed` agree on cycles per warp instruction within a tolerance (or `max_timed` were
// timed) the rest are charged that rate, with a bound from its spread, and every
// `resample_every`-th is timed again so that the rate follows a drift. Everything here is a pure
// function of the launches seen, so runs are deterministic.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/core/exec/warp.h"
#include "sim/config.h"

namespace irr::gpu {

// Sampled simulation by thread blocks (sim.sampling: blocks): a long launch is timed wave by
// wave of CTAs (a wave: as many CTAs as the GPU holds at once); once the last `windows` waves'
// cycles per warp instruction agree within `tolerance`, no more CTAs start, those running finish,
// and the rest run functionally, charged that rate (as TBPoint and Photon sample within a kernel).
struct WaveRate {
  double rate = 0, spread = 0;  // cycles a warp instruction over the waves, the largest departure
};
// `marks`: (core cycle, warp instructions issued) at the launch's start and at each wave's end.
// The first wave (caches and pipelines filling) never counts; nullopt until the last `windows`
// waves after it agree.
std::optional<WaveRate> settled_waves(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& marks, std::size_t windows,
                                      double tolerance);
// Each CTA's work in a launch, from a functional run (core::LaunchProfile's per-CTA counts).
class CtaWork {
 public:
  CtaWork(const std::vector<std::uint64_t>& instructions, const std::vector<std::uint64_t>& touches);
  // Whether the CTAs from `started` on are alike those before it: their warp instructions a CTA
  // and line touches a warp instruction each within the fraction `distance` of the started CTAs',
  // and none of them longer than (1 + distance) x the longest started (a straggler left for the
  // end runs alone, latency-bound, at no wave's rate). A grid whose work changes along its CTA
  // indices (an R-MAT graph's vertices by degree) is then not extrapolated from its first waves.
  bool rest_alike(std::uint64_t started, double distance) const;

 private:
  std::vector<std::uint64_t> instructions_, touches_;  // prefix sums, one entry more than CTAs
  std::vector<std::uint64_t> longest_before_, longest_from_;  // the most instructions of CTAs [0, i) and [i, n)
};

class KernelSampler {
 public:
  explicit KernelSampler(const sim::Config& config);

  // What a launch's functional run showed of it.
  struct Signature {
    const core::ptx::Function* kernel = nullptr;
    core::Dim3 grid, block;
    std::vector<std::uint64_t> per_pc;  // warp instructions at each PC (core::LaunchProfile)
    std::uint64_t lines = 0;           // distinct global lines touched
    std::uint64_t touches = 0;         // line touches (a warp's access to a line)
    std::uint64_t written = 0;         // distinct lines written
    std::uint64_t warp_instructions() const;
  };
  struct Decision {
    std::size_t cluster = 0;
    bool timed = false;  // else extrapolated
  };
  // The cluster the launch joins (a new one if none is alike) and whether to time it.
  Decision decide(const Signature& s);
  // A timed launch's measured cycles.
  void timed(std::size_t cluster, std::uint64_t warp_instructions, std::uint64_t cycles);
  struct Estimate {
    std::uint64_t cycles = 0, bound = 0;  // the charge, and how far off it may be
  };
  // The charge for an extrapolated launch of `warp_instructions` in `cluster`.
  Estimate estimate(std::size_t cluster, std::uint64_t warp_instructions) const;
  std::size_t clusters() const { return clusters_.size(); }

  // sim.sampling blocks: a launch of fewer waves than this is timed whole.
  std::uint64_t min_waves() const { return min_waves_; }
  // The rate to charge a launch's CTAs from `started` on: once its waves settle (settled_waves)
  // and those CTAs are alike the started ones (CtaWork::rest_alike); nullopt until then.
  std::optional<WaveRate> settled(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& marks, const CtaWork& work,
                                  std::uint64_t started) const;

  // The summed |a_i / A - b_i / B| of two profiles (0 identical, 2 disjoint).
  static double distance(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b);

 private:
  struct Cluster {
    Signature first;
    std::uint64_t launches = 0, warmed = 0;  // decided; timed as warm-up (not in the rate)
    std::uint64_t charged_since = 0;         // charged since the last timed
    std::vector<std::pair<std::uint64_t, std::uint64_t>> timed;  // (warp instructions, cycles)
    // Over the last `window` timed launches: cycles a warp instruction, and the largest
    // departure of one launch's from it.
    double rate(std::size_t window) const;
    double spread(std::size_t window) const;
  };
  bool alike(const Cluster& c, const Signature& s) const;

  const double distance_, size_ratio_, tolerance_;
  const std::uint64_t min_timed_, max_timed_, warmup_, resample_every_, min_waves_, windows_;
  std::vector<Cluster> clusters_;
};

}  // namespace irr::gpu
