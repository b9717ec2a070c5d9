// SPDX-License-Identifier: Apache-2.0
#include "models/mem/traffic.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace irr::mem {

using tlm_glue::Access;

std::vector<std::vector<WarpInstruction>> read_trace(const std::string& path, std::uint32_t sms) {
  std::ifstream in(path);
  if (!in) throw Error({path, 0, 0}, "cannot read the trace", Error::Kind::config);
  std::vector<std::vector<WarpInstruction>> per_sm(sms);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream w(line);
    std::string sm_s;
    if (!(w >> sm_s)) continue;
    auto bad = [&](const std::string& why) { return Error({path, n, 0}, why, Error::Kind::config); };
    WarpInstruction ins;
    std::string kind;
    std::uint64_t sm = 0;
    try {
      sm = std::stoull(sm_s);
    } catch (const std::exception&) {
      throw bad("'" + sm_s + "' is not an SM number");
    }
    if (sm >= sms) throw bad("SM " + sm_s + " does not exist (gpu.num_sms is " + std::to_string(sms) + ")");
    if (!(w >> ins.warp >> std::hex >> ins.pc >> std::dec >> kind >> ins.size))
      throw bad("expected: sm warp pc ld|ld.cg|st|atom|fetch size addr...");
    ins.uncached = kind == "ld.cg";
    ins.fetch = kind == "fetch";
    if (kind == "ld" || kind == "ld.cg" || kind == "fetch") ins.access = Access::load;
    else if (kind == "st") ins.access = Access::store;
    else if (kind == "atom") ins.access = Access::atomic;
    else throw bad("'" + kind + "' is not ld, ld.cg, st, atom or fetch");
    if (ins.size == 0 || ins.size > 16 || (ins.size & (ins.size - 1))) throw bad("access size must be 1, 2, 4, 8 or 16");
    std::string a;
    unsigned t = 0;
    for (; t < 32 && w >> a; ++t) {
      if (a == "-") continue;
      try {
        std::size_t pos = 0;
        ins.addr[t] = std::stoull(a, &pos, 16);
        if (pos != a.size()) throw std::invalid_argument(a);
      } catch (const std::exception&) {
        throw bad("'" + a + "' is not a hexadecimal address");
      }
      ins.mask |= 1u << t;
    }
    if (w >> a) throw bad("more than 32 addresses");
    if (!ins.mask) throw bad("no active thread");
    per_sm[sm].push_back(ins);
  }
  return per_sm;
}

TrafficGenerator::Pattern TrafficGenerator::pattern_of(const std::string& name) {
  for (const auto& [n, p] : {std::pair{"stream", Pattern::stream}, {"strided", Pattern::strided}, {"random", Pattern::random},
                             {"frontier", Pattern::frontier}, {"trace", Pattern::trace}})
    if (name == n) return p;
  throw Error("traffic.pattern: unknown pattern '" + name + "'", Error::Kind::config);  // the schema lists the same
}

TrafficGenerator::TrafficGenerator(const sc_core::sc_module_name& name, sim::Simulation& sim, std::uint32_t sm,
                                   BackingStore& store, std::vector<WarpInstruction> trace)
    : sc_core::sc_module(name),
      sim_(sim),
      sm_(sm),
      sms_(static_cast<std::uint32_t>(sim.config().get_uint("gpu.num_sms"))),
      warps_(static_cast<std::uint32_t>(sim.config().get_uint("traffic.warps"))),
      store_(store),
      coalescer_(Coalescer::from_config(sim.config())),
      rng_(sim.rng(this->name())),
      pattern_(pattern_of(sim.config().get_string("traffic.pattern"))),
      footprint_(sim.config().get_size("traffic.footprint")),
      stride_(sim.config().get_uint("traffic.stride")),
      base_(sim.config().get_uint("traffic.base")),
      store_fraction_(sim.config().get_real("traffic.store_fraction")),
      atomic_fraction_(sim.config().get_real("traffic.atomic_fraction")),
      size_(static_cast<unsigned>(sim.config().get_uint("traffic.access_size"))),
      vertex_bits_([n = footprint_ / size_] {
        unsigned bits = 0;
        while (bits < 64 && (1ull << bits) < n) ++bits;
        return bits;
      }()),
      trace_(warps_),
      total_(pattern_ == Pattern::trace ? trace.size() : sim.config().get_uint("traffic.instructions")),
      per_warp_issued_(warps_, 0),
      waiting_lines_(warps_, 0),
      issued_at_(warps_, 0),
      history_slot_(warps_, static_cast<std::size_t>(-1)),
      instructions_(sim.counter(*this, "instructions", "warp memory instructions issued", "instructions")),
      requests_(sim.counter(*this, "requests", "line requests after coalescing", "requests")),
      requests_per_instruction_(sim.distribution(*this, "requests_per_instruction",
                                                         "line requests per warp memory instruction", "requests", 1, 1, 32)),
      latency_(sim.distribution(*this, "instruction_latency",
                                        "cycles from issue until every line of the instruction completed", "cycles", 0, 50, 40)) {
  if (footprint_ < 128) throw Error("traffic.footprint must be at least 128B", Error::Kind::config);
  for (const auto& i : trace) {
    if (i.warp >= warps_) throw Error("trace: warp " + std::to_string(i.warp) + " >= traffic.warps", Error::Kind::config);
    trace_[i.warp].push_back(i);
  }
  sim.clock("core").add(*this);
  sim.watch(this->name(), *this);
  if (total_) wake();
}

