// SPDX-License-Identifier: Apache-2.0
#include "models/gpu/hwwl_gpu.h"

#include <algorithm>
#include <deque>
#include <map>
#include <stdexcept>

#include "sim/error.h"

namespace irr::gpu {

using hwwl::HwwlUnit;
using hwwl::kRefill;
using hwwl::kWait;
using hwwl::MemoryPort;
using hwwl::Mode;
using hwwl::Worklist;

namespace {

// One use's modifiers and operand count, else std::invalid_argument with the reason.
std::function<void(core::ptx::Instruction&, const std::vector<std::string>&)> decoder(const char* name, const char* type,
                                                                                       core::ptx::Type t, std::size_t ops) {
  return [=](core::ptx::Instruction& in, const std::vector<std::string>& mods) {
    if (mods != std::vector<std::string>{type})
      throw std::invalid_argument(std::string(name) + " takes ." + type);
    if (in.ops.size() != ops)
      throw std::invalid_argument(std::string(name) + " takes " + std::to_string(ops) + " operand" + (ops > 1 ? "s" : ""));
    in.type = t;
  };
}

std::uint32_t first_lane(std::uint32_t active) { return static_cast<std::uint32_t>(__builtin_ctz(active)); }

}  // namespace

void add_hwwl_instructions(core::ptx::ExtensionRegistry& registry) {
  using core::ptx::Type;
  const struct {
    const char* name;
    const char* type;
    Type t;
    std::size_t ops;
  } table[] = {{"wlinit", "u64", Type::u64, 2}, {"wlcfg", "u32", Type::u32, 1}, {"wlpull", "b32", Type::b32, 1},
               {"wlpush", "b32", Type::b32, 1}};
  for (const auto& i : table) {
    if (registry.find(i.name)) continue;
    core::ptx::Extension e;
    e.name = i.name;
    e.unit = "hwwl";
    e.route = "hwwl";
    e.enable = "hwwl.enabled: true, timing mode; the workloads' hwwl variants set it";
    e.decode = decoder(i.name, i.type, i.t, i.ops);
    registry.add(e);
  }
}

// One SM's side: backpressure on the banks' ports, completion after the warp's passes (or its
// refills), and the HVU's memory traffic through the SM's LD/ST path at low priority.
class SmAdapter : public core::SmUnit, public sim::Clocked, public sim::Outstanding, public MemoryPort {
 public:
  // `pull` and `push`: the registry indices of wlpull and wlpush, the instructions that use banks.
  SmAdapter(HwwlGpu& hwwl, std::uint32_t sm, sim::ClockScheduler& clock, std::uint32_t line, std::uint16_t pull,
            std::uint16_t push)
      : hwwl_(hwwl), sm_(sm), clock_(clock), line_(line), pull_(pull), push_(push) {
    clock.add(*this);
  }

  // For the watchdog: the warps whose pulls keep answering WAIT (or REFILL) for all their threads.
  std::vector<std::string> outstanding() const override {
    std::vector<std::string> v;
    for (const auto& [slot, n] : spinning_)
      v.push_back("SM " + std::to_string(sm_) + " warp slot " + std::to_string(slot) + ": " + std::to_string(n) +
                  " wlpull in a row answered WAIT for every thread");
    if (!ops_.empty()) v.push_back("SM " + std::to_string(sm_) + ": " + std::to_string(ops_.size()) + " warp operations in the HWWL");
    return v;
  }

  bool can_accept(const core::UnitOp& op) override {
    const std::uint16_t e = op.instruction->extension;
    if (e != pull_ && e != push_) return true;
    return hwwl_.unit().warp_ports_free(sm_, op.active);
  }

  void accept(const core::UnitOp& op, core::SmPort& port) override {
    port_ = &port;
    const std::uint32_t passes = hwwl_.unit().worklist().passes(op.active);
    const std::uint32_t backoff = pull_waited_ ? hwwl_.backoff_ : 0;  // every thread told WAIT: let other warps issue
    ops_.push_back({op.token, clock_.now_cycle() + std::max(passes, 1u) + backoff, refill_lanes_});
    refill_lanes_ = 0;
    if (pull_waited_) ++spinning_[op.warp];
    else if (op.instruction->extension == pull_) spinning_.erase(op.warp);
    pull_waited_ = false;
    wake();
  }

