// SPDX-License-Identifier: Apache-2.0
#include "models/gpu/front_end.h"

namespace irr::gpu {

using tlm_glue::gpu;

FrontEndPort::FrontEndPort(const sc_core::sc_module_name& name, sim::Simulation& sim, const mem::AddressMap& map,
                           tlm_glue::PayloadPool& pool, std::uint32_t source)
    : sc_core::sc_module(name),
      mem_side("mem_side", *this),
      map_(map),
      pool_(pool),
      source_(source),
      line_(static_cast<std::uint32_t>(sim.config().get_size("l2.line_size"))),
      requests_(sim.counter(*this, "requests", "line reads the front end sent to the L2", "requests")),
      bytes_(sim.counter(*this, "bytes", "bytes the front end read", "bytes")) {
  sim.clock("core").add(*this);
  sim.watch(this->name(), *this);
}

void FrontEndPort::read(std::uint64_t address, std::uint64_t bytes, std::function<void()> done) {
  const std::uint64_t first = address / line_, last = (address + std::max<std::uint64_t>(bytes, 1) - 1) / line_;
  const std::uint64_t id = next_id_++;
  reads_[id] = {static_cast<std::uint32_t>(last - first + 1), std::move(done)};
  for (std::uint64_t l = first; l <= last; ++l) queue_.emplace_back(l * line_, id);
  wake();
}

bool FrontEndPort::tick(sim::Cycle) {
  const sim::Picoseconds now = sim::now_ps();
  while (mem_side.has_response(now)) {
    tlm::tlm_generic_payload& p = mem_side.pop_response(now);
    const auto it = reads_.find(gpu(p).tag);
    p.release();
    if (--it->second.lines == 0) {
      auto done = std::move(it->second.done);
      reads_.erase(it);
      done();
    }
  }
  if (!queue_.empty() && mem_side.can_send(now)) {
    const auto [line, id] = queue_.front();
    queue_.pop_front();
    tlm::tlm_generic_payload& p = pool_.allocate();
    auto& g = gpu(p);
    g.sm = source_;
    g.access = tlm_glue::Access::load;
    g.line = line;
    g.sectors = ~0u;
    g.bytes = line_;
    g.partition = map_.partition(line);
    g.issued_ps = now;
    g.tag = static_cast<std::uint32_t>(id);
    p.set_address(line);
    p.set_command(tlm::TLM_READ_COMMAND);
    p.set_data_length(line_);
    ++requests_;
    bytes_ += line_;
    mem_side.send(p, now);
  }
  // Waiting for replies needs no ticking: the network wakes this port when one arrives.
  return !queue_.empty();
}

std::vector<std::string> FrontEndPort::outstanding() const {
  if (reads_.empty()) return {};
  return {std::to_string(reads_.size()) + " reads waiting for the L2 (" + std::to_string(queue_.size()) +
          " line requests not yet sent)"};
}

}  // namespace irr::gpu
