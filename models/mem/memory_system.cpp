// SPDX-License-Identifier: Apache-2.0
#include "models/mem/memory_system.h"

namespace irr::mem {

AddressMap address_map(const sim::Config& c) {
  AddressMap m;
  m.partitions = static_cast<std::uint32_t>(c.get_uint("l2.partitions"));
  m.granularity = c.get_size("address_map.granularity");
  m.xor_hash = c.get_bool("address_map.xor_hash");
  return m;
}

MemorySystem::MemorySystem(const sc_core::sc_module_name& name, sim::Simulation& sim)
    : sc_core::sc_module(name), map_(address_map(sim.config())) {
  const auto sms = static_cast<std::uint32_t>(sim.config().get_uint("gpu.num_sms"));
  const std::string trace_file = sim.config().get_string("traffic.trace");
  const bool from_trace = sim.config().get_string("traffic.pattern") == "trace";
  if (from_trace && trace_file.empty()) throw Error("traffic.pattern: trace needs traffic.trace", Error::Kind::config);
  auto traces = from_trace ? read_trace(trace_file, sms) : std::vector<std::vector<WarpInstruction>>(sms);
  if (map_.granularity < sim.config().get_size("l2.line_size"))
    throw Error("address_map.granularity must be at least l2.line_size", Error::Kind::config);
  for (std::uint32_t i = 0; i < sms; ++i) {
    const std::string sm = "sm" + std::to_string(i);
    generators_.push_back(std::make_unique<TrafficGenerator>((sm + "_traffic").c_str(), sim, i, store_, std::move(traces[i])));
    l1_.push_back(std::make_unique<L1Cache>((sm + "_l1").c_str(), sim, i, map_, pool_, *generators_.back()));
    generators_.back()->connect(*l1_.back());
  }
  crossbar_ = std::make_unique<Crossbar>("interconnect", sim, sms, map_.partitions);
  for (std::uint32_t p = 0; p < map_.partitions; ++p)
    partitions_.push_back(std::make_unique<MemoryPartition>(("partition" + std::to_string(p)).c_str(), sim, p, map_));
  for (std::uint32_t i = 0; i < sms; ++i)
    tlm_glue::bind_hop(sim, l1_[i]->mem_side.socket, crossbar_->sm_side[i]->socket, "check_sm" + std::to_string(i), checkers_);
  for (std::uint32_t p = 0; p < map_.partitions; ++p)
    tlm_glue::bind_hop(sim, crossbar_->mem_side[p]->socket, partitions_[p]->target.socket, "check_partition" + std::to_string(p), checkers_);
  sim.watch(this->name(), *this);
  add_summary(sim);
}

// Whole-system figures under memory.total.*, the summary `make run` prints.
void MemorySystem::add_summary(sim::Simulation& sim) {
  auto& stats = sim.stats();
  const std::string prefix = std::string(name()) + ".";
  auto total = [&stats, prefix](const std::string& suffix) { return stats.sum(prefix, suffix); };
  auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
  const std::string t = std::string(name()) + ".total.";
  stats.formula(t + "instructions", "warp memory instructions issued, all SMs", "instructions",
                [=] { return total("_traffic.instructions"); });
  stats.formula(t + "requests_per_instruction", "line requests per warp memory instruction", "requests",
                [=] { return ratio(total("_traffic.requests"), total("_traffic.instructions")); });
  stats.formula(t + "l1_hit_rate", "L1 load hits per load access", "ratio",
                [=] { return ratio(total("_l1.hits"), total("_l1.hits") + total("_l1.misses")); });
  stats.formula(t + "l2_hit_rate", "L2 hits per L2 access", "ratio",
                [=] { return ratio(total(".l2.hits"), total(".l2.accesses")); });
  stats.formula(t + "dram_row_hit_rate", "DRAM accesses to an open row", "ratio", [=] {
    return ratio(total(".dram.row_hits"), total(".dram.row_hits") + total(".dram.row_misses") + total(".dram.row_conflicts"));
  });
  const double bytes_per_cycle = static_cast<double>(sim.config().get_size("dram.bus_width") * sim.config().get_uint("dram.data_rate"));
  stats.formula(t + "dram_bandwidth", "DRAM data moved over the run's time", "GB/s", [=] {
    const double seconds = static_cast<double>(sim::now_ps()) * 1e-12;
    return seconds > 0 ? total(".dram.bus_busy_cycles") * bytes_per_cycle / seconds / 1e9 : 0.0;
  });
  stats.formula(t + "reservation_fails", "cycles accesses waited for MSHRs or queues, L1 and L2", "cycles",
                [=] { return total(".reservation_fails"); });
}

std::vector<std::string> MemorySystem::outstanding() const {
  if (!pool_.in_use()) return {};
  return {std::to_string(pool_.in_use()) + " transaction payloads still allocated (a request never answered or a leak)"};
}

}  // namespace irr::mem