void TrafficGenerator::connect(L1Cache& l1) {
  l1_ = &l1;
  for (const auto& warp : trace_)
    if (std::any_of(warp.begin(), warp.end(), [](const WarpInstruction& i) { return i.fetch; })) {
      l1.enable_fetches();
      break;
    }
}

std::uint64_t TrafficGenerator::vertex() {
  // R-MAT's source-vertex distribution (a = 0.57, b = 0.19: a bit is 1 with probability c + d = 0.24).
  const std::uint64_t n = footprint_ / size_;
  const unsigned bits = vertex_bits_;
  std::bernoulli_distribution one(0.24);
  std::uint64_t v = 0;
  for (unsigned b = 0; b < bits; ++b) v = v << 1 | one(rng_);
  // Scatter ids over the footprint (a bijective hash on `bits` bits), so hot vertices are not
  // neighbours in memory.
  const std::uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  v = (v * 0x9E3779B97F4A7C15ull) & mask;
  v ^= v >> (bits / 2 + 1);
  return v % n;
}

WarpInstruction TrafficGenerator::next_instruction(std::uint32_t warp) {
  if (pattern_ == Pattern::trace) {
    if (trace_[warp].empty()) return {};
    WarpInstruction ins = trace_[warp].front();
    trace_[warp].pop_front();
    return ins;
  }
  WarpInstruction ins;
  ins.warp = warp;
  ins.pc = 0x100 * (1 + (pattern_ == Pattern::frontier));
  ins.size = size_;
  ins.mask = ~0u;
  std::uniform_real_distribution<double> u(0, 1);
  const double r = u(rng_);
  ins.access = r < atomic_fraction_ ? Access::atomic : r < atomic_fraction_ + store_fraction_ ? Access::store : Access::load;
  const std::uint64_t k = per_warp_issued_[warp]++;
  const std::uint64_t global_warp = static_cast<std::uint64_t>(sm_) * warps_ + warp;
  const std::uint64_t words = footprint_ / size_;
  for (unsigned t = 0; t < 32; ++t) {
    const std::uint64_t idx = (k * sms_ * warps_ + global_warp) * 32 + t;
    std::uint64_t word;
    if (pattern_ == Pattern::stream) word = idx % words;
    else if (pattern_ == Pattern::strided) word = idx * stride_ % words;
    else if (pattern_ == Pattern::random) word = std::uniform_int_distribution<std::uint64_t>(0, words - 1)(rng_);
    else word = vertex();
    ins.addr[t] = base_ + word * size_;
  }
  return ins;
}

