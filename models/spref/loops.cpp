// SPDX-License-Identifier: Apache-2.0
#include "models/spref/loops.h"

#include <algorithm>
#include <map>

namespace irr::spref {

using core::ptx::Function;
using core::ptx::Instruction;
using core::ptx::Op;
using core::ptx::Operand;
using core::ptx::OperandKind;

namespace {

enum class Tag : std::uint8_t { constant, stride, random };  // Table 1's value tags [G L431]
constexpr std::int64_t kUnknown = std::numeric_limits<std::int64_t>::min();  // a step not from immediates

bool qualifies(const Instruction& in, bool nc_only) {
  return (in.op == Op::ld || in.op == Op::ldu) && in.space == core::ptx::Space::global && in.ops.size() == 2 &&
         in.ops[0].kind == OperandKind::reg && in.ops[1].kind == OperandKind::address && in.ops[1].based &&
         (in.nc || !nc_only);
}

// The tags of one iteration (one set per SM in hardware [G L500-L501]): a value tag, a load-id
// (0: none; 2 bits, so three loads [G L501]), and for strided values the step an iteration in
// bytes, for values derived from a load the factor its value is scaled by (both kUnknown when an
// operand other than an immediate takes part: the hardware knows only immediates' values).
class Tags {
 public:
  explicit Tags(std::size_t registers)
      : tag_(registers, Tag::constant), id_(registers, 0), step_(registers, 0), scale_(registers, 0) {}
  void set_stride(std::uint32_t r, std::int64_t step) {
    tag_[r] = Tag::stride;
    step_[r] = step;
  }
  Tag tag(std::uint32_t r) const { return tag_[r]; }
  std::uint8_t id(std::uint32_t r) const { return id_[r]; }
  std::int64_t step(std::uint32_t r) const { return step_[r]; }
  std::int64_t scale(std::uint32_t r) const { return scale_[r]; }

  // One instruction; a load gets load-id `load_id` (0: none left).
  void apply(const Instruction& in, std::uint8_t load_id) {
    if (in.ops.empty() || in.ops[0].kind != OperandKind::reg) return;  // writes no register (or several)
    const std::uint32_t d = in.ops[0].reg;
    if (in.op == Op::ld || in.op == Op::ldu) {
      set(d, Tag::random, load_id, kUnknown, load_id ? 1 : 0);
      return;
    }
    switch (in.op) {
      case Op::mov: case Op::cvt: case Op::cvta: case Op::add: case Op::sub: case Op::mul: case Op::mad: case Op::shl:
        break;
      default:  // Table 1 shows no other opcode [G L445]: its result is taken as random
        set(d, Tag::random, 0, kUnknown, 0);
        return;
    }
    Tag t = Tag::constant;
    std::uint8_t id = 0;
    for (std::size_t i = 1; i < in.ops.size(); ++i) {
      const Operand& o = in.ops[i];
      if (o.kind == OperandKind::reg) {
        t = std::max(t, tag_[o.reg]);
        if (!id) id = id_[o.reg];
      } else if (o.kind != OperandKind::imm && o.kind != OperandKind::special && o.kind != OperandKind::symbol) {
        t = Tag::random;
      }
    }
    set(d, t, id, linear(in, step_), id ? linear(in, scale_) : 0);
  }

 private:
  void set(std::uint32_t r, Tag t, std::uint8_t id, std::int64_t step, std::int64_t scale) {
    tag_[r] = t;
    id_[r] = id;
    step_[r] = step;
    scale_[r] = scale;
  }
  // The derivative of the result by the value `d` tracks (a register's entry: kUnknown or a
  // number; immediates and untracked registers contribute 0 to a sum, and scale by their value).
  std::int64_t linear(const Instruction& in, const std::vector<std::int64_t>& d) const {
    auto of = [&](std::size_t i) -> std::int64_t {
      const Operand& o = in.ops[i];
      return o.kind == OperandKind::reg ? d[o.reg] : 0;
    };
    auto imm = [&](std::size_t i, std::int64_t& v) {
      if (in.ops[i].kind != OperandKind::imm) return false;
      v = in.ops[i].offset;
      return true;
    };
    auto times = [](std::int64_t a, std::int64_t k) { return a == kUnknown ? kUnknown : a * k; };
    auto plus = [](std::int64_t a, std::int64_t b) { return a == kUnknown || b == kUnknown ? kUnknown : a + b; };
    const std::size_t n = in.ops.size();
    std::int64_t k = 0;
    switch (in.op) {
      case Op::mov: case Op::cvt: case Op::cvta:
        return n > 1 ? of(1) : 0;
      case Op::add:
        return n > 2 ? plus(of(1), of(2)) : kUnknown;
      case Op::sub:
        return n > 2 ? plus(of(1), times(of(2), -1)) : kUnknown;
      case Op::mul:
      case Op::mad: {
        if (n < 3) return kUnknown;
        std::int64_t product;
        if (imm(2, k)) product = times(of(1), k);
        else if (imm(1, k)) product = times(of(2), k);
        else product = of(1) == 0 && of(2) == 0 ? 0 : kUnknown;
        return in.op == Op::mad ? (n > 3 ? plus(product, of(3)) : kUnknown) : product;
      }
      case Op::shl:
        return n > 2 && imm(2, k) && k >= 0 && k < 63 ? times(of(1), std::int64_t{1} << k) : (of(1) == 0 ? 0 : kUnknown);
      default:
        return kUnknown;
    }
  }

