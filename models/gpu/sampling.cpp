// SPDX-License-Identifier: Apache-2.0
#include "models/gpu/sampling.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sim/error.h"

namespace irr::gpu {

KernelSampler::KernelSampler(const sim::Config& config)
    : distance_(config.get_real("sampling.distance")),
      size_ratio_(config.get_real("sampling.size_ratio")),
      tolerance_(config.get_real("sampling.tolerance")),
      min_timed_(config.get_uint("sampling.min_timed")),
      max_timed_(config.get_uint("sampling.max_timed")),
      warmup_(config.get_uint("sampling.warmup")),
      resample_every_(config.get_uint("sampling.resample_every")),
      min_waves_(config.get_uint("sampling.min_waves")),
      windows_(config.get_uint("sampling.windows")) {
  if (max_timed_ < min_timed_)
    throw Error("sampling.max_timed (" + std::to_string(max_timed_) + ") is below sampling.min_timed (" +
                    std::to_string(min_timed_) + ")",
                Error::Kind::config);
}

std::uint64_t KernelSampler::Signature::warp_instructions() const {
  return std::accumulate(per_pc.begin(), per_pc.end(), std::uint64_t{0});
}

double KernelSampler::distance(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
  const double ta = static_cast<double>(std::accumulate(a.begin(), a.end(), std::uint64_t{0}));
  const double tb = static_cast<double>(std::accumulate(b.begin(), b.end(), std::uint64_t{0}));
  if (ta == 0 || tb == 0) return ta == tb ? 0 : 2;
  double d = 0;
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    const double x = i < a.size() ? static_cast<double>(a[i]) / ta : 0, y = i < b.size() ? static_cast<double>(b[i]) / tb : 0;
    d += std::fabs(x - y);
  }
  return d;
}

bool KernelSampler::alike(const Cluster& c, const Signature& s) const {
  const Signature& f = c.first;
  auto within = [this](double x, double y) { return x <= y * size_ratio_ && y <= x * size_ratio_; };
  return f.kernel == s.kernel && f.grid.x == s.grid.x && f.grid.y == s.grid.y && f.grid.z == s.grid.z &&
         f.block.x == s.block.x && f.block.y == s.block.y && f.block.z == s.block.z &&
         within(static_cast<double>(f.warp_instructions()), static_cast<double>(s.warp_instructions())) &&
         within(static_cast<double>(f.lines), static_cast<double>(s.lines)) &&
         within(static_cast<double>(f.touches), static_cast<double>(s.touches)) &&
         within(static_cast<double>(f.written), static_cast<double>(s.written)) && distance(f.per_pc, s.per_pc) <= distance_;
}

double KernelSampler::Cluster::rate(std::size_t window) const {
  std::uint64_t w = 0, c = 0;
  for (std::size_t i = timed.size() - std::min(window, timed.size()); i < timed.size(); ++i) w += timed[i].first, c += timed[i].second;
  return w ? static_cast<double>(c) / static_cast<double>(w) : 0;
}

double KernelSampler::Cluster::spread(std::size_t window) const {
  const double r = rate(window);
  double s = 0;
  for (std::size_t i = timed.size() - std::min(window, timed.size()); i < timed.size(); ++i)
    if (const auto [w, c] = timed[i]; w) s = std::max(s, std::fabs(static_cast<double>(c) / static_cast<double>(w) - r));
  return s;
}

KernelSampler::Decision KernelSampler::decide(const Signature& s) {
  std::size_t i = 0;
  while (i < clusters_.size() && !alike(clusters_[i], s)) ++i;
  if (i == clusters_.size()) clusters_.push_back({s, 0, 0, 0, {}});
  Cluster& c = clusters_[i];
  ++c.launches;
  const std::size_t n = c.timed.size();
  const bool settled = c.launches > warmup_ && n >= min_timed_ &&
                       (n >= max_timed_ || c.spread(min_timed_) <= tolerance_ * c.rate(min_timed_));
  if (settled && !(resample_every_ && c.charged_since + 1 >= resample_every_)) {
    ++c.charged_since;
    return {i, false};
  }
  c.charged_since = 0;
  return {i, true};
}

