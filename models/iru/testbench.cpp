// SPDX-License-Identifier: Apache-2.0
#include "models/iru/testbench.h"

#include <random>

#include "models/core/exec/values.h"
#include "sim/error.h"

namespace irr::iru {

namespace {

Testbench::Stimulus from_config(sim::Simulation& sim, const std::string& name) {
  const sim::Config& c = sim.config();
  Testbench::Stimulus s;
  const std::string f = c.get_string("iru.testbench.filter");
  s.filter = f == "min" ? Filter::min : f == "add_f32" ? Filter::add_f32 : Filter::none;
  const std::uint64_t n = c.get_uint("iru.testbench.elements"), range = c.get_uint("iru.testbench.range");
  std::mt19937_64 rng = sim.rng(name);
  const auto one_bits = static_cast<std::uint32_t>(core::bits(1.0f));
  for (std::uint64_t i = 0; i < n; ++i) {
    s.indices.push_back(static_cast<std::uint32_t>(rng() % range));
    s.secondary.push_back(s.filter == Filter::add_f32 ? one_bits : static_cast<std::uint32_t>(rng() % 1000));
  }
  s.warps = static_cast<std::uint32_t>(c.get_uint("iru.testbench.warps"));
  s.think = c.get_uint("iru.testbench.think");
  return s;
}

Params params(sim::Simulation& sim) {
  return Params::from(sim.config(), static_cast<std::uint32_t>(sim.config().get_uint("iru.testbench.partitions")));
}

}  // namespace

Testbench::Testbench(const sc_core::sc_module_name& name, sim::Simulation& sim)
    : Testbench(name, sim, params(sim), from_config(sim, "iru_tb"),
                sim.config().get_uint("iru.testbench.memory_latency")) {}

Testbench::Testbench(const sc_core::sc_module_name& name, sim::Simulation& sim, const Params& p, Stimulus s,
                     sim::Cycle latency)
    : sc_core::sc_module(name), clock_(sim.clock("l2")), partitions_(p.partitions), s_(std::move(s)), latency_(latency) {
  if (s_.indices.empty()) throw Error("IRU testbench: no elements", Error::Kind::config);
  for (std::size_t i = 0; i < s_.indices.size(); ++i) {
    words_[kIndices + s_.offset + 4 * i] = s_.indices[i];
    if (!s_.secondary.empty()) words_[kSecondary + s_.offset + 4 * i] = s_.secondary.at(i);
  }
  unit_ = std::make_unique<Iru>("iru", sim, p, *this, [this](const Reply& r) { on_reply(r); });
  Setup setup;
  setup.target = kTarget;
  setup.target_size = 4;
  setup.indices = kIndices + s_.offset;
  setup.secondary = s_.secondary.empty() ? 0 : kSecondary + s_.offset;
  setup.n = s_.indices.size();
  setup.filter = s_.filter;
  unit_->configure(setup);
  if (s_.requests.empty()) ready_.assign(s_.warps, 0);
  clock_.add(*this);
  sim.watch(this->name(), *this);
  wake();
}

Testbench::~Testbench() = default;

void Testbench::read(std::uint32_t, std::uint64_t, bool, std::uint64_t tag) {
  reads_.emplace_back(clock_.now_cycle() + latency_, tag);
}

std::uint32_t Testbench::load32(std::uint64_t address) const {
  auto it = words_.find(address);
  return it == words_.end() ? 0 : it->second;
}

void Testbench::on_reply(const Reply& r) {
  replies_.push_back(r);
  reply_cycles_.push_back(clock_.now_cycle());
  ++answered_;
  if (s_.requests.empty()) ready_.push_back(clock_.now_cycle() + s_.think);
}

bool Testbench::tick(sim::Cycle c) {
  if (finished_) return false;
  if (!started_) {
    started_ = true;
    unit_->start();
  }
  while (!reads_.empty() && reads_.front().first <= c) {
    const std::uint64_t tag = reads_.front().second;
    reads_.pop_front();
    unit_->read_done(tag);
  }
  const std::uint64_t n = s_.indices.size();
  auto ask = [&](std::uint32_t lanes) {
    const std::uint32_t p = next_partition_;
    if (!unit_->can_request(p)) return false;
    next_partition_ = (next_partition_ + 1) % partitions_;
    unit_->request(p, Request{requests_++, lanes, 0, static_cast<std::uint32_t>(requests_ % 64)});
    asked_ += lanes;
    return true;
  };
  if (!s_.requests.empty()) {
    while (next_request_ < s_.requests.size() && s_.requests[next_request_].first <= c &&
           ask(s_.requests[next_request_].second))
      ++next_request_;
    if (next_request_ == s_.requests.size() && answered_ == requests_) finished_ = true;
  } else {
    while (asked_ < n && !ready_.empty() && ready_.front() <= c &&
           ask(static_cast<std::uint32_t>(std::min<std::uint64_t>(32, n - asked_))))
      ready_.pop_front();
    if (asked_ == n && answered_ == requests_) finished_ = true;
  }
  if (finished_) unit_->finish();  // the kernel ends: every element delivered or merged, or an error
  return !finished_;
}

std::vector<std::string> Testbench::outstanding() const {
  if (finished_) return {};
  return {std::to_string(asked_) + " of " + std::to_string(s_.indices.size()) + " elements asked for, " +
          std::to_string(requests_ - answered_) + " requests unanswered"};
}

}  // namespace irr::iru