  bool tick(sim::Cycle c) override {
    for (auto it = ops_.begin(); it != ops_.end();) {
      if (it->due > c || !refills_landed(it->refill_lanes)) {
        ++it;
        continue;
      }
      port_->complete(it->token);
      it = ops_.erase(it);
    }
    return !ops_.empty();
  }

  void kernel_begin(const core::KernelLaunch&, core::SmPort& port) override { port_ = &port; }
  void warp_exit(std::uint32_t warp, core::SmPort&) override { hwwl_.unit().release_warp(sm_, warp); }
  void kernel_end(const core::KernelLaunch&, core::SmPort&) override {
    if (++hwwl_.kernel_ends_ == hwwl_.adapters_.size()) {
      hwwl_.kernel_ends_ = 0;
      hwwl_.unit().kernel_end();
    }
  }

  // The HVU's accesses: one line access per line touched, below the warps' accesses.
  void store(std::uint64_t address, std::vector<std::uint32_t> ids, std::function<void()> done) override {
    issue(tlm_glue::Access::store, address, 4 * ids.size(), std::move(done));
  }
  void load(std::uint64_t address, std::uint32_t count, std::function<void(std::vector<std::uint32_t>)> done) override {
    issue(tlm_glue::Access::load, address, 4ull * count, [done, count] { done(std::vector<std::uint32_t>(count)); });
  }
  void memory_reply(std::uint64_t tag, core::SmPort&) override {
    auto it = replies_.find(tag);
    if (--it->second.lines == 0) {
      auto done = std::move(it->second.done);
      replies_.erase(it);
      done();
    }
  }

  // From the semantics of the pull being issued, for its accept(): lanes waiting for refills, and
  // whether every active thread was answered WAIT or REFILL.
  void note_pull(std::uint32_t refill_lanes, bool waited) {
    refill_lanes_ |= refill_lanes;
    pull_waited_ = waited;
  }

 private:
  struct Op {
    std::uint64_t token;
    sim::Cycle due;
    std::uint32_t refill_lanes;  // threads whose pull waits for a refill to land
  };
  struct Reply {
    std::uint32_t lines;
    std::function<void()> done;
  };
  bool refills_landed(std::uint32_t threads) const {
    const Worklist& wl = hwwl_.unit().worklist();
    for (unsigned t = 0; t < 32; ++t)
      if (threads >> t & 1 && wl.bank(sm_, t % wl.lanes()).reserved() > 0) return false;
    return true;
  }
  void issue(tlm_glue::Access kind, std::uint64_t address, std::uint64_t bytes, std::function<void()> done) {
    if (!port_) throw std::logic_error("HWWL: HVU memory access before any kernel reached SM " + std::to_string(sm_));
    const std::uint64_t first = address / line_, last = (address + bytes - 1) / line_;
    const std::uint64_t tag = next_tag_++;
    replies_[tag] = {static_cast<std::uint32_t>(last - first + 1), std::move(done)};
    for (std::uint64_t l = first; l <= last; ++l) {
      mem::MemAccess a;
      a.access = kind;
      a.line = l * line_;
      a.address = std::max(address, a.line);
      a.bytes = static_cast<std::uint32_t>(std::min(address + bytes, a.line + line_) - a.address);
      a.sectors = ~0u;
      port_->inject(*this, a, true, tag);
    }
  }