void KernelSampler::timed(std::size_t cluster, std::uint64_t warp_instructions, std::uint64_t cycles) {
  Cluster& c = clusters_.at(cluster);
  if (c.warmed < warmup_) {
    ++c.warmed;
    return;
  }
  c.timed.emplace_back(warp_instructions, cycles);
}

std::optional<WaveRate> KernelSampler::settled(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& marks,
                                               const CtaWork& work, std::uint64_t started) const {
  std::optional<WaveRate> r = settled_waves(marks, windows_, tolerance_);
  if (r && !work.rest_alike(started, distance_)) r.reset();
  return r;
}

KernelSampler::Estimate KernelSampler::estimate(std::size_t cluster, std::uint64_t warp_instructions) const {
  const Cluster& c = clusters_.at(cluster);
  const double w = static_cast<double>(warp_instructions);
  return {static_cast<std::uint64_t>(std::llround(c.rate(min_timed_) * w)),
          static_cast<std::uint64_t>(std::llround(c.spread(min_timed_) * w))};
}

std::optional<WaveRate> settled_waves(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& marks, std::size_t windows,
                                      double tolerance) {
  // marks[0] starts the first wave, marks[1] ends it: waves 2..n are marks[i-1]..marks[i], i >= 2.
  if (windows == 0 || marks.size() < windows + 2) return std::nullopt;
  const std::size_t from = marks.size() - windows - 1;
  const auto& [c0, w0] = marks[from];
  const auto& [c1, w1] = marks.back();
  if (w1 == w0) return std::nullopt;
  WaveRate r;
  r.rate = static_cast<double>(c1 - c0) / static_cast<double>(w1 - w0);
  for (std::size_t i = from + 1; i < marks.size(); ++i) {
    const std::uint64_t w = marks[i].second - marks[i - 1].second;
    if (w == 0) return std::nullopt;
    r.spread = std::max(r.spread, std::fabs(static_cast<double>(marks[i].first - marks[i - 1].first) / static_cast<double>(w) - r.rate));
  }
  if (r.spread > tolerance * r.rate) return std::nullopt;
  return r;
}

CtaWork::CtaWork(const std::vector<std::uint64_t>& instructions, const std::vector<std::uint64_t>& touches)
    : instructions_(1, 0), touches_(1, 0), longest_before_(1, 0), longest_from_(instructions.size() + 1, 0) {
  for (std::size_t i = 0; i < instructions.size(); ++i) {
    instructions_.push_back(instructions_.back() + instructions[i]);
    touches_.push_back(touches_.back() + touches.at(i));
    longest_before_.push_back(std::max(longest_before_.back(), instructions[i]));
  }
  for (std::size_t i = instructions.size(); i-- > 0;) longest_from_[i] = std::max(longest_from_[i + 1], instructions[i]);
}

bool CtaWork::rest_alike(std::uint64_t started, double distance) const {
  const std::uint64_t ctas = instructions_.size() - 1;
  if (started == 0 || started >= ctas) return false;
  const double i0 = static_cast<double>(instructions_[started]), i1 = static_cast<double>(instructions_[ctas] - instructions_[started]);
  const double t0 = static_cast<double>(touches_[started]), t1 = static_cast<double>(touches_[ctas] - touches_[started]);
  if (i0 == 0 || i1 == 0) return false;
  auto near = [distance](double a, double b) { return std::fabs(a / b - 1) <= distance; };
  const bool same_touches = t0 == 0 ? t1 == 0 : near(t1 / i1, t0 / i0);
  return near(i1 / static_cast<double>(ctas - started), i0 / static_cast<double>(started)) && same_touches &&
         static_cast<double>(longest_from_[started]) <= (1 + distance) * static_cast<double>(longest_before_[started]);
}

}  // namespace irr::gpu
