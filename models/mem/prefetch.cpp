// SPDX-License-Identifier: Apache-2.0
#include "models/mem/prefetch.h"

#include <algorithm>

#include "sim/probe.h"

namespace irr::mem {

std::unique_ptr<Prefetcher> make_prefetcher(const sim::Config& c, const std::string& level, std::uint32_t line_size) {
  const std::string kind = c.get_string(level + ".prefetcher");
  auto u = [&](const char* key) { return static_cast<std::uint32_t>(c.get_uint(std::string("prefetch.") + key)); };
  if (kind == "stride") return std::make_unique<StridePrefetcher>(u("stride_entries"), u("region_bits"), line_size);
  if (kind == "stream")
    return std::make_unique<StreamPrefetcher>(u("stream_entries"), u("stream_window"), u("degree"), u("stream_distance"),
                                              line_size);
  if (kind == "ghb") return std::make_unique<GhbPrefetcher>(u("ghb_entries"), u("czone_bits"), u("index_entries"), u("degree"), line_size);
  if (kind == "mta") return std::make_unique<MtaPrefetcher>(u("mta_entries"), u("degree"), u("mta_period"), line_size);
  return nullptr;
}

StridePrefetcher::StridePrefetcher(std::uint32_t entries, std::uint32_t region_bits, std::uint32_t line_size)
    : table_(entries), region_bits_(region_bits), line_(line_size) {}

void StridePrefetcher::train(const PrefetchTrain& t, std::vector<std::uint64_t>& out) {
  const std::uint64_t region = t.line >> region_bits_;
  Entry& e = table_[(t.pc ^ (region * 0x9e3779b97f4a7c15ull >> 40)) % table_.size()];
  if (!e.valid || e.pc != t.pc || e.region != region) {  // a new entry [Chen and Baer: initial]
    e = Entry{true, t.pc, region, t.line, 0, State::initial};
    return;
  }
  const std::int64_t stride = static_cast<std::int64_t>(t.line - e.last);
  const bool same = stride == e.stride;
  switch (e.state) {  // the RPT's state machine
    case State::initial: e.state = same ? State::steady : State::transient; break;
    case State::transient: e.state = same ? State::steady : State::none; break;
    case State::steady: e.state = same ? State::steady : State::initial; break;
    case State::none: e.state = same ? State::transient : State::none; break;
  }
  if (!same && e.state != State::steady) e.stride = stride;
  e.last = t.line;
  if (e.state == State::steady && e.stride) out.push_back(t.line + static_cast<std::uint64_t>(e.stride));
}

std::uint64_t StridePrefetcher::storage_bits() const {  // tag (PC, region), last address, stride, state
  return table_.size() * (32 + 16 + 48 + 32 + 2);
}

StreamPrefetcher::StreamPrefetcher(std::uint32_t entries, std::uint32_t window, std::uint32_t degree, std::uint32_t distance,
                                   std::uint32_t line_size)
    : entries_(entries), window_(window), degree_(degree), distance_(distance), line_(line_size) {}

void StreamPrefetcher::train(const PrefetchTrain& t, std::vector<std::uint64_t>& out) {
  const std::uint64_t n = t.line / line_;
  auto it = std::find_if(streams_.begin(), streams_.end(), [&](const Stream& s) {
    const std::int64_t d = static_cast<std::int64_t>(n - s.last);
    if (s.direction) return d * s.direction >= 0 && d * s.direction <= static_cast<std::int64_t>(distance_ + window_);
    return d != 0 && std::abs(d) <= static_cast<std::int64_t>(window_);
  });
  if (it == streams_.end()) {
    if (!t.miss) return;  // streams start at misses
    streams_.push_front(Stream{n, n, 0, 0, 0});
    if (streams_.size() > entries_) streams_.pop_back();
    return;
  }
  Stream s = *it;
  streams_.erase(it);
  const std::int64_t d = static_cast<std::int64_t>(n - s.last);
  if (!s.direction) {  // training: two steps the same way confirm it
    const int trend = d > 0 ? 1 : -1;
    s.confirmations = trend == s.trend ? s.confirmations + 1 : 1;
    s.trend = trend;
    if (s.confirmations >= 2) {
      s.direction = trend;
      s.ahead = n;
    }
    s.last = n;
  } else if (d * s.direction > 0) {
    s.last = n;
  }
  if (s.direction) {  // keep `degree` lines ahead of this access, within `distance` of it
    const std::int64_t limit = static_cast<std::int64_t>(n) + s.direction * static_cast<std::int64_t>(distance_);
    for (std::uint32_t k = 0; k < degree_; ++k) {
      const std::int64_t next = static_cast<std::int64_t>(s.ahead) + s.direction;
      if ((next - limit) * s.direction > 0 || next < 0) break;
      s.ahead = static_cast<std::uint64_t>(next);
      if ((next - static_cast<std::int64_t>(n)) * s.direction > 0) out.push_back(static_cast<std::uint64_t>(next) * line_);
    }
  }
  streams_.push_front(s);
}

std::uint64_t StreamPrefetcher::storage_bits() const {  // last and furthest lines, direction, confirmations
  return std::uint64_t{entries_} * (2 * 48 + 2 + 2);
}

GhbPrefetcher::GhbPrefetcher(std::uint32_t entries, std::uint32_t czone_bits, std::uint32_t index_entries, std::uint32_t degree,
                             std::uint32_t line_size)
    : ghb_(entries), czone_bits_(czone_bits), index_entries_(index_entries), degree_(degree), line_(line_size) {}

void GhbPrefetcher::train(const PrefetchTrain& t, std::vector<std::uint64_t>& out) {
  if (!t.miss) return;  // AC/DC keeps misses
  const std::uint64_t n = t.line / line_, zone = n >> czone_bits_;
  auto it = std::find_if(index_.begin(), index_.end(), [&](const Index& x) { return x.zone == zone; });
  Index ix{zone, 0};
  if (it != index_.end()) {
    ix = *it;
    index_.erase(it);
  }
  const std::uint64_t seq = next_++;
  ghb_[seq % ghb_.size()] = Entry{n, live(ix.head) ? ix.head : 0};
  ix.head = seq;
  index_.push_front(ix);
  if (index_.size() > index_entries_) index_.pop_back();
  // The zone's history, newest first, as long as the buffer still holds it.
  std::vector<std::uint64_t> h;
  for (std::uint64_t s = seq; live(s) && h.size() < 64; s = ghb_[s % ghb_.size()].prev) h.push_back(ghb_[s % ghb_.size()].line);
  if (h.size() < 4) return;
  std::vector<std::int64_t> d;  // deltas, newest first
  for (std::size_t i = 0; i + 1 < h.size(); ++i) d.push_back(static_cast<std::int64_t>(h[i] - h[i + 1]));
  for (std::size_t i = 2; i + 1 < d.size(); ++i) {  // the pair (d0, d1) earlier: prefetch what followed it
    if (d[i] != d[0] || d[i + 1] != d[1]) continue;
    std::uint64_t line = n;
    for (std::size_t k = 0; k < degree_ && i >= k + 1; ++k) {
      line += static_cast<std::uint64_t>(d[i - 1 - k]);
      out.push_back(line * line_);
    }
    return;
  }
}

std::uint64_t GhbPrefetcher::storage_bits() const {  // GHB: line and link; index: zone tag and head
  const std::uint64_t link = sim::bits_for(ghb_.size() - 1);
  return ghb_.size() * (48 + link) + std::uint64_t{index_entries_} * (48 - czone_bits_ + link);
}

MtaPrefetcher::MtaPrefetcher(std::uint32_t entries, std::uint32_t degree, std::uint32_t period, std::uint32_t line_size)
    : intra_(entries), inter_(entries), max_degree_(degree), period_(period), line_(line_size), degree_(degree) {}

// A stride seen again raises the confidence; another resets it to the new stride.
void MtaPrefetcher::learn(Stride& e, std::uint64_t key, std::uint64_t line, std::uint32_t warp, std::int64_t distance) {
  if (!e.valid || e.key != key) {
    e = Stride{key, line, warp, 0, 0, true};
    return;
  }
  if (!distance) return;  // the same warp again (inter) or the same line (intra): nothing learnt
  const std::int64_t delta = static_cast<std::int64_t>(line - e.last);
  if (delta % distance == 0 && delta / distance == e.stride && e.stride) {
    ++e.confidence;
  } else {
    e.confidence = 0;
    e.stride = delta % distance == 0 ? delta / distance : 0;
  }
  e.last = line;
  e.warp = warp;
}

void MtaPrefetcher::train(const PrefetchTrain& t, std::vector<std::uint64_t>& out) {
  const std::uint64_t n = t.line / line_;
  // Intra-warp: the warp's own stride at this PC (its next iteration's line).
  const std::uint64_t ik = t.pc * 0x9e3779b97f4a7c15ull ^ t.warp;
  Stride& a = intra_[ik % intra_.size()];
  learn(a, ik, n, t.warp, a.valid && a.key == ik && a.last != n ? 1 : 0);
  // Inter-thread: the stride between warps at this PC, for the next warps.
  Stride& b = inter_[t.pc % inter_.size()];
  const std::int64_t warps = b.valid && b.key == t.pc ? static_cast<std::int64_t>(t.warp) - b.warp : 0;
  learn(b, t.pc, n, t.warp, warps);
  if (!degree_) {
    if (++idle_ >= period_) {  // throttled off for a period, then tried again
      degree_ = 1;
      idle_ = 0;
    }
    return;
  }
  auto add = [&](std::int64_t line) {
    if (line >= 0 && std::find(out.begin(), out.end(), static_cast<std::uint64_t>(line) * line_) == out.end() &&
        static_cast<std::uint64_t>(line) != n)
      out.push_back(static_cast<std::uint64_t>(line) * line_);
  };
  if (a.confidence >= 2) add(static_cast<std::int64_t>(n) + a.stride);
  if (b.confidence >= 2)
    for (std::uint32_t k = 1; k <= degree_; ++k) add(static_cast<std::int64_t>(n) + b.stride * k);
}

void MtaPrefetcher::outcome(bool useful) {
  ++(useful ? useful_ : unused_);
  if (useful_ + unused_ < period_) return;
  if (2 * unused_ > period_) degree_ /= 2;
  else if (4 * unused_ < period_) degree_ = std::min(max_degree_, std::max(1u, 2 * degree_));
  useful_ = unused_ = 0;
}

std::uint64_t MtaPrefetcher::storage_bits() const {  // both tables: tag, last line, warp, stride, confidence
  return (intra_.size() + inter_.size()) * (32 + 48 + 6 + 16 + 2);
}

}  // namespace irr::mem
