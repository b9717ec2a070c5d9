// SPDX-License-Identifier: Apache-2.0
#include "models/core/exec/warp.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <limits>
#include <sstream>
#include <type_traits>

#include "models/core/exec/cfg.h"
#include "models/core/exec/values.h"
#include "sim/error.h"

namespace irr::core {

using ptx::Cmp;
using ptx::Mode;
using ptx::Op;
using ptx::Operand;
using ptx::OperandKind;
using ptx::Round;
using ptx::Space;
using ptx::Type;

// ---------------------------------------------------------------------------------------------

Cta::Cta(LaunchContext& c, const ptx::Function& k, Dim3 g, Dim3 b, Dim3 id, const std::vector<std::uint8_t>& p,
         std::uint32_t dynamic_shared)
    : ctx(c), kernel(k), grid(g), block(b), ctaid(id), params(p),
      shared((c.module->shared_bytes + 15) / 16 * 16 + k.shared_bytes + dynamic_shared, 0) {
  const auto threads = static_cast<std::uint32_t>(b.count());
  for (std::uint32_t t = 0, w = 0; t < threads; t += 32, ++w)
    warps_.push_back(std::make_unique<Warp>(*this, w, t, std::min(32u, threads - t)));
}

const FunctionLayout& LaunchContext::layout(const ptx::Function& f) {
  auto [it, added] = layouts.try_emplace(&f);
  FunctionLayout& l = it->second;
  if (added) {
    l.reconvergence = reconvergence_points(f);
    for (const auto& r : f.registers)
      l.row.push_back(ptx::type_bits(r.type) == 64 ? l.wide_rows++ << 1 | 1 : l.narrow_rows++ << 1);
  }
  return l;
}

bool Cta::done() const {
  return std::all_of(warps_.begin(), warps_.end(), [](const auto& w) { return w->state() == Warp::State::done; });
}

void Cta::check_barrier() {
  bool any = false;
  for (const auto& w : warps_) {
    if (w->state() == Warp::State::ready) return;  // someone has not arrived
    any = any || w->state() == Warp::State::at_barrier;
  }
  if (any)
    for (auto& w : warps_)
      if (w->state() == Warp::State::at_barrier) w->release_barrier();
}

Warp::Warp(Cta& cta, std::uint32_t index, std::uint32_t first_thread, std::uint32_t threads)
    : cta_(cta), index_(index), first_thread_(first_thread), threads_(threads), local_(32) {
  Frame f = make_frame(cta.kernel);
  f.stack.push_back({0, ~0u, threads == 32 ? ~0u : (1u << threads) - 1});
  frames_.push_back(std::move(f));
  ++cta.ctx.live_warps;
}

void Warp::finished() {
  stop_spinning();
  --cta_.ctx.live_warps;
}

Warp::Frame Warp::make_frame(const ptx::Function& f) {
  // A returned callee's frame is reused: its vectors keep their storage (no allocation per call).
  Frame fr;
  if (!spare_.empty()) {
    fr = std::move(spare_.back());
    spare_.pop_back();
    fr.stack.clear();
    fr.call = nullptr;
  }
  fr.f = &f;
  fr.layout = &cta_.ctx.layout(f);
  fr.narrow.assign(fr.layout->narrow_rows * 32, 0);
  fr.wide.assign(fr.layout->wide_rows * 32, 0);
  fr.args.assign(f.param_bytes * 32, 0);
  fr.call_params.assign(f.call_param_bytes * 32, 0);
  fr.local_base = frames_.empty() ? 0 : frames_.back().local_base + frames_.back().f->local_bytes;
  fr.local_base = (fr.local_base + 15) / 16 * 16;
  local_extent_ = std::max<std::uint64_t>(local_extent_, fr.local_base + f.local_bytes);  // allocated when used
  return fr;
}

std::uint32_t Warp::pc() const { return frames_.empty() || frames_.back().stack.empty() ? 0 : frames_.back().stack.back().pc; }

std::string Warp::location(const Frame& fr, std::uint32_t pc) const {
  std::string s = fr.f->name + ", pc " + std::to_string(pc);
  if (pc < fr.f->code.size()) {
    const auto& in = fr.f->code[pc];
    s += " (PTX line " + std::to_string(in.ptx_line);
    auto file = cta_.ctx.module->files.find(in.loc.file);
    if (file != cta_.ctx.module->files.end() && in.loc.line) s += ", " + file->second + ":" + std::to_string(in.loc.line);
    s += ")";
  }
  return s;
}

std::string Warp::where() const {
  const Dim3& c = cta_.ctaid;
  return "kernel " + cta_.kernel.name + ", CTA (" + std::to_string(c.x) + "," + std::to_string(c.y) + "," +
         std::to_string(c.z) + "), warp " + std::to_string(index_) +
         (frames_.empty() ? std::string() : ", in " + location(frames_.back(), pc()));
}

std::uint64_t Warp::special(ptx::Special s, unsigned lane) const {
  using ptx::Special;
  const std::uint32_t t = first_thread_ + lane;
  const Dim3& b = cta_.block;
  switch (s) {
    case Special::tid_x: return t % b.x;
    case Special::tid_y: return t / b.x % b.y;
    case Special::tid_z: return t / (b.x * b.y);
    case Special::ntid_x: return b.x;
    case Special::ntid_y: return b.y;
    case Special::ntid_z: return b.z;
    case Special::ctaid_x: return cta_.ctaid.x;
    case Special::ctaid_y: return cta_.ctaid.y;
    case Special::ctaid_z: return cta_.ctaid.z;
    case Special::nctaid_x: return cta_.grid.x;
    case Special::nctaid_y: return cta_.grid.y;
    case Special::nctaid_z: return cta_.grid.z;
    case Special::laneid: return lane;
    case Special::warpid: return index_;
    case Special::nwarpid: return cta_.ctx.warps_per_sm;
    case Special::lanemask_eq: return 1u << lane;
    case Special::lanemask_lt: return (1u << lane) - 1;
    case Special::lanemask_le: return static_cast<std::uint32_t>((2ull << lane) - 1);
    case Special::lanemask_gt: return ~static_cast<std::uint32_t>((2ull << lane) - 1);
    case Special::lanemask_ge: return ~((1u << lane) - 1);
    case Special::clock: return zext(cta_.ctx.cycle ? cta_.ctx.cycle() : instructions_, 32);
    case Special::clock64: return cta_.ctx.cycle ? cta_.ctx.cycle() : instructions_;
    case Special::globaltimer: return cta_.ctx.nanoseconds ? cta_.ctx.nanoseconds() : instructions_;
    case Special::smid: return 0;
    case Special::nsmid: return cta_.ctx.sms;
    case Special::gridid: return 0;
  }
  return 0;
}

std::uint64_t Warp::read(const Frame& fr, const Operand& o, unsigned lane, Type t) const {
  const unsigned n = ptx::type_bits(t) ? ptx::type_bits(t) : 64;
  switch (o.kind) {
    case OperandKind::reg: {
      std::uint64_t v = fr.reg(o.reg, lane);
      if (o.negated) v ^= 1;
      return zext(v, n);
    }
    case OperandKind::imm: return zext(o.bits, n);
    case OperandKind::special: return zext(special(static_cast<ptx::Special>(o.special), lane), n);
    case OperandKind::symbol: {
      Space sp;
      return address_of(fr, o, lane, sp);
    }
    default: break;
  }
  throw Error(where() + ": operand cannot be read as a value");
}

// The state-space address an operand names, and its space.
std::uint64_t Warp::address_of(const Frame& fr, const Operand& o, unsigned lane, Space& space) const {
  std::uint64_t a = static_cast<std::uint64_t>(o.offset);
  if (o.kind == OperandKind::address && o.based) {
    // [%r+off] with a 32-bit register is 32-bit address arithmetic: it wraps as the hardware's does
    // (nvcc forms shared addresses as base - k + off, the base below k).
    const std::uint64_t sum = fr.reg(o.reg, lane) + a;
    return o.narrow ? sum & 0xffffffffull : sum;  // decided when parsed: no look-up per lane
  }
  if (o.global_symbol) {
    const auto& v = cta_.ctx.module->variables.at(o.symbol);
    space = v.space;
    if (v.space == Space::shared) return v.offset + a;
    return cta_.ctx.variable_address.at(o.symbol) + a;
  }
  if (o.kind == OperandKind::address || o.kind == OperandKind::symbol) {
    if (fr.f->symbols.empty()) return a;
    const auto& v = fr.f->symbols.at(o.symbol);
    space = v.space;
    if (v.space == Space::local) return fr.local_base + v.offset + a;
    return v.offset + a;
  }
  return a;
}

std::uint8_t* Warp::bytes(Frame&, Space& space, std::uint64_t& addr, unsigned lane, unsigned n) {
  if (space == Space::none || space == Space::generic) {
    if (addr >= kSharedWindow && addr < kSharedWindow + kWindowSize) {
      space = Space::shared;
      addr -= kSharedWindow;
    } else if (addr >= kLocalWindow && addr < kLocalWindow + kWindowSize) {
      space = Space::local;
      addr -= kLocalWindow;
    } else {
      space = Space::global;
    }
  }
  auto check = [&](std::size_t size, const char* what) {
    if (addr + n > size)
      throw Error(where() + ": " + what + " access of " + std::to_string(n) + " B at offset " + std::to_string(addr) +
                  " outside its " + std::to_string(size) + " B");
  };
  switch (space) {
    case Space::shared: check(cta_.shared.size(), "shared"); return cta_.shared.data() + addr;
    case Space::local: {
      check(local_extent_, "local");
      auto& l = local_[lane];
      if (l.size() < local_extent_) l.resize(local_extent_, 0);
      return l.data() + addr;
    }
    default: return nullptr;  // global and const: the backing store (param: see param())
  }
}

// A .param variable's bytes for one lane: the kernel's launch parameters, a device function's
// parameters and returns, or the caller's call-site parameters.
std::uint8_t* Warp::param(Frame& fr, const Operand& o, unsigned lane, unsigned n, std::uint64_t extra) {
  if (o.kind == OperandKind::address && o.based && fr.f->kernel) {
    // [%r+off] in a kernel: %r holds a kernel parameter's address (mov %r, param: its offset among
    // the parameters), as nvcc reads a by-value structure it indexes.
    const std::uint64_t off = fr.reg(o.reg, lane) + static_cast<std::uint64_t>(o.offset) + extra;
    if (off + n > cta_.params.size()) throw Error(where() + ": read past the kernel's parameters");
    return const_cast<std::uint8_t*>(cta_.params.data()) + off;
  }
  const ParamPlace at = param_place(fr, o, n, extra);
  return at.lane0 + lane * at.stride;
}

// Where a .param access's bytes are for lane 0, and how far apart the lanes' are (0: the kernel's
// parameters, one copy for every lane); the errors name a bad operand or an access out of range.
Warp::ParamPlace Warp::param_place(Frame& fr, const Operand& o, unsigned n, std::uint64_t extra) {
  if (o.kind != OperandKind::address || o.based || o.global_symbol || fr.f->symbols.empty())
    throw Error(where() + ": .param accesses must name a parameter");
  const auto& v = fr.f->symbols.at(o.symbol);
  const std::uint64_t off = v.offset + static_cast<std::uint64_t>(o.offset) + extra;
  if (v.argument && fr.f->kernel) {
    if (off + n > cta_.params.size()) throw Error(where() + ": read past the kernel's parameters");
    return {const_cast<std::uint8_t*>(cta_.params.data()) + off, 0};
  }
  const std::uint64_t stride = v.argument ? fr.f->param_bytes : fr.f->call_param_bytes;
  if (off + n > stride) throw Error(where() + ": parameter access out of range");
  return {(v.argument ? fr.args.data() : fr.call_params.data()) + off, stride};
}

// The object: arrivals pending in the phase (bits 0-19), arrivals a phase expects (20-39), the
// transaction bytes still to come, signed (40-62: a copy may complete before its bytes are
// expected), and the phase's parity (63). A phase completes when no arrival and no byte is pending.
std::uint64_t Warp::mbarrier_update(Frame& fr, const Operand& at, Space space, unsigned lane, ptx::Mode op, std::uint64_t arg,
                                    bool expect_tx) {
  Space named = Space::none;  // a symbol names its space; else the instruction's (none: generic)
  const std::uint64_t addr = address_of(fr, at, lane, named);
  if (named != Space::none) space = named;
  std::uint64_t word = 0;
  load(fr, space, addr, lane, &word, 8);
  const std::uint64_t before = word;
  constexpr std::uint64_t kCount = 0xfffff;
  std::uint64_t pending = word & kCount, expected = word >> 20 & kCount, phase = word >> 63;
  std::int64_t tx = static_cast<std::int64_t>(word << 1) >> 41;  // bits 40-62, sign-extended
  switch (op) {
    case Mode::mb_init:
      if (arg == 0 || arg > kCount) throw Error(where() + ": mbarrier.init with a count of " + std::to_string(arg) + " (1 to 2^20 - 1)");
      pending = expected = arg;
      tx = 0;
      phase = 0;
      break;
    case Mode::mb_arrive: case Mode::mb_arrive_drop: {
      const std::uint64_t count = expect_tx ? 1 : arg;
      if (expect_tx) tx += static_cast<std::int64_t>(arg);
      if (count > pending) throw Error(where() + ": mbarrier arrival past the phase's expected count");
      pending -= count;
      if (op == Mode::mb_arrive_drop) expected -= std::min(expected, count);
      break;
    }
    case Mode::mb_expect_tx: tx += static_cast<std::int64_t>(arg); break;
    case Mode::mb_complete_tx: tx -= static_cast<std::int64_t>(arg); break;
    default: return word;  // a wait reads; inval leaves it
  }
  if (op != Mode::mb_init && pending == 0 && tx == 0) {  // the phase completes; the next begins
    phase ^= 1;
    pending = expected;
  }
  word = pending | expected << 20 | (static_cast<std::uint64_t>(tx) & ((std::uint64_t{1} << 23) - 1)) << 40 | phase << 63;
  store(fr, space, addr, lane, &word, 8);
  return before;
}

void Warp::load(Frame& fr, Space space, std::uint64_t addr, unsigned lane, void* out, unsigned n) {
  if (std::uint8_t* p = bytes(fr, space, addr, lane, n)) {
    std::memcpy(out, p, n);
    return;
  }
  cta_.ctx.memory->read(addr, out, n);
}

void Warp::store(Frame& fr, Space space, std::uint64_t addr, unsigned lane, const void* in, unsigned n) {
  if (space == Space::constant) throw Error(where() + ": store to the constant space");
  if (std::uint8_t* p = bytes(fr, space, addr, lane, n)) {
    std::memcpy(p, in, n);
    return;
  }
  cta_.ctx.memory->write(addr, in, n);
}

void Warp::branch(Frame& fr, std::uint32_t pc, const ptx::Instruction& in, std::uint32_t taken, std::uint32_t active) {
  (void)in;
  Entry& top = fr.stack.back();
  const std::uint32_t target = in.op == Op::bra ? in.target : static_cast<std::uint32_t>(fr.f->code.size());
  const std::uint32_t not_taken = active & ~taken;
  if (!not_taken) {
    top.pc = target;
    return;
  }
  if (!taken) {
    top.pc = pc + 1;
    return;
  }
  const std::uint32_t rpc = fr.layout->reconvergence[pc];
  top.pc = rpc;
  fr.stack.push_back({pc + 1, rpc, not_taken});
  fr.stack.push_back({target, rpc, taken});
}

// The spin watch. A loop whose iterations read the same addresses and get the same values cannot
// leave unless another thread writes; once every live warp of the launch is in such a loop, none
// will, and waiting for the instruction limit would take hours of simulated time.
void Warp::fold_reads(const Step& step) {
  // The first and last active lanes' addresses and values: O(1) an instruction, and a loop that
  // reads anything new in them is not a spin (a wrong "same" would have to hold for every warp).
  std::uint64_t h = spin_.hash ^ step.pc;
  auto mix = [&h](std::uint64_t v) { h = (h ^ v) * 0x100000001b3ull; };
  if (!step.addresses.empty()) {
    mix(step.addresses.front());
    mix(step.addresses.back());
  }
  for (const auto& w : step.writes)
    if (w.mask) {
      mix(w.value[__builtin_ctz(w.mask)]);
      mix(w.value[31 - __builtin_clz(w.mask)]);
    }
  spin_.hash = h;
  spin_.reads = true;
}

void Warp::watch_spin(std::uint32_t pc, std::uint32_t target) {
  LaunchContext& ctx = cta_.ctx;
  const bool same = spin_.reads && pc == spin_.branch && spin_.hash == spin_.last;
  spin_.last = spin_.hash;
  spin_.hash = 0;
  spin_.reads = false;
  if (!same) {
    stop_spinning();
    spin_.branch = pc;
    spin_.top = target;
    return;
  }
  if (!spin_.counted) {
    if (!ctx.spin_iterations || ++spin_.repeats < ctx.spin_iterations) return;
    spin_.counted = true;
    ++ctx.spinning_warps;
    if (!ctx.spin_suspect && waiting_lanes()) ctx.spin_suspect = this;
  }
  // Checked at every iteration: the last other warp may finish after this one was counted.
  if (ctx.spinning_warps < ctx.live_warps) return;
  std::string msg = "kernel " + cta_.kernel.name + ": every live warp (" + std::to_string(ctx.live_warps) +
                    ") has looped " + std::to_string(ctx.spin_iterations) +
                    " times re-reading the same addresses and values, so none can leave its loop: ";
  throw Error(msg + (ctx.spin_suspect ? "a spin loop that needs independent thread scheduling: " +
                                            ctx.spin_suspect->spin_report()
                                      : "a deadlock between warps; this warp is at " + where()));
}

// Lanes of the warp on its SIMT stack that are not in the loop: they may hold what it waits for.
std::uint32_t Warp::waiting_lanes() const {
  const auto& stack = frames_.back().stack;
  std::uint32_t waiting = 0;
  for (std::size_t i = 0; i + 1 < stack.size(); ++i) waiting |= stack[i].mask;
  return waiting & ~stack.back().mask;
}

std::string Warp::spin_report() const {
  char lanes[16];
  std::snprintf(lanes, sizeof lanes, "0x%08x", waiting_lanes());
  return where() + " (the loop's backward branch at " + location(frames_.back(), spin_.branch) + "): lanes " + lanes +
         " of this warp wait on its SIMT stack, which runs the looping lanes first and reconverges at the loop's "
         "exit, as pre-Volta GPUs do; a GPU with independent thread scheduling (Volta, Turing: the rtx2080ti "
         "preset's TU102) would run the waiting lanes, and this model does not. Let the lane that wins do its work "
         "inside the loop";
}

void Warp::stop_spinning() {
  spin_.repeats = 0;
  if (!spin_.counted) return;
  spin_.counted = false;
  LaunchContext& ctx = cta_.ctx;
  --ctx.spinning_warps;
  if (ctx.spin_suspect == this) ctx.spin_suspect = nullptr;
}

void Warp::do_return(std::uint32_t active) {
  // Threads leaving the kernel: gone from every frame.
  exited_ |= active;
  for (auto& fr : frames_)
    for (auto& e : fr.stack) e.mask &= ~active;
}

// Pops reconverged stack entries and returns finished device-function frames; the frame whose
// top entry holds the next instruction, or nullptr once the warp is done.
Warp::Frame* Warp::settle() {
  if (!settled_) {
    settled_frame_ = settle_now();
    settled_ = true;
  }
  return settled_frame_;
}

Warp::Frame* Warp::settle_now() {
  while (!frames_.empty()) {
    Frame& fr = frames_.back();
    while (fr.stack.size() > 1 && (fr.stack.back().mask == 0 || fr.stack.back().pc == fr.stack.back().rpc))
      fr.stack.pop_back();
    Entry& top = fr.stack.back();
    if (top.mask == 0) {  // every thread of this frame exited
      frames_.clear();
      break;
    }
    if (top.pc >= fr.f->code.size()) {  // a device function returns (or a kernel ran off its end)
      if (frames_.size() == 1) {
        do_return(top.mask);
        frames_.clear();
        break;
      }
      Frame done = std::move(frames_.back());
      frames_.pop_back();
      Frame& caller = frames_.back();
      const ptx::Instruction& call = *done.call;
      const auto rets = static_cast<std::size_t>(call.ops[0].offset);
      for (std::size_t r = 0; r < rets && r < done.f->returns.size(); ++r) {
        const auto& rv = done.f->returns[r];
        const auto& into = caller.f->symbols.at(call.ops[1 + r].symbol);
        for (unsigned l = 0; l < 32; ++l)
          if (done.stack.front().mask >> l & 1)
            std::memcpy(&caller.call_params[l * caller.f->call_param_bytes + into.offset],
                        &done.args[l * done.f->param_bytes + rv.offset], std::min(rv.size, into.size));
      }
      caller.stack.back().pc++;
      spare_.push_back(std::move(done));
      continue;
    }
    return &fr;
  }
  state_ = State::done;
  finished();
  return nullptr;
}

const ptx::Instruction* Warp::next() {
  Frame* fr = settle();
  return fr ? &fr->f->code[fr->stack.back().pc] : nullptr;
}

void Warp::issue(Step& step) {
  step.clear();
  {
    Frame* fp = settle();
    if (!fp) return;
    settled_ = false;  // what follows may move the pc, reconverge, call or return
    Frame& fr = *fp;
    Entry& top = fr.stack.back();
    const std::uint32_t pc = top.pc;
    const ptx::Instruction& in = fr.f->code[pc];
    std::uint32_t active = top.mask;
    if (spin_.repeats && (pc < spin_.top || pc > spin_.branch)) stop_spinning();  // it left the loop
    if (in.guarded) {
      // Each lane's guard bit (negated if asked) at its place, one branch-free pass over the warp.
      const std::uint32_t flip = in.guard_negated ? 1 : 0;
      std::uint32_t g = fr.with_row(in.guard, [flip](const auto* p) {
        std::uint32_t bits = 0;
        for (unsigned l = 0; l < 32; ++l) bits |= ((static_cast<std::uint32_t>(p[l]) & 1) ^ flip) << l;
        return bits;
      });
      g &= active;
      if (in.op == Op::bra || in.op == Op::ret || in.op == Op::exit) {
        step.inst = &in;
        step.pc = pc;
        step.active = g;
        ++instructions_;
        if (in.op == Op::bra) {
          branch(fr, pc, in, g, active);
          if (g && in.target <= pc) watch_spin(pc, in.target);
        } else if (in.op == Op::exit || frames_.size() == 1) {
          do_return(g);
          if (top.mask) top.pc = pc + 1;
        } else {
          branch(fr, pc, in, g, active);  // ret from a device function: to its exit
        }
        return;
      }
      active = g;
    }
    step.inst = &in;
    step.pc = pc;
    step.active = active;
    ++instructions_;
    top.pc = pc + 1;
    if (active) {
      try {
        execute(fr, in, active, step);
      } catch (const std::invalid_argument& e) {
        throw Error(where() + ": " + e.what());
      }
      if (in.op == Op::ld || in.op == Op::ldu || in.op == Op::atom) fold_reads(step);
      else if (in.op == Op::bra && in.target <= pc) watch_spin(pc, in.target);
    }
  }
}

void Warp::complete(const Step& s) {
  if (frames_.empty()) return;
  // Writes go to the frame the instruction ran in; a call pushes a frame after its writes.
  Frame& fr = frames_.size() > 1 && s.inst && s.inst->op == Op::call ? frames_[frames_.size() - 2] : frames_.back();
  for (const auto& w : s.writes) {
    if (w.reg >= fr.layout->row.size())  // the frame it was meant for has returned
      throw std::logic_error(where() + ": a write-back to register " + std::to_string(w.reg) + " outlived its function's frame");
    fr.with_row(w.reg, [&w](auto* regs) {  // a narrow row keeps the value's low 32 bits
      using Lane = std::remove_pointer_t<decltype(regs)>;
      if (w.mask == ~0u)
        for (unsigned l = 0; l < 32; ++l) regs[l] = static_cast<Lane>(w.value[l]);
      else
        for (std::uint32_t m = w.mask; m; m &= m - 1) {
          const unsigned l = static_cast<unsigned>(__builtin_ctz(m));
          regs[l] = static_cast<Lane>(w.value[l]);
        }
    });
  }
}

void Warp::call(Frame& fr, const ptx::Instruction& in, std::uint32_t active) {
  if (in.indirect && !active) return;  // no lane names a function: nothing is called
  const ptx::Function& callee = cta_.ctx.module->functions.at(in.indirect ? indirect_target(fr, in, active) : in.target);
  if (callee.name == "vprintf") return vprintf(fr, in, active);
  if (!callee.unsupported.empty()) throw Error(where() + ": call to " + callee.name + ", which cannot run: " + callee.unsupported);
  if (callee.code.empty())
    throw Error(where() + ": call to external function '" + callee.name + "' is not supported");
  const auto rets = static_cast<std::size_t>(in.ops[0].offset);
  if (callee.params.size() != in.ops.size() - 1 - rets)
    throw Error(where() + ": call to " + callee.name + " with the wrong number of arguments");
  fr.stack.back().pc--;  // the caller resumes after the call once the callee returns
  Frame f = make_frame(callee);
  f.call = &in;
  f.stack.push_back({0, static_cast<std::uint32_t>(callee.code.size()), active});
  for (std::size_t a = 0; a < callee.params.size(); ++a) {
    const auto& p = callee.params[a];
    const Operand& arg = in.ops[1 + rets + a];
    for (unsigned l = 0; l < 32; ++l) {
      if (!(active >> l & 1)) continue;
      std::uint8_t* dst = &f.args[l * callee.param_bytes + p.offset];
      if (arg.kind == OperandKind::symbol && !arg.global_symbol && fr.f->symbols.at(arg.symbol).space == Space::param &&
          !fr.f->symbols.at(arg.symbol).argument) {
        const auto& v = fr.f->symbols.at(arg.symbol);
        std::memcpy(dst, &fr.call_params[l * fr.f->call_param_bytes + v.offset], std::min(v.size, p.size));
      } else {
        const std::uint64_t v = read(fr, arg, l, p.type);
        std::memcpy(dst, &v, std::min<std::uint64_t>(8, p.size));
      }
    }
  }
  frames_.push_back(std::move(f));
}

// The function an indirect call's register names: the same one in every active lane (a
// function address, ptx::kFunctionAddress + its index).
std::uint32_t Warp::indirect_target(const Frame& fr, const ptx::Instruction& in, std::uint32_t active) const {
  ptx::Operand reg;
  reg.kind = ptx::OperandKind::reg;
  reg.reg = in.target;
  const std::size_t functions = cta_.ctx.module->functions.size();
  std::uint64_t target = 0;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(active >> l & 1)) continue;
    const std::uint64_t v = read(fr, reg, l, Type::u64);
    if (v < ptx::kFunctionAddress || v - ptx::kFunctionAddress >= functions) {
      std::ostringstream s;
      s << where() << ": indirect call through " << fr.f->registers.at(in.target).name << " to 0x" << std::hex << v
        << ", which is not a function's address (lane " << std::dec << l << ")";
      throw Error(s.str());
    }
    if (target && v != target)
      throw Error(where() + ": indirect call whose lanes call different functions (not supported: the lanes would run them one after another)");
    target = v;
  }
  return static_cast<std::uint32_t>(target - ptx::kFunctionAddress);
}

