// SPDX-License-Identifier: Apache-2.0
#include "models/gpu/iru_gpu.h"

#include <stdexcept>

#include "models/mem/memory_system.h"
#include "sim/error.h"

namespace irr::gpu {

namespace {

constexpr std::uint32_t kWordBytes = 4;  // each of index, position and secondary value in a reply

}  // namespace

void add_iru_instructions(core::ptx::ExtensionRegistry& registry) {
  if (registry.find("ldiru")) return;
  core::ptx::Extension e;
  e.name = "ldiru";
  e.unit = "iru";
  e.route = "iru";
  e.enable = "iru.enabled: true, timing mode; the workloads' iru variants set it";
  e.decode = [](core::ptx::Instruction& in, const std::vector<std::string>& mods) {
    if (mods != std::vector<std::string>{"b32"}) throw std::invalid_argument("ldiru takes .b32");
    if (in.ops.size() < 2 || in.ops.size() > 4)
      throw std::invalid_argument("ldiru takes 2 to 4 operands: valid, index[, secondary[, position]]");
    in.type = core::ptx::Type::b32;
  };
  registry.add(e);
}

// One SM's side: each ldiru becomes one request to a partition's IRU, around the L1.
class IruGpu::SmSide : public core::SmUnit {
 public:
  SmSide(IruGpu& owner, std::uint32_t sm) : owner_(owner), sm_(sm) {}
  bool can_accept(const core::UnitOp&) override { return true; }  // the partition's FIFO pushes back
  void accept(const core::UnitOp& op, core::SmPort& port) override {
    if (!op.active) {  // no thread executes it: nothing to ask
      port.complete(op.token);
      return;
    }
    const std::uint32_t id = owner_.next_id_++;
    owner_.pending_[id] = Pending{op.token, sm_, op.warp, op.active, op.instruction->ops.size(), nullptr, {}};
    mem::MemAccess a;
    a.unit_partition = static_cast<std::int32_t>(next_partition_);
    a.tag = id;
    next_partition_ = (next_partition_ + 1) % static_cast<std::uint32_t>(owner_.partitions_.size());
    port.inject(*this, a, false, id);
  }
  void memory_reply(std::uint64_t tag, core::SmPort& port) override {
    auto it = owner_.pending_.find(static_cast<std::uint32_t>(tag));
    const Pending& pd = it->second;
    std::vector<core::LaneValue> v;
    std::size_t k = 0;
    for (std::uint32_t l = 0; l < 32; ++l) {
      if (!(pd.active >> l & 1)) continue;
      const bool got = k < pd.elements.size();
      const iru::Element e = got ? pd.elements[k++] : iru::Element{};
      const std::uint64_t values[] = {got, e.index, e.secondary, e.position};
      for (std::uint32_t o = 0; o < pd.operands; ++o) v.push_back({o, l, values[o]});
    }
    const std::uint64_t token = pd.token;
    owner_.pending_.erase(it);
    port.complete(token, v);
  }
  void kernel_begin(const core::KernelLaunch&, core::SmPort&) override {
    if (owner_.begins_++ == 0) {
      owner_.timed_ = true;
      owner_.unit_->start();
    }
  }
  void kernel_end(const core::KernelLaunch&, core::SmPort&) override {
    if (++owner_.ends_ < owner_.sms_.size()) return;
    owner_.begins_ = owner_.ends_ = 0;
    owner_.timed_ = false;
    owner_.unit_->finish();
  }

 private:
  IruGpu& owner_;
  const std::uint32_t sm_;
  std::uint32_t next_partition_ = 0;
};

// One memory partition's side: warp requests into the IRU partition's FIFO; prefetch reads back.
class IruGpu::PartitionSide : public mem::PartitionUnit {
 public:
  PartitionSide(IruGpu& owner, std::uint32_t index) : owner_(owner), index_(index) {}
  bool accept(tlm::tlm_generic_payload& p, mem::MemoryPartition&) override {
    iru::Iru& u = *owner_.unit_;
    if (!u.can_request(index_)) return false;
    Pending& pd = owner_.pending_.at(tlm_glue::gpu(p).tag);
    pd.payload = &p;
    u.request(index_, iru::Request{tlm_glue::gpu(p).tag, static_cast<std::uint32_t>(__builtin_popcount(pd.active)), pd.sm,
                                   pd.warp});
    return true;
  }
  void response(tlm::tlm_generic_payload& p, mem::MemoryPartition&) override {
    const std::uint64_t tag = tlm_glue::gpu(p).id;
    p.release();
    owner_.unit_->read_done(tag);
  }

