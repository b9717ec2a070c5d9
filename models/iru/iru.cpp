// SPDX-License-Identifier: Apache-2.0
#include "models/iru/iru.h"

#include <algorithm>
#include <stdexcept>

#include "models/iru/host_api.h"
#include "models/power/energy.h"
#include "sim/error.h"

namespace irr::iru {

namespace {

bool power_of_two(std::uint64_t v) { return v && !(v & (v - 1)); }

std::uint32_t log2(std::uint64_t v) {
  std::uint32_t b = 0;
  while ((1ull << b) < v) ++b;
  return b;
}

}  // namespace

Params Params::from(const sim::Config& c, std::uint32_t partitions) {
  Params p;
  p.partitions = partitions;
  const auto u = [&](const char* k) { return static_cast<std::uint32_t>(c.get_uint(k)); };
  p.sets = u("iru.sets");
  p.banks = u("iru.banks");
  p.entry = u("iru.entry_elements");
  p.xor_hash = c.get_string("iru.hash") == "xor";
  p.prefetches = u("iru.prefetches");
  p.prefetch_buffer = u("iru.prefetch_buffer");
  p.bypass_l2 = c.get_bool("iru.bypass_l2");
  p.classifier_queues = u("iru.classifier_queues");
  p.classifier_buffer = u("iru.classifier_buffer");
  p.process_width = u("iru.process_width");
  p.bidirectional = c.get_string("iru.ring") == "bidirectional";
  p.ring_buffer = u("iru.ring_buffer");
  p.ring_width = u("iru.ring_width");
  p.request_buffer = u("iru.request_buffer");
  p.timeout = c.get_uint("iru.timeout");
  p.watchdog = c.get_uint("iru.watchdog");
  p.line = static_cast<std::uint32_t>(c.get_size("l2.line_size"));
  p.rtl_banks = c.get_string("iru.bank.impl") == "rtl";
  if (!power_of_two(p.sets) || p.sets < std::uint64_t{partitions} * p.banks)
    throw Error("iru.sets (" + std::to_string(p.sets) + ") must be a power of two, at least " + std::to_string(partitions) +
                    " partitions x iru.banks (" + std::to_string(p.banks) + ")",
                Error::Kind::config);
  if (p.prefetch_buffer < p.line / 4)
    throw Error("iru.prefetch_buffer (" + std::to_string(p.prefetch_buffer) + " elements) must hold one line of indices (" +
                    std::to_string(p.line / 4) + ")",
                Error::Kind::config);
  return p;
}

Iru::Iru(const sc_core::sc_module_name& name, sim::Simulation& sim, const Params& p, Memory& memory,
         std::function<void(const Reply&)> reply)
    : sc_core::sc_module(name),
      sim_(sim),
      clock_(sim.clock("l2")),
      p_(p),
      memory_(memory),
      reply_(std::move(reply)),
      sets_per_bank_(((p.sets + p.partitions - 1) / p.partitions + p.banks - 1) / p.banks),
      set_bits_(log2(p.sets)),
      parts_(p.partitions),
      request_link_free_(p.partitions, 0),
      requests_(sim.counter(*this, "requests", "warp requests (ldiru) received", "requests")),
      replies_(sim.counter(*this, "replies", "warp requests answered", "replies")),
      elements_(sim.counter(*this, "elements", "elements prefetched from the indices array", "elements")),
      delivered_stat_(sim.counter(*this, "delivered", "elements delivered to threads", "elements")),
      merged_stat_(sim.counter(*this, "merged", "elements filtered or merged into another one [S L179]", "elements")),
      disabled_stat_(sim.counter(*this, "disabled_threads", "threads answered without an element (load_iru false)", "threads")),
      timeouts_(sim.counter(*this, "timeouts", "oldest requests that reached the timeout [S L155]", "requests")),
      handed_on_(sim.counter(*this, "handed_on", "requests handed on to the next partition for want of elements", "requests")),
      final_replies_(sim.counter(*this, "final_merge_replies", "replies gathered from partial entries after all input arrived [S L155]", "replies")),
      reads_(sim.counter(*this, "prefetch_reads", "line reads of the indices and secondary arrays", "reads")),
      ring_hops_(sim.counter(*this, "ring_hops", "elements moved one hop on the ring", "elements")),
      full_stalls_(sim.counter(*this, "entry_full_stalls", "cycles an insertion waited for a full entry", "cycles")),
      lines_per_reply_(sim.distribution(*this, "lines_per_reply", "target lines the elements of one reply touch", "lines",
                                        1, 1, 32)),
      prefetch_latency_(sim.distribution(*this, "prefetch_latency", "L2 cycles from a prefetch read's issue to its data",
                                         "cycles", 0, 25, 40)) {
  for (std::uint32_t i = 0; i < p.partitions; ++i) {
    for (std::uint32_t b = 0; b < p.banks; ++b) {
      parts_[i].banks.emplace_back(sets_per_bank_, p.entry, Filter::none);
      if (!p.rtl_banks) continue;
      try {
        rtl_.push_back(make_bank_block("rtl", BankParams{sets_per_bank_, p.entry}, sim.seed() + rtl_.size()));
      } catch (const Error& e) {
        throw Error(std::string("iru.bank.impl: rtl: ") + e.what(), Error::Kind::config);
      }
    }
    const std::string n = "p" + std::to_string(i) + ".";
    probes_.push_back({&sim.probe(*this, n + "requests", 16, "warp requests in the partition's FIFO"),
                       &sim.probe(*this, n + "ring", 16, "elements in the partition's ring buffers"),
                       &sim.probe(*this, n + "prefetches", 8, "prefetch reads in flight"),
                       &sim.probe(*this, n + "fullest_entry", 6, "elements in the partition's fullest hash entry"),
                       &sim.probe(*this, n + "timeout", 1, "the oldest request timed out this cycle")});
  }
  // The energy model's SRAM model for the hash banks (sets of p.entry 64-bit elements, an index and
  // its datum; an element written on insertion, read on delivery) and the ring buffers (an element
  // written and read at each hop). The paper gives CACTI's area, not energy [S L209].
  // Its buffers, each a partition's, at the paper's sizes [S L209]: the replier's FIFO of 16-byte
  // warp requests (written on arrival, read on the reply), the prefetch buffer's elements (written
  // as a line's indices arrive, read by the classifier) and the classifier's 10-byte elements
  // (written and read once each).
  const double element = 64, parts = p.partitions;
  power::declare_array(sim, this->name(), {"hash", static_cast<double>(sets_per_bank_), element * p.entry, 0, element, parts * p.banks},
                       {{&elements_, 1}, {&delivered_stat_, 1}});
  power::declare_array(sim, this->name(), {"ring", static_cast<double>(p.ring_buffer), element, 0, 0, parts}, {{&ring_hops_, 2}});
  power::declare_array(sim, this->name(), {"request_buffer", static_cast<double>(p.request_buffer), 128, 0, 0, parts},
                       {{&requests_, 1}, {&replies_, 1}});
  power::declare_array(sim, this->name(), {"prefetch_buffer", static_cast<double>(p.prefetch_buffer), element, 0, 0, parts},
                       {{&elements_, 2}});
  power::declare_array(sim, this->name(), {"classifier_buffer", static_cast<double>(p.classifier_buffer), 80, 0, 0, parts},
                       {{&elements_, 2}});
  clock_.add(*this);
  sim.watch(this->name(), *this);
}

std::uint32_t Iru::line_of(std::uint32_t index) const {
  return static_cast<std::uint32_t>((setup_.target + std::uint64_t{index} * setup_.target_size) / p_.line);
}

std::uint32_t Iru::set_of(std::uint32_t index) const {
  std::uint64_t l = line_of(index);
  if (p_.xor_hash) l ^= l >> set_bits_ ^ l >> (2 * set_bits_);
  return static_cast<std::uint32_t>(l & (p_.sets - 1));
}

void Iru::configure(const Setup& s) {
  if (running_) throw Error("configure_iru while a kernel uses the IRU", Error::Kind::usage);
  const auto bad = [](const std::string& why) { throw Error("configure_iru: " + why, Error::Kind::usage); };
  if (!s.target) bad("target_array is null");
  if (!s.indices) bad("indices_array is null");
  if (s.n == 0) bad("number_elements is 0");
  if (s.n > kIndexLimit) bad(std::to_string(s.n) + " elements: positions are 24-bit (at most 16,777,216)");
  if (!power_of_two(s.target_size) || s.target_size > 16) bad("target element size " + std::to_string(s.target_size) + " is not 1, 2, 4, 8 or 16 bytes");
  if (s.indices % 4 || s.secondary % 4) bad("the indices and secondary arrays must be 4-byte aligned");
  setup_ = s;
  for (auto& part : parts_) {
    part = Partition{};
    part.banks.clear();
    for (std::uint32_t b = 0; b < p_.banks; ++b) part.banks.emplace_back(sets_per_bank_, p_.entry, s.filter);
  }
  const std::uint64_t first = s.indices / p_.line * p_.line, last = (s.indices + 4 * s.n - 1) / p_.line * p_.line;
  for (std::uint64_t l = first; l <= last; l += p_.line) parts_.at(memory_.home(l)).lines.push_back(l);
  BankIn reset;
  reset.rst = true;
  for (auto& r : rtl_) r->step(reset);
  fate_.assign(s.n, 0);
  fetches_.clear();
  read_fetch_.clear();
  arrived_ = merged_ = delivered_ = disabled_ = 0;
  configured_ = true;
}

void Iru::start() {
  if (!configured_) return;  // a kernel without configure_iru: the IRU stays off [S L116]
  running_ = true;
  wake();
}

void Iru::finish() {
  if (!running_) return;
  running_ = false;
  configured_ = false;
  if (delivered_ + merged_ == setup_.n) return;
  std::string where;
  for (std::uint32_t i = 0; i < parts_.size(); ++i) {
    const Partition& part = parts_[i];
    const std::uint64_t upstream = part.prefetched.size() + part.classified.size() + part.ring_in.size() +
                                   part.ring_out[0].size() + part.ring_out[1].size() + part.reserved;
    if (part.held || upstream || part.next_line < part.lines.size())
      where += "; partition " + std::to_string(i) + ": " + std::to_string(part.held) + " in its hash, " +
               std::to_string(upstream) + " on the way, " + std::to_string(part.lines.size() - part.next_line) +
               " lines not yet read";
  }
  throw Error("IRU: the kernel ended with " + std::to_string(setup_.n - delivered_ - merged_) + " of configure_iru's " +
              std::to_string(setup_.n) + " elements never delivered (" + std::to_string(delivered_) + " delivered, " +
              std::to_string(merged_) + " merged)" + where +
              ": the kernel's load_iru calls asked for fewer elements than number_elements");
}

bool Iru::can_request(std::uint32_t partition) const { return parts_.at(partition).own_requests < p_.request_buffer; }

void Iru::request(std::uint32_t partition, const Request& r) {
  if (!running_)
    throw Error("IRU: ldiru from SM " + std::to_string(r.sm) + " warp slot " + std::to_string(r.warp) +
                    " in a kernel launched without configure_iru before it",
                Error::Kind::usage);
  if (!can_request(partition)) throw std::logic_error("Iru::request into a full FIFO");
  const sim::Cycle c = clock_.now_cycle();
  ++parts_[partition].own_requests;
  ++requests_;
  enqueue(partition, Waiting{r, c, c + p_.timeout, c, 0, {}, true, false});
  wake();
}

void Iru::enqueue(std::uint32_t p, Waiting w) {
  auto& fifo = parts_[p].fifo;  // oldest first: a handed-on request keeps its age
  auto at = std::upper_bound(fifo.begin(), fifo.end(), w.since, [](sim::Cycle s, const Waiting& x) { return s < x.since; });
  fifo.insert(at, std::move(w));
}

void Iru::read_done(std::uint64_t tag) {
  auto rf = read_fetch_.find(tag);
  if (rf == read_fetch_.end()) throw std::logic_error("Iru::read_done: unknown read");
  const std::uint64_t ft = rf->second.fetch;
  prefetch_latency_.sample(static_cast<double>(clock_.now_cycle() - rf->second.issued));
  read_fetch_.erase(rf);
  Fetch& f = fetches_.at(ft);
  Partition& part = parts_.at(ft % parts_.size());
  --part.in_flight;
  if (--f.reads_left) return;
  for (std::uint64_t pos = f.first; pos < f.first + f.count; ++pos) {
    Element e;
    e.index = memory_.load32(setup_.indices + 4 * pos);
    e.secondary = setup_.secondary ? memory_.load32(setup_.secondary + 4 * pos) : 0;
    e.position = static_cast<std::uint32_t>(pos);
    if (e.index >= kIndexLimit)
      throw Error("IRU: indices_array[" + std::to_string(pos) + "] = " + std::to_string(e.index) +
                  " does not fit the IRU's 24-bit index");
    part.prefetched.push_back(e);
  }
  part.reserved -= static_cast<std::uint32_t>(f.count);
  elements_ += f.count;
  fetches_.erase(ft);
  sim_.note_progress();
  wake();
}

void Iru::prefetch(std::uint32_t p, sim::Cycle) {
  Partition& part = parts_[p];
  if (part.to_issue.empty() && part.next_line < part.lines.size()) {
    const std::uint64_t l = part.lines[part.next_line];
    const std::uint64_t first = l <= setup_.indices ? 0 : (l - setup_.indices) / 4;
    const std::uint64_t end = std::min<std::uint64_t>(setup_.n, (l + p_.line - setup_.indices) / 4);
    const std::uint64_t count = end - first;
    if (part.reserved + part.prefetched.size() + count <= p_.prefetch_buffer) {
      // The fetch's tag encodes its partition (tag % partitions).
      const std::uint64_t ft = next_tag_++ * parts_.size() + p;
      Fetch f{first, count, 1};
      part.to_issue.push_back(l);
      if (setup_.secondary) {
        const std::uint64_t a = setup_.secondary + 4 * first, b = setup_.secondary + 4 * end - 1;
        for (std::uint64_t s = a / p_.line * p_.line; s <= b; s += p_.line, ++f.reads_left) part.to_issue.push_back(s);
      }
      fetches_[ft] = f;
      part.fetch_tag = ft;
      part.reserved += static_cast<std::uint32_t>(count);
      ++part.next_line;
    }
  }
  if (!part.to_issue.empty() && part.in_flight < p_.prefetches) {
    const std::uint64_t l = part.to_issue.front();
    part.to_issue.pop_front();
    const std::uint64_t tag = next_tag_++ * parts_.size() + p;
    read_fetch_[tag] = {part.fetch_tag, clock_.now_cycle()};
    ++part.in_flight;
    ++reads_;
    memory_.read(memory_.home(l), l, p_.bypass_l2, tag);
  }
}

void Iru::classify(std::uint32_t p) {
  Partition& part = parts_[p];
  for (std::uint32_t q = 0; q < p_.classifier_queues && !part.prefetched.empty() &&
                            part.classified.size() < p_.classifier_buffer;
       ++q) {
    part.classified.push_back(part.prefetched.front());
    part.prefetched.pop_front();
  }
}

bool Iru::insert(std::uint32_t p, const Element& e) {
  Partition& part = parts_[p];
  const std::uint32_t local = this->local(set_of(e.index));
  HashBank& bank = part.banks[local % p_.banks];
  const std::uint32_t row = local / p_.banks, before = bank.count(row);
  BankOut rtl;
  if (!rtl_.empty()) {
    BankIn in;
    in.filter = setup_.filter;
    in.op = BankOp::insert;
    in.set = row;
    in.element = e;
    rtl = step_rtl(p, local % p_.banks, in);
  }
  std::uint32_t dropped = 0;
  const HashBank::Insert result = bank.insert(row, e, dropped);
  if (!rtl_.empty()) {
    const BankOut& o = rtl;
    const auto want = result == HashBank::Insert::inserted ? BankResult::inserted
                      : result == HashBank::Insert::merged ? BankResult::merged
                                                           : BankResult::full;
    if (o.result != want || (want == BankResult::merged && o.dropped != dropped))
      throw Error("IRU RTL bank (partition " + std::to_string(p) + ", set " + std::to_string(local) +
                  ") answered an insertion unlike the model (iru.bank.impl: rtl)");
  }
  switch (result) {
    case HashBank::Insert::full: return false;
    case HashBank::Insert::merged:
      if (fate_.at(dropped) != 0) throw std::logic_error("IRU: an element merged twice");
      fate_[dropped] = 2;
      ++merged_;
      ++merged_stat_;
      break;
    case HashBank::Insert::inserted:
      if (before) part.fill.erase({before, local});
      part.fill.insert({before + 1, local});
      ++part.held;
      break;
  }
  ++arrived_;
  return true;
}

void Iru::take(std::uint32_t p, std::uint32_t local, std::uint32_t k, std::vector<Element>& out) {
  Partition& part = parts_[p];
  HashBank& bank = part.banks[local % p_.banks];
  const std::uint32_t row = local / p_.banks, before = bank.count(row);
  if (!rtl_.empty()) {  // the RTL's elements are the ones delivered
    BankIn in;
    in.filter = setup_.filter;
    in.op = BankOp::take;
    in.set = row;
    in.k = k;
    const BankOut o = step_rtl(p, local % p_.banks, in);
    std::vector<Element> model;
    bank.take(row, k, model);
    if (o.result != BankResult::inserted || o.entry.size() < k || !std::equal(model.begin(), model.end(), o.entry.begin()))
      throw Error("IRU RTL bank (partition " + std::to_string(p) + ", set " + std::to_string(local) +
                  ") gave other elements than the model (iru.bank.impl: rtl)");
    out.insert(out.end(), o.entry.begin(), o.entry.begin() + k);
  } else {
    bank.take(row, k, out);
  }
  part.fill.erase({before, local});
  if (before > k) part.fill.insert({before - k, local});
  part.held -= k;
}

BankOut Iru::step_rtl(std::uint32_t p, std::uint32_t b, const BankIn& in) {
  HashBankBlock& rtl = *rtl_.at(p * p_.banks + b);
  const BankOut o = rtl.eval(in);
  if (o.entry != parts_[p].banks[b].entry(in.set))
    throw Error("IRU RTL bank (partition " + std::to_string(p) + ", bank " + std::to_string(b) + ", row " +
                std::to_string(in.set) + ") holds other elements than the model (iru.bank.impl: rtl)");
  rtl.edge();
  return o;
}

std::uint32_t Iru::next(std::uint32_t p, std::uint32_t dir) const {
  const auto n = static_cast<std::uint32_t>(parts_.size());
  return dir == 0 ? (p + 1) % n : (p + n - 1) % n;
}

std::uint32_t Iru::direction(std::uint32_t from, std::uint32_t to) const {
  if (!p_.bidirectional) return 0;
  const auto n = static_cast<std::uint32_t>(parts_.size());
  const std::uint32_t ahead = (to + n - from) % n;
  return ahead <= n - ahead ? 0 : 1;
}

void Iru::process(std::uint32_t p, sim::Cycle) {
  Partition& part = parts_[p];
  const std::size_t out_cap = p_.ring_buffer / 2 / (p_.bidirectional ? 2 : 1);
  std::uint64_t used = 0;  // banks that took an insertion this cycle (iru.banks <= 64)
  std::uint32_t done = 0;
  // Ring arrivals first [S L145], then the classifier's queues: process_width elements a cycle,
  // each forwarded onto the ring or inserted, one insertion per bank.
  for (std::deque<Element>* src : {&part.ring_in, &part.classified}) {
    while (!src->empty() && done < p_.process_width) {
      const Element e = src->front();
      const std::uint32_t set = set_of(e.index), o = owner(set);
      if (o != p) {
        auto& out = part.ring_out[direction(p, o)];
        if (out.size() + 2 > out_cap) break;  // injection leaves a slot for traffic passing through
        out.push_back(Hop{e, o});
      } else {
        const std::uint32_t b = local(set) % p_.banks;
        if (used >> b & 1) break;
        if (!insert(p, e)) {
          ++full_stalls_;
          break;
        }
        used |= std::uint64_t{1} << b;
      }
      src->pop_front();
      ++done;
    }
  }
  if (done) sim_.note_progress();
}

std::uint64_t Iru::held() const {
  std::uint64_t h = 0;
  for (const auto& part : parts_) h += part.held;
  return h;
}

void Iru::send(std::uint32_t p, Waiting& w) {
  Reply r{w.r.id, p, std::move(w.got)};
  std::vector<std::uint32_t>& lines = scratch_lines_;
  lines.clear();
  for (const Element& e : r.elements) {
    if (fate_.at(e.position) != 0) throw std::logic_error("IRU: an element delivered twice");
    if (e.index != memory_.load32(setup_.indices + 4 * std::uint64_t{e.position}))
      throw std::logic_error("IRU: an element's index separated from its position");
    fate_[e.position] = 1;
    lines.push_back(line_of(e.index));
  }
  delivered_ += r.elements.size();
  delivered_stat_ += r.elements.size();
  disabled_ += w.r.lanes - r.elements.size();
  disabled_stat_ += w.r.lanes - r.elements.size();
  ++replies_;
  std::sort(lines.begin(), lines.end());
  if (!lines.empty())
    lines_per_reply_.sample(static_cast<double>(std::unique(lines.begin(), lines.end()) - lines.begin()));
  sim_.note_progress();
  reply_(r);
}

void Iru::hand_on(std::uint32_t p, std::uint32_t to) {
  Partition& part = parts_[p];
  Waiting w = std::move(part.fifo.front());
  part.fifo.pop_front();
  if (w.own) --part.own_requests;
  w.own = false;
  ++handed_on_;
  ++parts_[to].incoming;
  const auto n = static_cast<std::uint32_t>(parts_.size());
  part.requests_out.push_back(Handed{std::move(w), to, (to + n - p) % n ? (to + n - p) % n : n});
}

// Balancing [S L155]: a partition with a full entry and no request takes the oldest request that
// its own partition cannot answer now (the partitions' idle and full states go round the request
// ring with the requests).
void Iru::steal(sim::Cycle c) {
  for (std::uint32_t q = 0; q < parts_.size(); ++q) {
    const Partition& idle = parts_[q];
    if (!idle.fifo.empty() || idle.incoming || idle.fill.empty() || idle.fill.rbegin()->first < p_.entry) continue;
    std::uint32_t from = q;
    for (std::uint32_t p = 0; p < parts_.size(); ++p) {
      const Partition& part = parts_[p];
      if (p == q || part.fifo.empty() || part.fifo.front().arrived > c) continue;
      const Waiting& w = part.fifo.front();
      const std::uint32_t need = w.r.lanes - static_cast<std::uint32_t>(w.got.size());
      if (!part.fill.empty() && part.fill.rbegin()->first >= need) continue;  // answered at home
      if (from == q || w.since < parts_[from].fifo.front().since) from = p;
    }
    if (from != q) hand_on(from, q);
  }
}

void Iru::reply(std::uint32_t p, sim::Cycle c) {
  Partition& part = parts_[p];
  if (part.fifo.empty() || part.fifo.front().arrived > c) return;
  Waiting& w = part.fifo.front();
  std::uint32_t need = w.r.lanes - static_cast<std::uint32_t>(w.got.size());
  // An entry with enough elements answers at once (a full one always does) [S L118, L153].
  if (need && !part.fill.empty() && part.fill.rbegin()->first >= need) {
    take(p, part.fill.rbegin()->second, need, w.got);
    need = 0;
  }
  bool final_merge = false;
  if (need && (c >= w.deadline || input_done())) {
    // Timed out (or nothing more will arrive): the request gathers from the fullest entries,
    // fewer lines for less wait, and is answered once it has enough [S L155].
    if (!w.timed_out && c >= w.deadline) {
      w.timed_out = true;
      w.progress = c;
      ++timeouts_;
      probes_[p].timeout->set(1);
    }
    final_merge = input_done();
    while (need && !part.fill.empty()) {
      const auto [count, local] = *part.fill.rbegin();
      const std::uint32_t k = std::min(count, need);
      take(p, local, k, w.got);
      need -= k;
      w.progress = c;
    }
    // Threads go without an element only as far as filtering freed them, so that every element
    // still finds a thread: a whole warp of them while input still arrives, the rest at the end.
    const std::uint64_t spare = merged_ > disabled_ ? merged_ - disabled_ : 0;
    if (need && input_done()) {  // the final merge; elements left elsewhere are fetched by handing on
      if (need > spare && held() > 0) return hand_on(p, next(p, 0));
    } else if (need && !(w.got.empty() && need <= spare)) {
      // No element for a timeout: the partition may be starved while the others hold them.
      if (c - w.progress >= p_.timeout) hand_on(p, next(p, 0));
      return;
    }
  } else if (need) {
    return;
  }
  if (final_merge) ++final_replies_;
  Waiting done = std::move(w);
  part.fifo.pop_front();
  if (done.own) --part.own_requests;
  send(p, done);
}

void Iru::move_ring(sim::Cycle c) {
  const std::size_t in_cap = p_.ring_buffer / 2, out_cap = p_.ring_buffer / 2 / (p_.bidirectional ? 2 : 1);
  const std::uint32_t dirs = p_.bidirectional ? 2 : 1;
  // Up to ring_width elements per link per cycle, each one hop: every link's moves are decided
  // against the buffers as they were at the start of the round, then made.
  for (std::uint32_t round = 0; round < p_.ring_width; ++round) {
    auto& moves = scratch_moves_;  // (from, direction)
    auto& into_in = scratch_into_in_;
    auto& into_out = scratch_into_out_;
    moves.clear();
    into_in.assign(parts_.size(), 0);
    into_out.assign(parts_.size() * 2, 0);
    for (std::uint32_t p = 0; p < parts_.size(); ++p)
      for (std::uint32_t dir = 0; dir < dirs; ++dir) {
        const auto& out = parts_[p].ring_out[dir];
        if (out.empty() || out.front().moved == c) continue;
        const std::uint32_t q = next(p, dir);
        if (out.front().to == q) {
          if (parts_[q].ring_in.size() + into_in[q] >= in_cap) continue;
          ++into_in[q];
        } else {
          if (parts_[q].ring_out[dir].size() + into_out[2 * q + dir] >= out_cap) continue;
          ++into_out[2 * q + dir];
        }
        moves.emplace_back(p, dir);
      }
    if (moves.empty()) break;
    auto& hops = scratch_hops_;
    hops.clear();
    for (const auto& [p, dir] : moves) {
      hops.push_back(parts_[p].ring_out[dir].front());
      parts_[p].ring_out[dir].pop_front();
    }
    for (std::size_t i = 0; i < moves.size(); ++i) {
      const std::uint32_t q = next(moves[i].first, moves[i].second);
      hops[i].moved = c;
      if (hops[i].to == q) parts_[q].ring_in.push_back(hops[i].e);
      else parts_[q].ring_out[moves[i].second].push_back(hops[i]);
      ++ring_hops_;
    }
  }
  // Handed-on requests: one per cycle per link, the elements gathered so far riding with them
  // (ring_width per cycle); they arrive timed out, to gather at once.
  for (std::uint32_t p = 0; p < parts_.size(); ++p) {
    auto& out = parts_[p].requests_out;
    if (out.empty() || request_link_free_[p] > c) continue;
    Handed h = std::move(out.front());
    out.pop_front();
    const sim::Cycle busy = 1 + (h.w.got.size() + p_.ring_width - 1) / p_.ring_width;
    request_link_free_[p] = c + busy;
    ring_hops_ += h.w.got.size() * h.hops;
    h.w.arrived = h.w.deadline = h.w.progress = c + busy * h.hops;
    --parts_[h.to].incoming;
    enqueue(h.to, std::move(h.w));
  }
}

bool Iru::tick(sim::Cycle c) {
  if (!running_) return false;
  steal(c);
  for (std::uint32_t p = 0; p < parts_.size(); ++p) {
    probes_[p].timeout->set(0);
    reply(p, c);
    process(p, c);
    classify(p);
    prefetch(p, c);
  }
  move_ring(c);
  for (std::uint32_t p = 0; p < parts_.size(); ++p) {
    const Partition& part = parts_[p];
    if (!part.fifo.empty() && c - part.fifo.front().since > p_.watchdog) {
      const Request& r = part.fifo.front().r;
      throw Error("IRU watchdog: partition " + std::to_string(p) + " has held the request of SM " + std::to_string(r.sm) +
                  " warp slot " + std::to_string(r.warp) + " (" + std::to_string(r.lanes) + " threads) for " +
                  std::to_string(c - part.fifo.front().since) + " cycles (iru.watchdog " + std::to_string(p_.watchdog) +
                  "); " + std::to_string(held()) + " elements in the hash, " + std::to_string(arrived_) + " of " +
                  std::to_string(setup_.n) + " arrived");
    }
    probes_[p].fifo->set(std::min<std::uint64_t>(0xffff, part.fifo.size()));
    probes_[p].ring->set(std::min<std::uint64_t>(0xffff, part.ring_in.size() + part.ring_out[0].size() + part.ring_out[1].size()));
    probes_[p].prefetches->set(part.in_flight);
    probes_[p].fullest->set(part.fill.empty() ? 0 : part.fill.rbegin()->first);
  }
  return true;
}

std::vector<std::string> Iru::outstanding() const {
  std::vector<std::string> v;
  if (!running_) return v;
  for (std::uint32_t p = 0; p < parts_.size(); ++p) {
    const Partition& part = parts_[p];
    v.push_back("partition " + std::to_string(p) + ": " + std::to_string(part.fifo.size()) + " requests waiting, " +
                std::to_string(part.held) + " elements in the hash, " + std::to_string(part.in_flight) +
                " prefetches in flight, " + std::to_string(part.lines.size() - part.next_line) + " lines not yet read");
  }
  return v;
}

}  // namespace irr::iru