void Warp::vprintf(Frame& fr, const ptx::Instruction& in, std::uint32_t active) {
  const auto rets = static_cast<std::size_t>(in.ops[0].offset);
  auto arg_u64 = [&](std::size_t a, unsigned l) {
    const Operand& o = in.ops[1 + rets + a];
    std::uint64_t v = 0;
    if (o.kind == OperandKind::symbol && !o.global_symbol) {
      const auto& s = fr.f->symbols.at(o.symbol);
      std::memcpy(&v, &fr.call_params[l * fr.f->call_param_bytes + s.offset], 8);
    } else {
      v = read(fr, o, l, Type::u64);
    }
    return v;
  };
  for (unsigned l = 0; l < 32; ++l) {
    if (!(active >> l & 1)) continue;
    const std::uint64_t fmt_addr = arg_u64(0, l), args = arg_u64(1, l);
    std::string fmt;
    for (std::uint64_t a = fmt_addr;; ++a) {
      char c;
      load(fr, Space::generic, a, l, &c, 1);
      if (!c || fmt.size() > 4096) break;
      fmt += c;
    }
    std::string out;
    std::uint64_t at = args;
    for (std::size_t i = 0; i < fmt.size(); ++i) {
      if (fmt[i] != '%') {
        out += fmt[i];
        continue;
      }
      std::size_t j = i + 1;
      while (j < fmt.size() && std::strchr("-+ #0123456789.", fmt[j])) ++j;
      std::string lenmod;
      while (j < fmt.size() && std::strchr("hlLzjt", fmt[j])) lenmod += fmt[j++];
      if (j >= fmt.size()) break;
      const char conv = fmt[j];
      std::string spec = fmt.substr(i, j - i);
      i = j;
      if (conv == '%') {
        out += '%';
        continue;
      }
      // vprintf's argument buffer: each argument aligned to its size; floats promoted to double.
      const bool wide = conv == 'f' || conv == 'e' || conv == 'g' || conv == 'E' || conv == 'G' || conv == 'a' ||
                        conv == 's' || conv == 'p' || lenmod.find('l') != std::string::npos;
      const unsigned size = wide ? 8 : 4;
      at = (at + size - 1) / size * size;
      std::uint64_t raw = 0;
      load(fr, Space::generic, at, l, &raw, size);
      at += size;
      char buf[512];
      if (conv == 'f' || conv == 'e' || conv == 'g' || conv == 'E' || conv == 'G' || conv == 'a') {
        std::snprintf(buf, sizeof buf, (spec + conv).c_str(), f64(raw));
      } else if (conv == 's') {
        std::string str;
        for (std::uint64_t a = raw; str.size() < 4096; ++a) {
          char c;
          load(fr, Space::generic, a, l, &c, 1);
          if (!c) break;
          str += c;
        }
        std::snprintf(buf, sizeof buf, (spec + "s").c_str(), str.c_str());
      } else if (conv == 'c') {
        std::snprintf(buf, sizeof buf, (spec + "c").c_str(), static_cast<int>(raw));
      } else if (conv == 'd' || conv == 'i') {
        std::snprintf(buf, sizeof buf, (spec + "lld").c_str(), wide ? static_cast<long long>(raw) : static_cast<long long>(sext(raw, 32)));
      } else {
        std::snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(), static_cast<unsigned long long>(wide ? raw : zext(raw, 32)));
      }
      out += buf;
    }
    if (cta_.ctx.printf_out) cta_.ctx.printf_out(out);
  }
  if (rets) {  // vprintf returns the argument count; nvcc code ignores it
    const auto& r = fr.f->symbols.at(in.ops[1].symbol);
    for (unsigned l = 0; l < 32; ++l)
      if (active >> l & 1) std::memset(&fr.call_params[l * fr.f->call_param_bytes + r.offset], 0, 4);
  }
}

}  // namespace irr::core
