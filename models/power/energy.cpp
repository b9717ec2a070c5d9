// SPDX-License-Identifier: Apache-2.0
#include "models/power/energy.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

#include "sim/error.h"

namespace irr::power {

namespace {
constexpr double kReferenceNm = 40, kReferenceVdd = 1.0;
// The area flow's SRAM bitcell with its periphery (rtl/lib/irrgpu45.json: 0.346 um2 / 0.5), in
// mm2 a bit; testbenches/unit/power_test.cpp checks it against the file.
constexpr double kBitcellMm2 = 0.346 / 0.5 * 1e-6;
constexpr double kMicro = 1e-6;  // pJ -> uJ
const std::string kTimeInsideKernels = "energy.time_inside_kernels";
}  // namespace

double SramModel::access_pj(double access_bits, double array_bits) const {
  if (access_bits <= 0 || array_bits <= 0) return 0;
  const double bank = std::min(array_bits, bank_bits);
  double e = access_bits * k_pj * std::pow(bank, exponent);
  if (array_bits > bank_bits) e += access_bits * wire_pj_per_bit_mm * 0.5 * std::sqrt(array_bits * bitcell_mm2);
  return e;
}

Table table(const sim::Config& c) {
  Table t{};
  const double nm = c.get_real("power.technology_nm"), vdd = c.get_real("power.vdd");
  t.scale = nm / kReferenceNm * (vdd / kReferenceVdd) * (vdd / kReferenceVdd);
  auto on_chip = [&](const char* key) { return c.get_real(std::string("power.") + key) * t.scale; };
  t.instruction_pj = on_chip("instruction_pj");
  t.register_lane_pj = on_chip("register_lane_pj");
  t.lane_pj = on_chip("lane_pj");
  t.int_lane_pj = on_chip("int_lane_pj");
  t.fp_lane_pj = on_chip("fp_lane_pj");
  t.sfu_lane_pj = on_chip("sfu_lane_pj");
  t.atomic_pj = on_chip("atomic_pj");
  t.wire_pj_per_bit_mm = on_chip("wire_pj_per_bit_mm");
  t.mean_wire_mm = 2.0 / 3.0 * std::sqrt(c.get_real("power.die_mm2"));
  t.sram = {on_chip("sram_k_pj"), c.get_real("power.sram_exponent"),
            static_cast<double>(c.get_size("power.sram_bank")) * 8, kBitcellMm2 * (nm / kReferenceNm) * (nm / kReferenceNm),
            t.wire_pj_per_bit_mm};
  t.unit_alu_pj = on_chip("unit_alu_pj");
  t.sm_leakage_w = on_chip("sm_leakage_w");
  t.sm_clock_w = on_chip("sm_clock_w");
  t.l2_leakage_w = on_chip("l2_leakage_w");
  t.uncore_w = on_chip("uncore_w");
  t.leakage_w_per_mm2 = (t.sm_leakage_w * static_cast<double>(c.get_uint("gpu.num_sms")) +
                         t.l2_leakage_w * static_cast<double>(c.get_uint("l2.partitions"))) /
                        c.get_real("power.die_mm2");
  t.dram_vdd = c.get_real("power.dram_vdd");
  t.dram_chips = static_cast<double>(c.get_uint("power.dram_chips_per_channel"));
  t.idd0 = c.get_real("power.dram_idd0_ma") * 1e-3;
  t.idd2n = c.get_real("power.dram_idd2n_ma") * 1e-3;
  t.idd3n = c.get_real("power.dram_idd3n_ma") * 1e-3;
  t.idd4r = c.get_real("power.dram_idd4r_ma") * 1e-3;
  t.idd4w = c.get_real("power.dram_idd4w_ma") * 1e-3;
  t.idd5 = c.get_real("power.dram_idd5_ma") * 1e-3;
  t.refresh_interval_s = static_cast<double>(c.get_time("power.dram_refresh_interval")) * 1e-12;
  t.refresh_time_s = static_cast<double>(c.get_time("power.dram_refresh_time")) * 1e-12;
  t.io_pj_per_bit = c.get_real("power.dram_io_pj_per_bit");
  if (t.refresh_interval_s <= 0) throw Error("power.dram_refresh_interval must be above 0", Error::Kind::config);
  return t;
}

namespace {
// One access to a unit's array: the paper's own figure scaled to the node, or the SRAM model.
double access_pj(const Table& t, const Array& a) {
  return a.stated_pj > 0 ? a.stated_pj * t.scale
                         : t.sram.access_pj(a.access_bits > 0 ? a.access_bits : a.width_bits, a.entries * a.width_bits);
}

// The statistic <owner>.<name>.energy: `pj` an event over the weighted events, described as `what`
// followed by the events' names, within the owner or its parent (the same text for every SM's or
// partition's copy).
void declare_energy(sim::Simulation& sim, const std::string& owner, const std::string& name, std::string what,
                    double pj, const Accesses& events) {
  const std::string parent = owner.substr(0, owner.rfind('.') + 1);
  std::ostringstream w;
  w << what << " over";
  for (const auto& [stat, weight] : events) {
    const std::string& n = stat->name();
    w << " " << (weight != 1 ? std::to_string(static_cast<int>(weight)) + " x " : "")
      << (n.rfind(owner + ".", 0) == 0 ? n.substr(owner.size() + 1)
          : !parent.empty() && n.rfind(parent, 0) == 0 ? n.substr(parent.size())
                                                       : n);
  }
  sim.stats().formula(owner + "." + name + ".energy", w.str(), "uJ", [events, pj] {
    double n = 0;
    for (const auto& [stat, weight] : events) n += stat->value() * weight;
    return n * pj * kMicro;
  });
}
}  // namespace

void declare_array(sim::Simulation& sim, const std::string& owner, const Array& a, const Accesses& accesses) {
  const sim::Config& c = sim.config();
  if (!c.get_bool("power.enabled")) return;
  const Table t = table(c);
  const double pj = access_pj(t, a);
  std::ostringstream what;
  what << "energy of the " << a.name << " (" << a.entries << " x " << a.width_bits << " bits; " << pj << " pJ an access, "
       << (a.stated_pj > 0 ? "the paper's figure" : "the SRAM model") << ")";
  declare_energy(sim, owner, a.name, what.str(), pj, accesses);
  // Leakage: the array's area (the SRAM model's bitcell with its periphery) at the chip's leakage
  // density, over the time inside kernels (energy.time_inside_kernels, declared with the GPU's energy).
  const double watts = a.copies * a.entries * a.width_bits * t.sram.bitcell_mm2 * t.leakage_w_per_mm2;
  std::ostringstream leak;
  leak << "leakage of the " << a.name << (a.copies != 1 ? " (" + std::to_string(static_cast<int>(a.copies)) + " of them)" : "")
       << " inside kernels (" << watts * 1e3 << " mW: the area at the chip's leakage density)";
  sim.stats().formula(owner + "." + a.name + ".static_energy", leak.str(), "uJ",
                      [reg = &sim.stats(), watts] {
                        const sim::Stat* s = reg->find(kTimeInsideKernels);
                        return s ? s->value() * watts * 1e6 : 0.0;
                      });
}

void declare_alu(sim::Simulation& sim, const std::string& owner, const std::string& name, const Accesses& operations) {
  if (!sim.config().get_bool("power.enabled")) return;
  const double pj = table(sim.config()).unit_alu_pj;
  std::ostringstream what;
  what << "energy of the " << name << "'s ALU operations (" << pj << " pJ each)";
  declare_energy(sim, owner, name, what.str(), pj, operations);
}

void declare_wire(sim::Simulation& sim, const std::string& owner, const std::string& name, double bits,
                  const Accesses& transfers) {
  if (!sim.config().get_bool("power.enabled")) return;
  const Table t = table(sim.config());
  const double pj = bits * t.mean_wire_mm * t.wire_pj_per_bit_mm;
  std::ostringstream what;
  what << "energy of the " << name << "'s transfers (" << bits << " bits over " << t.mean_wire_mm << " mm: " << pj << " pJ each)";
  declare_energy(sim, owner, name, what.str(), pj, transfers);
}

void declare(sim::Simulation& sim, const Geometry& gpu) {
  const sim::Config& c = sim.config();
  if (!c.get_bool("power.enabled")) return;
  auto& stats = sim.stats();
  const auto t = std::make_shared<const Table>(table(c));
  const std::string sm = gpu.prefix + "sm", part = gpu.prefix + "partition";
  // The sum of the statistics named (those that exist), found when first read: by then the units
  // attached after the GPU have declared theirs (the L1s' fetch path's).
  auto sum_of = [reg = &stats](std::vector<std::string> names) {
    auto found = std::make_shared<std::optional<std::vector<const sim::Stat*>>>();
    return [reg, names = std::move(names), found] {
      if (!*found) {
        found->emplace();
        for (const auto& name : names)
          if (const sim::Stat* s = reg->find(name)) (*found)->push_back(s);
      }
      double v = 0;
      for (const sim::Stat* s : **found) v += s->value();
      return v;
    };
  };
  auto total = [&](const std::string& base, const std::string& leaf) {  // over the SMs or partitions
    std::vector<std::string> names;
    for (std::uint32_t i = 0; i < (base == sm ? gpu.sms : gpu.partitions); ++i)
      names.push_back(base + std::to_string(i) + "." + leaf);
    return sum_of(std::move(names));
  };
  auto one = [&](const std::string& name) { return sum_of({name}); };
  auto bits = [&c](const char* key) { return static_cast<double>(c.get_size(key)) * 8; };
  const double warp_bits = static_cast<double>(c.get_uint("core.warp_size")) * 32;
  const double sms = gpu.sms, partitions = std::max<std::uint32_t>(gpu.partitions, 1);

  // Per-event energy of the arrays, from their configured geometry.
  const double l1_line = t->sram.access_pj(bits("l1.line_size"), bits("l1.size"));
  const double shared_pass = t->sram.access_pj(warp_bits, bits("core.shared_memory"));
  const double const_line = c.get_size("core.const_cache_size")
                                ? t->sram.access_pj(bits("core.const_cache_line"), bits("core.const_cache_size"))
                                : 0;
  const double l2_line = t->sram.access_pj(bits("l2.line_size"), bits("l2.size") / partitions);
  // An MSHR search and write: a 64-bit entry (line address, state) of the file.
  const double l1_mshr = t->sram.access_pj(64, 64.0 * static_cast<double>(c.get_uint("l1.mshrs")));
  const double l2_mshr = t->sram.access_pj(64, 64.0 * static_cast<double>(c.get_uint("l2.mshrs")));
  const double flit = bits("interconnect.flit_size") * t->mean_wire_mm * t->wire_pj_per_bit_mm;

  // DRAM (Micron's IDD method, TN-41-01): an activate-precharge pair above standby; a burst cycle
  // above active standby; refresh above active standby during tRFC; precharge standby in between.
  const double tck = 1.0 / c.get_frequency("clocks.dram");
  const double tras = static_cast<double>(c.get_uint("dram.tRAS")), trp = static_cast<double>(c.get_uint("dram.tRP"));
  const double act_pj =
      std::max(0.0, t->idd0 * (tras + trp) - t->idd3n * tras - t->idd2n * trp) * tck * t->dram_vdd * t->dram_chips * 1e12;
  const double read_cycle_pj = (t->idd4r - t->idd3n) * tck * t->dram_vdd * t->dram_chips * 1e12;
  const double write_cycle_pj = (t->idd4w - t->idd3n) * tck * t->dram_vdd * t->dram_chips * 1e12;
  const double io_bits_per_cycle = bits("dram.bus_width") * static_cast<double>(c.get_uint("dram.data_rate"));

  // Time inside kernels: static power is charged over it (host launch and copy time is not the GPU's work).
  const double core_period_s = 1.0 / c.get_frequency("clocks.core");
  const sim::Stat* kernel_cycles = stats.find(gpu.prefix + "kernel_cycles");
  auto kernel_s = [kernel_cycles, core_period_s] { return kernel_cycles ? kernel_cycles->value() * core_period_s : 0.0; };
  stats.formula(kTimeInsideKernels, "the GPU's time inside kernels, over which static energy is charged", "s", kernel_s);

  using Pj = std::function<double()>;
  struct Part {
    std::string name, description;
    Pj pj;
    bool dynamic;
  };
  std::vector<Part> parts;
  auto per = [](Pj count, double pj) -> Pj { return [count = std::move(count), pj] { return count() * pj; }; };
  auto watts = [kernel_s](double w) -> Pj { return [kernel_s, w] { return w * kernel_s() * 1e12; }; };
  // The SMs' own parts, priced from one scope's statistics: the whole GPU's (each summed over the
  // SMs) for the components, one SM's for energy.smN.
  using Scope = std::function<Pj(const std::string&)>;
  auto sm_parts = [&](const Scope& stat) {
    auto ev = [&](const char* leaf) { return stat(std::string("energy_events.") + leaf); };
    std::vector<Part> v;
    v.push_back({"core.instruction", "instruction fetch, decode and scheduling (power.instruction_pj a warp instruction)",
                 per(stat("warp_instructions"), t->instruction_pj), true});
    v.push_back({"core.register_file", "register-file reads and writes, a whole warp row each (power.register_lane_pj a lane)",
                 [r = ev("register_reads"), w = ev("register_writes"), e = warp_bits / 32 * t->register_lane_pj] {
                   return (r() + w()) * e;
                 },
                 true});
    v.push_back({"core.pipeline", "operand collection, pipeline and result buses, each active lane of each instruction (power.lane_pj)",
                 [i = ev("lanes.int"), f = ev("lanes.fp"), x = ev("lanes.sfu"), o = ev("lanes.other"), pj = t->lane_pj] {
                   return (i() + f() + x() + o()) * pj;
                 },
                 true});
    v.push_back({"core.int", "integer operations, each active lane (power.int_lane_pj)", per(ev("lanes.int"), t->int_lane_pj), true});
    v.push_back({"core.fp", "floating-point operations, each active lane (power.fp_lane_pj)", per(ev("lanes.fp"), t->fp_lane_pj), true});
    v.push_back({"core.sfu", "special-function operations, each active lane (power.sfu_lane_pj)", per(ev("lanes.sfu"), t->sfu_lane_pj), true});
    v.push_back({"core.shared_memory", "shared-memory array passes (the SRAM model at core.shared_memory)",
                 per(ev("shared_accesses"), shared_pass), true});
    v.push_back({"l1", "L1 line accesses and fills (the SRAM model at l1.size; a fill is a miss not merged), the units' fetch path's lookups and fills with them",
                 [a = stat("l1.accesses"), m = stat("l1.misses"), g = stat("l1.mshr_merges"), fa = stat("l1.fetches"),
                  fm = stat("l1.fetch_misses"), l1_line] { return (a() + std::max(0.0, m() - g()) + fa() + fm()) * l1_line; },
                 true});
    return v;
  };
  parts = sm_parts([&](const std::string& leaf) { return total(sm, leaf); });
  parts.push_back({"core.constant_cache", "constant-cache line look-ups (the SRAM model at core.const_cache_size)",
                   per(total(sm, "const.accesses"), const_line), true});
  parts.push_back({"core.clock", "clock tree and latches of the SMs with a resident CTA (power.sm_clock_w; idle SMs gated)",
                   [a = total(sm, "active_cycles"), w = t->sm_clock_w, core_period_s] { return a() * core_period_s * w * 1e12; }, true});
  parts.push_back({"mshr", "MSHR searches and writes of the L1s' and L2 slices' misses (the L1s' fetch path's included)",
                   [m1 = total(sm, "l1.misses"), f1 = total(sm, "l1.fetch_misses"), m2 = total(part, "l2.misses"), l1_mshr, l2_mshr] {
                     return (m1() + f1()) * l1_mshr + m2() * l2_mshr;
                   },
                   true});
  parts.push_back({"interconnect", "flits on the request and reply networks over the mean wire length (power.die_mm2)",
                   [q = one(gpu.prefix + "interconnect.request.flits"), r = one(gpu.prefix + "interconnect.reply.flits"), flit] {
                     return (q() + r()) * flit;
                   },
                   true});
  parts.push_back({"l2", "L2 accesses, fills and write-back reads (the SRAM model at one slice)",
                   [a = total(part, "l2.accesses"), m = total(part, "l2.misses"), g = total(part, "l2.mshr_merges"),
                    w = total(part, "l2.writebacks"), l2_line] { return (a() + std::max(0.0, m() - g()) + w()) * l2_line; },
                   true});
  parts.push_back({"atomic", "atomic operations' arithmetic at the L2 (power.atomic_pj)", per(total(part, "atomic.operations"), t->atomic_pj), true});
  parts.push_back({"dram.activate", "DRAM row activations and their precharges (IDD0 above standby over tRAS + tRP)",
                   [m = total(part, "dram.row_misses"), x = total(part, "dram.row_conflicts"), act_pj] { return (m() + x()) * act_pj; },
                   true});
  parts.push_back({"dram.read_write", "DRAM column bursts (IDD4R or IDD4W above active standby, each data-bus cycle)",
                   [busy = total(part, "dram.bus_busy_cycles"), r = total(part, "dram.reads"), w = total(part, "dram.writes"),
                    read_cycle_pj, write_cycle_pj] {
                     const double n = r() + w();
                     return n > 0 ? busy() * (r() * read_cycle_pj + w() * write_cycle_pj) / n : 0.0;
                   },
                   true});
  parts.push_back({"dram.io", "DRAM interface: every bit on the data bus (power.dram_io_pj_per_bit)",
                   [busy = total(part, "dram.bus_busy_cycles"), e = io_bits_per_cycle * t->io_pj_per_bit] { return busy() * e; }, true});
  parts.push_back({"dram.refresh", "DRAM refresh: IDD5 above active standby for tRFC every tREFI, each chip, inside kernels",
                   [kernel_s, t, partitions] {
                     return kernel_s() / t->refresh_interval_s * (t->idd5 - t->idd3n) * t->refresh_time_s * t->dram_vdd *
                            t->dram_chips * partitions * 1e12;
                   },
                   false});
  parts.push_back({"units", "the units' arrays and logic (every <unit>.<name>.energy: queues, tables, stacks by the SRAM model or the paper's own pJ; ALU operations; wire transfers)",
                   [reg = &stats] { return reg->sum("", ".energy") / kMicro; }, true});
  parts.push_back({"static.units", "the units' arrays' leakage inside kernels (every <unit>.<array>.static_energy)",
                   [reg = &stats] { return reg->sum("", ".static_energy") / kMicro; }, false});
  parts.push_back({"static.sm", "SM leakage, every SM inside kernels (power.sm_leakage_w)", watts(t->sm_leakage_w * sms), false});
  parts.push_back({"static.l2", "L2 slice leakage inside kernels (power.l2_leakage_w)", watts(t->l2_leakage_w * partitions), false});
  parts.push_back({"static.uncore", "the rest of the chip inside kernels (power.uncore_w)", watts(t->uncore_w), false});
  parts.push_back({"static.dram", "DRAM precharge standby (IDD2N) of every chip inside kernels",
                   watts(t->idd2n * t->dram_vdd * t->dram_chips * partitions), false});

  const std::string e = "energy.";
  auto all = std::make_shared<std::vector<Part>>(std::move(parts));
  auto add = [all](bool dynamic, bool statics) {
    return [all, dynamic, statics] {
      double s = 0;
      for (const Part& p : *all)
        if (p.dynamic ? dynamic : statics) s += p.pj();
      return s * kMicro;
    };
  };
  for (const Part& p : *all) stats.formula(e + p.name, p.description, "uJ", [pj = p.pj] { return pj() * kMicro; });
  stats.formula(e + "dynamic", "dynamic energy: every event priced, the SMs' clocks included", "uJ", add(true, false));
  stats.formula(e + "static", "static energy inside kernels: leakage, DRAM standby and refresh", "uJ", add(false, true));
  auto whole = add(true, true);
  stats.formula(e + "total", "energy of the GPU and its DRAM, dynamic and static", "uJ", whole);
  stats.formula(e + "average_power", "energy.total over the time inside kernels", "W", [whole, kernel_s] {
    const double s = kernel_s();
    return s > 0 ? whole() * 1e-6 / s : 0.0;
  });
  // Each SM's own dynamic energy: the parts above, priced from its statistics alone.
  for (std::uint32_t i = 0; i < gpu.sms; ++i) {
    const std::string p = sm + std::to_string(i) + ".";
    auto own = std::make_shared<std::vector<Part>>(sm_parts([&](const std::string& leaf) { return one(p + leaf); }));
    stats.formula(e + "sm" + std::to_string(i), "this SM's dynamic energy: instructions, pipeline, registers, lanes, shared memory, L1",
                  "uJ", [own] {
                    double pj = 0;
                    for (const Part& part : *own) pj += part.pj();
                    return pj * kMicro;
                  });
  }
}

}  // namespace irr::power
