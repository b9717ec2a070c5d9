// SPDX-License-Identifier: Apache-2.0
#include "models/hwwl/icrn.h"

#include <stdexcept>

namespace irr::hwwl {

Icrn::Icrn(std::uint32_t cores, std::uint32_t hub_buffer)
    : cores_(cores), hub_buffer_(hub_buffer), sent_at_(cores, ~0ull), hub_(cores), delivered_(cores) {
  if (hub_buffer == 0) throw std::invalid_argument("ICRN: the hub needs at least one buffer entry per destination");
}

bool Icrn::can_send(std::uint32_t from, std::uint32_t to, sim::Cycle c) const {
  return from != to && sent_at_.at(from) != c && hub_.at(to).size() < hub_buffer_;
}

void Icrn::send(std::uint32_t from, std::uint32_t to, std::uint32_t id, sim::Cycle c) {
  if (!can_send(from, to, c)) throw std::logic_error("ICRN: send without can_send");
  sent_at_[from] = c;
  hub_[to].push_back({c + 1, id});  // hop 1: at the hub next cycle
}

void Icrn::step(sim::Cycle c) {
  for (std::uint32_t d = 0; d < cores_; ++d) {
    auto& q = hub_[d];
    if (q.empty() || q.front().at > c) continue;
    // One ID per destination per cycle; the rest wait in the hub.
    delivered_[d].push_back({c + 1, q.front().id});  // hop 2: at the destination next cycle
    q.pop_front();
    contention_ += !q.empty() && q.front().at <= c;
  }
}

std::optional<std::uint32_t> Icrn::peek(std::uint32_t core, sim::Cycle c) const {
  const auto& q = delivered_.at(core);
  if (q.empty() || q.front().at > c) return std::nullopt;
  return q.front().id;
}

void Icrn::take(std::uint32_t core) { delivered_.at(core).pop_front(); }

std::uint64_t Icrn::in_flight() const {
  std::uint64_t n = 0;
  for (const auto& q : hub_) n += q.size();
  for (const auto& q : delivered_) n += q.size();
  return n;
}

void Icrn::for_each(const std::function<void(std::uint32_t)>& f) const {
  for (const auto& q : hub_)
    for (const Hop& h : q) f(h.id);
  for (const auto& q : delivered_)
    for (const Hop& h : q) f(h.id);
}

}  // namespace irr::hwwl