  std::vector<Tag> tag_;
  std::vector<std::uint8_t> id_;
  std::vector<std::int64_t> step_, scale_;
};

// The loop index's updates over one iteration: an add or sub of a register to itself and an
// immediate [G L433] — or, `through_copies`, a register written with its own value at the
// iteration's start plus an immediate by way of movs and conversions (nvcc 13 routes LS-MST's
// index through two cvts). Each register with its step.
std::map<std::uint32_t, std::int64_t> index_updates(const Function& f, const std::vector<std::uint32_t>& path,
                                                     bool through_copies) {
  struct Origin {  // a register's value: register `reg`'s at the iteration's start plus `plus`
    std::uint32_t reg = kNone;
    std::int64_t plus = 0;
  };
  std::vector<Origin> origin(f.registers.size());
  for (std::uint32_t r = 0; r < origin.size(); ++r) origin[r].reg = r;
  std::map<std::uint32_t, std::int64_t> updates;
  for (std::uint32_t pc : path) {
    const Instruction& in = f.code[pc];
    if (in.ops.empty() || in.ops[0].kind != OperandKind::reg) continue;
    const std::uint32_t d = in.ops[0].reg;
    Origin o;  // unknown unless a copy or an immediate step of a register
    auto reg = [&](std::size_t i) { return i < in.ops.size() && in.ops[i].kind == OperandKind::reg; };
    auto imm = [&](std::size_t i) { return i < in.ops.size() && in.ops[i].kind == OperandKind::imm; };
    if ((in.op == Op::mov || in.op == Op::cvt) && in.ops.size() == 2 && reg(1)) {
      o = origin[in.ops[1].reg];
    } else if ((in.op == Op::add || in.op == Op::sub) && in.ops.size() == 3) {
      const int r = reg(1) && imm(2) ? 1 : in.op == Op::add && reg(2) && imm(1) ? 2 : 0;
      if (r) {
        o = origin[in.ops[r].reg];
        o.plus += in.op == Op::sub ? -in.ops[3 - r].offset : in.ops[3 - r].offset;
        const bool direct = in.ops[r].reg == d;
        if (o.reg == d && o.plus != 0 && (direct || through_copies)) updates[d] = o.plus;
      }
    }
    if (o.reg == kNone) o.plus = 0;
    origin[d] = o;
  }
  return updates;
}

}  // namespace

std::vector<Loop> find_loops(const Function& f) {
  std::vector<Loop> loops;
  for (std::uint32_t pc = 0; pc < f.code.size(); ++pc) {
    const Instruction& in = f.code[pc];
    if (in.op == Op::bra && !in.indirect && in.target <= pc) {
      Loop l;
      l.start = in.target;
      l.end = pc;
      loops.push_back(l);
    }
  }
  return loops;
}

void find_pairs(const Function& f, Loop& loop, const std::vector<std::uint32_t>& first,
                const std::vector<std::uint32_t>& second, unsigned max_pairs, bool nc_only, bool through_copies) {
  loop.pairs.clear();
  loop.analysed = true;
  // The first iteration: the index updates, each register with its step.
  const auto updates = index_updates(f, first, through_copies);
  // The second: every tag constant but the updated registers', strided [G L433].
  Tags tags(f.registers.size());
  for (const auto& [r, step] : updates) tags.set_stride(r, step);
  std::map<std::uint8_t, std::size_t> pair_of_id;  // a head's load-id -> its pair
  std::uint8_t next_id = 1;
  for (std::uint32_t pc : second) {
    const Instruction& in = f.code[pc];
    std::uint8_t id = 0;
    if (in.op == Op::ld || in.op == Op::ldu) {
      if (next_id <= 3) id = next_id++;
      if (qualifies(in, nc_only)) {
        const std::uint32_t base = in.ops[1].reg;
        const auto head = pair_of_id.find(tags.id(base));
        if (tags.tag(base) == Tag::stride && !tags.id(base) && loop.pairs.size() < max_pairs &&
            std::none_of(loop.pairs.begin(), loop.pairs.end(), [&](const Pair& p) { return p.head == pc; })) {
          Pair p;
          p.head = pc;
          p.stride = tags.step(base) == kUnknown ? 0 : tags.step(base);
          loop.pairs.push_back(p);
          if (id) pair_of_id[id] = loop.pairs.size() - 1;
        } else if (head != pair_of_id.end() && loop.pairs[head->second].tail == kNone) {
          Pair& p = loop.pairs[head->second];
          p.tail = pc;
          p.scale = tags.scale(base) == kUnknown ? 0 : tags.scale(base);
        }
      }
    }
    tags.apply(in, id);
  }
  // The iteration count: the setp that sets the loop branch's predicate, against an index.
  const Instruction& br = f.code[loop.end];
  loop.setp = kNone;
  if (!br.guarded) return;
  for (std::uint32_t pc = loop.end; pc-- > loop.start;) {
    const Instruction& in = f.code[pc];
    if (in.op != Op::setp || in.ops.empty() || in.ops[0].kind != OperandKind::reg || in.ops[0].reg != br.guard) continue;
    for (std::uint32_t i = 1; i <= 2 && i < in.ops.size(); ++i) {
      const Operand& o = in.ops[i];
      const auto u = o.kind == OperandKind::reg ? updates.find(o.reg) : updates.end();
      if (u == updates.end()) continue;
      loop.setp = pc;
      loop.induction_operand = i;
      loop.bound_operand = 3 - i;
      loop.increment = u->second;
      break;
    }
    break;
  }
}

void find_pairs_statically(const Function& f, Loop& loop, unsigned max_pairs, bool nc_only, bool through_copies) {
  std::vector<std::uint32_t> body;
  for (std::uint32_t pc = loop.start; pc <= loop.end; ++pc) body.push_back(pc);
  find_pairs(f, loop, body, body, max_pairs, nc_only, through_copies);
}

}  // namespace irr::spref
