// SPDX-License-Identifier: Apache-2.0
#include "models/iru/hash_bank.h"

#include <stdexcept>

#include "models/core/exec/values.h"

namespace irr::iru {

std::uint32_t merge(Filter f, Element& x, const Element& e) {
  if (f == Filter::add_f32) {
    x.secondary = static_cast<std::uint32_t>(core::bits(core::f32(x.secondary) + core::f32(e.secondary)));
    return e.position;
  }
  if (e.secondary < x.secondary) {  // min: the smaller value stays, with its own position
    const std::uint32_t gone = x.position;
    x = e;
    return gone;
  }
  return e.position;
}

HashBank::HashBank(std::uint32_t sets, std::uint32_t capacity, Filter filter)
    : entries_(sets), capacity_(capacity), filter_(filter) {
  if (sets == 0 || capacity == 0) throw std::invalid_argument("HashBank: no sets or no capacity");
  for (auto& e : entries_) e.reserve(capacity);
}

namespace {

// The element of `entry` that `e` merges into under `f`: the oldest with its index.
template <typename Entry>
auto duplicate(Entry& entry, Filter f, const Element& e) -> decltype(&entry[0]) {
  if (f != Filter::none)
    for (auto& x : entry)
      if (x.index == e.index) return &x;
  return nullptr;
}

}  // namespace

HashBank::Insert HashBank::check(std::uint32_t set, const Element& e, std::uint32_t& dropped) const {
  const std::vector<Element>& entry = entries_.at(set);
  if (const Element* x = duplicate(entry, filter_, e)) {
    Element copy = *x;
    dropped = merge(filter_, copy, e);
    return Insert::merged;
  }
  return entry.size() >= capacity_ ? Insert::full : Insert::inserted;
}

HashBank::Insert HashBank::insert(std::uint32_t set, const Element& e, std::uint32_t& dropped) {
  std::vector<Element>& entry = entries_.at(set);
  if (Element* x = duplicate(entry, filter_, e)) {
    dropped = merge(filter_, *x, e);
    return Insert::merged;
  }
  if (entry.size() >= capacity_) return Insert::full;
  entry.push_back(e);
  return Insert::inserted;
}

void HashBank::take(std::uint32_t set, std::uint32_t k, std::vector<Element>& out) {
  std::vector<Element>& entry = entries_.at(set);
  if (k > entry.size()) throw std::logic_error("HashBank::take: more than the entry holds");
  out.insert(out.end(), entry.begin(), entry.begin() + k);
  entry.erase(entry.begin(), entry.begin() + k);
}

}  // namespace irr::iru