  HwwlGpu& hwwl_;
  const std::uint32_t sm_;
  sim::ClockScheduler& clock_;
  const std::uint32_t line_;
  core::SmPort* port_ = nullptr;
  std::deque<Op> ops_;
  std::uint32_t refill_lanes_ = 0;  // from the semantics of the pull being issued, for its accept()
  bool pull_waited_ = false;
  std::map<std::uint32_t, std::uint64_t> spinning_;  // warp slot -> pulls in a row all WAIT
  std::map<std::uint64_t, Reply> replies_;
  std::uint64_t next_tag_ = 0;
  const std::uint16_t pull_, push_;
};

HwwlGpu::HwwlGpu(sim::Simulation& sim, gpu::Gpu& gpu, core::ptx::ExtensionRegistry& registry) {
  const auto cores = static_cast<std::uint32_t>(gpu.sms());
  const auto lanes = static_cast<std::uint32_t>(sim.config().get_uint("core.simd_width"));
  unit_ = std::make_unique<HwwlUnit>("hwwl", sim, cores, lanes);
  const auto line = static_cast<std::uint32_t>(sim.config().get_size("l1.line_size"));
  backoff_ = static_cast<std::uint32_t>(sim.config().get_uint("hwwl.wait_backoff"));
  gto_ = sim.config().get_string("core.scheduler") == "gto";
  sim.watch("gpu.hwwl", *this);
  add_hwwl_instructions(registry);
  const std::uint16_t pull = registry.index_of("wlpull"), push = registry.index_of("wlpush");
  gpu.attach_sm_units("hwwl", [&](core::Sm& sm) {
    auto a = std::make_unique<SmAdapter>(*this, static_cast<std::uint32_t>(adapters_.size()), sim.clock("core"), line,
                                         pull, push);
    sim.watch(std::string(sm.name()) + ".hwwl", *a);
    adapters_.push_back(a.get());
    return a;
  });
  // Each instruction's semantics; an error (the hardware exception, a bad wlinit) names the
  // kernel, the SM and the instruction's PTX line.
  auto bind = [&](const char* name, std::function<void(core::ptx::ExtensionCall&)> f) {
    registry.at(registry.index_of(name)).execute = [f = std::move(f)](core::ptx::ExtensionCall& c) {
      try {
        f(c);
      } catch (const Error& e) {
        throw Error("kernel " + c.kernel() + ", SM " + std::to_string(c.sm()) + ", PTX line " +
                        std::to_string(c.instruction().ptx_line) + ": " + e.what(),
                    e.kind());
      }
    };
  };
  bind("wlinit", [this](core::ptx::ExtensionCall& c) {
    if (!c.active()) return;
    const unsigned l = first_lane(c.active());
    unit_->wlinit(c.read(0, l), c.read(1, l), [this](std::uint32_t core) -> MemoryPort& { return *adapters_.at(core); });
  });
  bind("wlcfg", [this](core::ptx::ExtensionCall& c) {
    if (!c.active()) return;
    unit_->wlcfg(c.read(0, first_lane(c.active())) ? Mode::double_buffer : Mode::single);
  });
  bind("wlpull", [this](core::ptx::ExtensionCall& c) {
    std::uint32_t out[32] = {};
    unit_->warp_pull(c.sm(), c.slot(), c.active(), out);
    std::uint32_t refills = 0;
    bool waited = c.active() != 0;
    for (unsigned t = 0; t < 32; ++t)
      if (c.active() >> t & 1) {
        c.write(0, t, out[t]);
        if (out[t] == kRefill) refills |= 1u << t;
        waited = waited && (out[t] == kWait || out[t] == kRefill);
      }
    adapters_.at(c.sm())->note_pull(refills, waited);
  });
  bind("wlpush", [this](core::ptx::ExtensionCall& c) {
    std::uint32_t ids[32] = {};
    for (unsigned t = 0; t < 32; ++t)
      if (c.active() >> t & 1) ids[t] = static_cast<std::uint32_t>(c.read(0, t));
    unit_->warp_push(c.sm(), c.active(), ids);
  });
}

HwwlGpu::~HwwlGpu() = default;

std::vector<std::string> HwwlGpu::outstanding() const {
  const Worklist& wl = unit_->worklist();
  if (!gto_ || !wl.holders() || wl.bank(0, 0).mode() != Mode::single) return {};
  return {std::to_string(wl.holders()) +
          " threads hold a work ID and have not pulled again, and single-buffer DONE waits for them; under GTO "
          "scheduling the oldest warps spinning on WAIT keep the issue slots and those threads may never run again: "
          "set core.scheduler: lrr, or raise hwwl.wait_backoff (" + std::to_string(backoff_) +
          " cycles now) to some hundreds (docs/hwwl.md)"};
}

void HwwlGpu::serve(runtime::Device& device) {
  device.set_query("hwwl.work_remains", [this] { return std::uint64_t{work_remains()}; });
  device.set_query("hwwl.cores", [this] { return std::uint64_t{unit_->worklist().cores()}; });
  device.set_query("hwwl.double_buffer", [mode = unit_->worklist().bank(0, 0).mode()] {
    return std::uint64_t{mode == hwwl::Mode::double_buffer};
  });
}

}  // namespace irr::gpu