 private:
  IruGpu& owner_;
  const std::uint32_t index_;
};

IruGpu::IruGpu(sim::Simulation& sim, gpu::Gpu& gpu, core::ptx::ExtensionRegistry& registry)
    : gpu_(gpu), map_(mem::address_map(sim.config())) {
  const auto parts = static_cast<std::uint32_t>(gpu.partitions());
  unit_ = std::make_unique<iru::Iru>("iru", sim, iru::Params::from(sim.config(), parts), *this,
                                     [this](const iru::Reply& r) { reply(r); });
  for (std::uint32_t i = 0; i < parts; ++i) {
    partitions_.push_back(std::make_unique<PartitionSide>(*this, i));
    gpu.partition(i).attach(partitions_.back().get());
  }
  gpu.attach_sm_units("iru", [&](core::Sm&) {
    auto s = std::make_unique<SmSide>(*this, static_cast<std::uint32_t>(sms_.size()));
    sms_.push_back(s.get());
    return s;
  });
  add_iru_instructions(registry);
  for (std::uint16_t i = 0; i < registry.size(); ++i) {
    if (registry.at(i).name != "ldiru") continue;
    registry.at(i).execute = [this](core::ptx::ExtensionCall& c) {
      if (!timed_) return functional(c);
      for (unsigned l = 0; l < 32; ++l)  // the values come with the reply (SmSide::memory_reply)
        if (c.active() >> l & 1)
          for (std::size_t o = 0; o < c.instruction().ops.size(); ++o) c.write(o, l, 0);
    };
  }
}

IruGpu::~IruGpu() = default;

void IruGpu::serve(runtime::Device& device) {
  device.set_command("iru.configure", [this](const std::vector<std::uint64_t>& a) {
    if (a.size() != 6) throw std::logic_error("iru.configure takes 6 arguments");
    if (a[5] > 2) throw Error("configure_iru: filter_op " + std::to_string(a[5]) + " is not 0 (none), 1 (min) or 2 (add_f32)",
                              Error::Kind::usage);
    unit_->configure(iru::Setup{a[0], a[1], a[2], a[3], a[4], static_cast<iru::Filter>(a[5])});
    functional_next_ = 0;
  });
}

void IruGpu::read(std::uint32_t partition, std::uint64_t line, bool bypass_l2, std::uint64_t tag) {
  tlm::tlm_generic_payload& p = pool_.allocate();
  auto& g = tlm_glue::gpu(p);
  g.access = tlm_glue::Access::load;
  g.line = line;
  g.bytes = unit_->params().line;
  g.sectors = ~0u;
  g.partition = partition;
  g.no_allocate = bypass_l2;
  g.id = tag;
  p.set_address(line);
  p.set_command(tlm::TLM_READ_COMMAND);
  p.set_data_length(g.bytes);
  gpu_.partition(partition).issue(p);
}

std::uint32_t IruGpu::load32(std::uint64_t address) const { return gpu_.memory().load<std::uint32_t>(address); }

void IruGpu::reply(const iru::Reply& r) {
  Pending& pd = pending_.at(static_cast<std::uint32_t>(r.id));
  pd.elements = r.elements;
  // The index, and the secondary value and position where the ldiru asks for them.
  const std::uint32_t words = 1 + (pd.operands > 2 && unit_->setup().secondary) + (pd.operands > 3);
  tlm_glue::gpu(*pd.payload).bytes = kWordBytes * (1 + words * static_cast<std::uint32_t>(r.elements.size()));  // + valid mask
  // Back on the hop the request came by (to the partition that took it), from the answering
  // partition's reply port.
  gpu_.partition(tlm_glue::gpu(*pd.payload).partition).reply(*pd.payload, static_cast<std::int32_t>(r.partition));
}

void IruGpu::functional(core::ptx::ExtensionCall& c) {
  if (!unit_->configured())
    throw Error("kernel " + c.kernel() + ", PTX line " + std::to_string(c.instruction().ptx_line) +
                    ": ldiru without configure_iru before the launch",
                Error::Kind::usage);
  const iru::Setup& s = unit_->setup();
  for (unsigned l = 0; l < 32; ++l) {
    if (!(c.active() >> l & 1)) continue;
    const bool got = functional_next_ < s.n;
    const std::uint64_t pos = functional_next_;
    const std::uint64_t values[] = {got, got ? load32(s.indices + 4 * pos) : 0,
                                    got && s.secondary ? load32(s.secondary + 4 * pos) : 0, got ? pos : 0};
    for (std::size_t o = 0; o < c.instruction().ops.size(); ++o) c.write(o, l, values[o]);
    functional_next_ += got;
  }
}

}  // namespace irr::gpu