bool TrafficGenerator::tick(sim::Cycle) {
  const sim::Picoseconds now = sim::now_ps();
  // Line accesses into the L1, as many a cycle as its input takes (l1.port_accesses). While the
  // L1's input is full a tick would only find it so: the generator sleeps, holding (each cycle
  // still counts as active), until the L1 takes an access (input_freed).
  if (!queue_.empty()) {
    if (!l1_->can_accept(now)) {
      hold();
      return false;
    }
    do {
      l1_->accept(queue_.front(), now);
      queue_.pop_front();
    } while (!queue_.empty() && l1_->can_accept(now));
  }
  // One new warp instruction per cycle, from the next ready warp, once the previous one's lines
  // have all entered the L1.
  if (queue_.empty() && issued_ < total_) {
    for (std::uint32_t k = 0; k < warps_; ++k) {
      const std::uint32_t w = (next_warp_ + k) % warps_;
      if (waiting_lines_[w]) continue;
      WarpInstruction ins = next_instruction(w);
      if (!ins.mask) continue;  // a trace with nothing more for this warp
      next_warp_ = (w + 1) % warps_;
      // Functional effect at issue, in issue order.
      for (unsigned t = 0; t < 32; ++t) {
        if (!(ins.mask >> t & 1)) continue;
        if (ins.access == Access::store) store_.write(ins.addr[t], &ins.addr[t], std::min<unsigned>(ins.size, 8));
        else if (ins.access == Access::atomic) store_.atomic(ins.addr[t], ins.size == 8 ? 8 : 4, tlm_glue::AtomicOp::add, 1);
        else (void)store_.load<std::uint32_t>(ins.addr[t]);
      }
      if (ins.access == Access::atomic) {
        // Atomics are not merged: one request per active thread, serialised per address at L2.
        for (unsigned t = 0; t < 32; ++t)
          if (ins.mask >> t & 1) {
            const std::uint64_t line = ins.addr[t] / coalescer_.line_size() * coalescer_.line_size();
            queue_.push_back({next_id_++, w, ins.pc, Access::atomic, tlm_glue::AtomicOp::add, line, 0, ins.size, ins.addr[t]});
          }
      } else {
        coalescer_.coalesce(ins.addr, ins.mask, ins.size, lines_);
        for (const LineAccess& l : lines_) {
          unsigned bytes = 0;
          for (std::uint32_t s = l.sectors; s; s &= s - 1) bytes += coalescer_.sector_size();
          queue_.push_back({next_id_++, w, ins.pc, ins.access, tlm_glue::AtomicOp::none, l.line, l.sectors, bytes, l.line});
          queue_.back().uncached = ins.uncached;
        }
      }
      const std::size_t lines = queue_.size();
      if (ins.fetch) {  // whole lines, on the fetch path at once: nothing waits for the input
        for (MemAccess& a : queue_) {
          a.sectors = ~0u;
          l1_->fetch(a);
        }
        queue_.clear();
      }
      waiting_lines_[w] = static_cast<std::uint32_t>(lines);
      pending_lines_ += lines;
      issued_at_[w] = now;
      const sim::Cycle cycle = scheduler()->domain().cycle_at(now);
      history_slot_[w] = history_.size() < kHistory ? history_.size() : static_cast<std::size_t>(-1);
      if (history_.size() < kHistory) history_.emplace_back(cycle, 0);
      ++issued_;
      ++instructions_;
      requests_ += lines;
      requests_per_instruction_.sample(static_cast<double>(lines));
      break;
    }
  }
  return !queue_.empty() || (issued_ < total_ && std::any_of(waiting_lines_.begin(), waiting_lines_.end(),
                                                            [](std::uint32_t n) { return n == 0; }));
}

void TrafficGenerator::input_freed() {  // the L1 took an access at this edge: it takes the next from the next edge on
  if (!queue_.empty()) wake_at(scheduler()->now_cycle() + 1);
}

void TrafficGenerator::completed(const MemAccess& a) {
  --pending_lines_;
  if (--waiting_lines_[a.warp] == 0) {
    const auto cycles = (sim::now_ps() - issued_at_[a.warp]) / scheduler()->domain().period();
    latency_.sample(static_cast<double>(cycles));
    if (history_slot_[a.warp] != static_cast<std::size_t>(-1)) history_[history_slot_[a.warp]].second = cycles;
    sim_.note_progress();
    if (issued_ < total_) wake();
  }
}

std::vector<std::string> TrafficGenerator::outstanding() const {
  std::vector<std::string> v;
  if (issued_ < total_) v.push_back(std::to_string(total_ - issued_) + " instructions not issued");
  if (pending_lines_) v.push_back(std::to_string(pending_lines_) + " line accesses not completed");
  return v;
}

}  // namespace irr::mem
