// SPDX-License-Identifier: Apache-2.0
// The model side of the HWWL's RTL islands: the simulator's Bank and WRU plan, stepped with the
// cycle semantics of rtl/hwwl/*.v.
#include "models/hwwl/blocks.h"

#include <algorithm>

#include "models/blocks/island.h"
#include "models/hwwl/bank.h"
#include "models/hwwl/wru_plan.h"
#include "sim/error.h"

namespace irr::hwwl {

namespace {

class BankModel : public BankBlock {
 public:
  explicit BankModel(BankParams p) : p_(p), bank_(std::make_unique<Bank>(p.depth, Mode::single)) {}

  BankOut eval(const BankIn& in) override {
    in_ = in;
    const Bank& b = *bank_;
    BankOut o;
    o.pullable = b.pullable();
    o.reserved = b.reserved();
    o.occupied = b.occupied();
    o.push_occupied = b.push_occupied();
    o.push_full = b.push_full();
    o.empty = b.empty();
    o.greedy = o.occupied > p_.threshold;
    o.needy = o.occupied < p_.threshold;
    o.retired = b.retired();
    o.double_mode = b.mode() == Mode::double_buffer;
    o.pull_part = b.pull_partition() == 1;
    o.rd_valid = rd_valid_;
    o.rd_data = rd_data_;
    switch (in.op) {
      case BankOp::pull:
      case BankOp::take: o.op_ok = b.pullable() > 0; break;
      case BankOp::push: o.op_ok = !b.push_full(); break;
      case BankOp::put: o.op_ok = b.free_pull_entries() > 0; break;
      case BankOp::fill: o.op_ok = b.reserved() > 0; break;
      case BankOp::none: o.op_ok = false; break;
    }
    const bool grows = o.op_ok && (in.op == BankOp::put || (in.op == BankOp::push && !o.double_mode));
    const bool shrinks = o.op_ok && (in.op == BankOp::pull || in.op == BankOp::take);
    o.reserve_ok = in.reserve && o.occupied + grows - shrinks < b.capacity();
    o.swapped = in.kernel_end && o.double_mode && o.empty && in.op == BankOp::none && !in.reserve;
    out_ = o;
    return o;
  }

  void edge() override {
    const sim::Cycle c = cycle_++;
    if (in_.rst) {
      bank_ = std::make_unique<Bank>(p_.depth, in_.cfg_double ? Mode::double_buffer : Mode::single);
      rd_valid_ = false;
      return;
    }
    Bank& b = *bank_;
    rd_valid_ = out_.op_ok && (in_.op == BankOp::pull || in_.op == BankOp::take);
    const std::uint32_t data = in_.wdata & ((1u << p_.width) - 1);
    if (out_.op_ok) {
      switch (in_.op) {
        case BankOp::pull: rd_data_ = b.pull(c); break;
        case BankOp::take: rd_data_ = b.move_out(c); break;
        case BankOp::push: b.push(c, data); break;
        case BankOp::put: b.move_in(c, data); break;
        case BankOp::fill: b.fill_reserved(c, data); break;
        case BankOp::none: break;
      }
    }
    if (out_.reserve_ok) b.reserve(1);
    if (out_.swapped) b.swap();
    if (in_.kernel_end) {
      b.revive();
    } else if (in_.retire && !(out_.op_ok && in_.op == BankOp::push)) {
      b.retire();
    }
  }

 private:
  const BankParams p_;
  std::unique_ptr<Bank> bank_;  // made anew by a reset, in the mode it takes
  BankIn in_;
  BankOut out_;
  bool rd_valid_ = false;
  std::uint32_t rd_data_ = 0;
  sim::Cycle cycle_ = 0;
};

class WruModel : public WruBlock {
 public:
  explicit WruModel(WruParams p) : p_(p) {
    out_.rank.assign(p.banks, 0);
    out_.move_from.assign(p.banks / 2, 0);
    out_.move_to.assign(p.banks / 2, 0);
  }
  WruOut eval(const WruIn& in) override {
    in_ = in;
    return out_;
  }
  void edge() override {
    std::vector<std::uint32_t> occ(p_.banks, 0);
    for (std::size_t b = 0; b < occ.size() && b < in_.occupancy.size(); ++b)
      occ[b] = in_.occupancy[b] & ((1u << p_.count_width) - 1);
    const std::vector<std::uint32_t> rank = rank_by_occupancy(occ);
    const Plan plan = plan_lsorting(occ, p_.threshold);
    WruOut o;
    o.rank = rank;
    for (std::uint32_t j = 0; j < p_.banks / 2; ++j) {
      o.move_from.push_back(rank[p_.banks - 1 - j]);
      o.move_to.push_back(rank[j]);
    }
    if (!in_.rst) {
      for (const Transfer& t : plan.moves) {
        const auto j = static_cast<std::uint32_t>(std::find(rank.begin(), rank.end(), t.to) - rank.begin());
        o.move_valid |= 1u << j;
      }
      o.global_greedy = o.export_valid = plan.global_greedy;
      o.export_bank = plan.export_bank.value_or(0);
    }
    out_ = o;
  }

 private:
  const WruParams p_;
  WruIn in_;
  WruOut out_;
};

}  // namespace

std::unique_ptr<BankBlock> make_bank_rtl(BankParams p, std::uint64_t seed, const std::string& fst);
std::unique_ptr<WruBlock> make_wru_rtl(WruParams p, std::uint64_t seed, const std::string& fst);

std::unique_ptr<BankBlock> make_bank_block(const std::string& impl, BankParams p, std::uint64_t seed,
                                           const std::string& fst) {
  if (p.depth < 2 || p.depth % 2 || p.width == 0 || p.width > 24)
    throw Error("hwwl bank block: depth " + std::to_string(p.depth) + ", width " + std::to_string(p.width) +
                    " (depth must be even and at least 2; width 1 to 24)",
                Error::Kind::config);
  return blocks::model_or_rtl<BankBlock>(
      "hwwl bank block", impl, [&] { return std::make_unique<BankModel>(p); }, [&] { return make_bank_rtl(p, seed, fst); });
}

std::unique_ptr<WruBlock> make_wru_block(const std::string& impl, WruParams p, std::uint64_t seed,
                                         const std::string& fst) {
  if (p.banks < 2 || (p.banks & (p.banks - 1)) || p.banks > 32 || p.count_width == 0 || p.count_width > 16)
    throw Error("hwwl WRU block: " + std::to_string(p.banks) +
                    " banks (a power of two from 2 to 32), count width " + std::to_string(p.count_width),
                Error::Kind::config);
  return blocks::model_or_rtl<WruBlock>(
      "hwwl WRU block", impl, [&] { return std::make_unique<WruModel>(p); }, [&] { return make_wru_rtl(p, seed, fst); });
}

}  // namespace irr::hwwl
