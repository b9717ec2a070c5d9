// SPDX-License-Identifier: Apache-2.0
#include "workloads/micro/micro.h"

#include <algorithm>

#include "sim/error.h"
#include "workloads/workloads.h"

namespace irr::workloads::micro {
namespace {

using runtime::Args;
using runtime::Dim3;

double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

template <typename T>
T get(runtime::Device& d, std::uint64_t p) {
  T v;
  d.memcpy_to_host(&v, p, sizeof v);
  return v;
}

// A chain of `nodes` 8-byte pointers `stride` bytes apart, the last pointing back to the first.
std::uint64_t chain(runtime::Device& d, std::uint64_t nodes, std::uint64_t stride) {
  const std::uint64_t base = d.malloc(nodes * stride);
  for (std::uint64_t i = 0; i < nodes; ++i) {
    const std::uint64_t next = base + ((i + 1) % nodes) * stride;
    d.memcpy_to_device(base + i * stride, &next, 8);
  }
  return base;
}

// Per step of a chain: the 64-step time minus the 32-step time (at out[i + 1], out[i]), over 32.
double per_step(runtime::Device& d, std::uint64_t out, int i = 1) {
  return (static_cast<double>(get<std::uint64_t>(d, out + 8 * (i + 1))) - static_cast<double>(get<std::uint64_t>(d, out + 8 * i))) / 32.0;
}

// Load-to-use latency of a dependent chase, in core cycles.
double chase(Context& c, std::uint64_t start, std::uint32_t warm) {
  const std::uint64_t out = c.dev.malloc(24);
  c.dev.launch(c.dev.kernel(c.module, "mb_chase"), Dim3{1}, Dim3{1}, Args() << start << warm << out);
  return per_step(c.dev, out);
}

std::vector<Figure> latency(Context& c) {
  const auto& cfg = c.sim.config();
  const std::uint64_t line = cfg.get_size("l1.line_size");
  // L1 hit: 16 pointers in one line, walked once before timing.
  const double l1 = chase(c, chain(c.dev, 16, 8), 16);
  // L2 hit: one pointer per line over a footprint 8x the L1 (at most half the L2), walked once:
  // the L2 holds it, the L1's LRU sets have let its head go.
  const std::uint64_t lines = std::min(8 * cfg.get_size("l1.size"), cfg.get_size("l2.size") / 2) / line;
  const double l2 = chase(c, chain(c.dev, lines, line), static_cast<std::uint32_t>(lines));
  // DRAM: 96 pointers 1 MiB + 3 lines apart, never touched before (cold L2, no TLB modelled).
  const double dram = chase(c, chain(c.dev, 97, (1u << 20) + 3 * line), 0);
  return {{"latency.l1_hit", l1, "cycles"}, {"latency.l2_hit", l2, "cycles"}, {"latency.dram", dram, "cycles"}};
}

std::vector<Figure> shared(Context& c) {
  std::vector<Figure> f;
  const std::uint64_t out = c.dev.malloc(32);
  for (std::uint32_t stride : {0u, 1u, 2u, 4u, 8u, 16u, 32u}) {
    c.dev.launch(c.dev.kernel(c.module, "mb_shared"), Dim3{1}, Dim3{32}, Args() << stride << out);
    f.push_back({"shared.stride_" + std::to_string(stride), per_step(c.dev, out), "cycles"});
  }
  return f;
}

std::vector<Figure> alu(Context& c) {
  const std::uint64_t out = c.dev.malloc(40);
  c.dev.launch(c.dev.kernel(c.module, "mb_alu_chain"), Dim3{1}, Dim3{1}, Args() << 3u << out);
  std::vector<Figure> f = {{"alu.int_add_latency", per_step(c.dev, out, 1), "cycles"},
                           {"alu.fp_fma_latency", per_step(c.dev, out, 3), "cycles"}};
  // Issue rate: eight independent FMA chains per thread, six 256-thread blocks per SM.
  const auto sms = c.sim.config().get_uint("gpu.num_sms");
  const auto blocks = static_cast<std::uint32_t>(6 * sms);
  const std::uint64_t buf = c.dev.malloc(blocks * 256 * 4);
  const auto st = c.dev.launch(c.dev.kernel(c.module, "mb_issue"), Dim3{blocks}, Dim3{256}, Args() << 64u << buf);
  f.push_back({"alu.issue_rate", ratio(static_cast<double>(st.warp_instructions), static_cast<double>(c.kernel_cycles() * sms)),
               "warp instructions/cycle/SM"});
  return f;
}

// Energy (models/power): the whole GPU's average power while every SM issues FMAs (the figure a
// chip's TDP bounds), the dynamic energy of one such thread instruction, and the DRAM's energy
// per 128-byte line of a stream copy (NVIDIA's 16 nJ a line [BMC Table 7]).
std::vector<Figure> energy(Context& c) {
  auto& stats = c.sim.stats();
  const sim::Stat *total = stats.find("energy.total"), *dynamic = stats.find("energy.dynamic");
  if (!total || !dynamic) throw Error("the energy microbenchmark needs the energy model: power.enabled is off", Error::Kind::config);
  auto value = [&](const char* name) { return stats.find(name)->value(); };
  const auto sms = static_cast<std::uint32_t>(c.sim.config().get_uint("gpu.num_sms"));
  const std::uint32_t blocks = 6 * sms;
  const std::uint64_t buf = c.dev.malloc(blocks * 256 * 4);
  auto fmas = [&] { return stats.sum("gpu.sm", ".energy_events.lanes.fp"); };
  const double e0 = total->value(), d0 = dynamic->value(), t0 = stats.sum("gpu.sm", ".thread_instructions"), f0 = fmas();
  c.dev.launch(c.dev.kernel(c.module, "mb_issue"), Dim3{blocks}, Dim3{256}, Args() << 256u << buf);
  const double seconds = static_cast<double>(c.kernel_cycles()) / c.core_hz();
  const double threads = stats.sum("gpu.sm", ".thread_instructions") - t0;
  // Energy a flop, the whole GPU's (static included), an FMA two flops: Keckler's ~200 pJ for a GPU of 2010.
  std::vector<Figure> f = {{"energy.fma_power", ratio((total->value() - e0) * 1e-6, seconds), "W"},
                           {"energy.fma_thread_instruction", ratio((dynamic->value() - d0) * 1e6, threads), "pJ"},
                           {"energy.flop", ratio((total->value() - e0) * 1e6, 2 * (fmas() - f0)), "pJ"}};
  // DRAM: copy 2 MiB; the DRAM's activate, burst and I/O energy per line its buses carried.
  const std::uint32_t n = 1u << 17;
  const std::uint64_t in = c.dev.malloc(n * 16ull), out = c.dev.malloc(n * 16ull);
  auto dram = [&] { return value("energy.dram.activate") + value("energy.dram.read_write") + value("energy.dram.io"); };
  const double dram0 = dram(), busy0 = stats.sum("", ".bus_busy_cycles");
  c.dev.launch(c.dev.kernel(c.module, "mb_copy"), Dim3{blocks}, Dim3{256}, Args() << in << out << n);
  const auto& cfg = c.sim.config();
  const double bytes = (stats.sum("", ".bus_busy_cycles") - busy0) *
                       static_cast<double>(cfg.get_size("dram.bus_width") * cfg.get_uint("dram.data_rate"));
  f.push_back({"energy.dram_line", ratio((dram() - dram0) * 1e6 * 128, bytes), "pJ"});
  return f;
}

std::vector<Figure> bandwidth(Context& c) {
  const auto& cfg = c.sim.config();
  const auto sms = static_cast<std::uint32_t>(cfg.get_uint("gpu.num_sms"));
  const double peak = static_cast<double>(cfg.get_uint("l2.partitions") * cfg.get_size("dram.bus_width") * cfg.get_uint("dram.data_rate")) *
                      cfg.get_frequency("clocks.dram");
  // DRAM: copy 2 MiB (reads and writes count).
  const std::uint32_t n = 1u << 17;
  const std::uint64_t in = c.dev.malloc(n * 16ull), out = c.dev.malloc(n * 16ull);
  auto& stats = c.sim.stats();
  const double busy0 = stats.sum("", ".bus_busy_cycles");
  c.dev.launch(c.dev.kernel(c.module, "mb_copy"), Dim3{6 * sms}, Dim3{256}, Args() << in << out << n);
  const double seconds = static_cast<double>(c.kernel_cycles()) / c.core_hz();
  const double copy = 2.0 * n * 16 / seconds;
  // What the DRAM's data buses carried meanwhile (the detailed model): a write-back L2 may keep
  // written lines the copy counts, so this is the DRAM's own share of its peak.
  const double bus = (stats.sum("", ".bus_busy_cycles") - busy0) /
                     (seconds * cfg.get_frequency("clocks.dram") * static_cast<double>(cfg.get_uint("l2.partitions")));
  // L2: every SM reads one footprint of 4x its L1 (all L1 misses after the first pass), 8 times.
  const auto vec = static_cast<std::uint32_t>(4 * cfg.get_size("l1.size") / 16);
  const std::uint64_t src = c.dev.malloc(vec * 16ull), sums = c.dev.malloc(sms * 1024ull * 4);
  c.dev.launch(c.dev.kernel(c.module, "mb_read"), Dim3{sms}, Dim3{1024}, Args() << src << vec << 1u << sums);  // warm the L2
  c.dev.launch(c.dev.kernel(c.module, "mb_read"), Dim3{sms}, Dim3{1024}, Args() << src << vec << 8u << sums);
  const double l2 = 8.0 * sms * vec * 16 / (static_cast<double>(c.kernel_cycles()) / c.core_hz());
  std::vector<Figure> f = {{"bandwidth.dram_copy", copy / 1e9, "GB/s"}, {"bandwidth.dram_copy_of_peak", copy / peak, "ratio"}};
  if (cfg.get_string("dram.model") == "detailed") f.push_back({"bandwidth.dram_bus_busy", bus, "ratio"});
  f.push_back({"bandwidth.l2_read", l2 / 1e9, "GB/s"});
  return f;
}

std::vector<Figure> atomics(Context& c) {
  const auto sms = static_cast<std::uint32_t>(c.sim.config().get_uint("gpu.num_sms"));
  const std::uint32_t blocks = 2 * sms, threads = 256;
  const std::uint64_t counters = c.dev.malloc(blocks * threads * 32ull * 4);
  std::vector<Figure> f;
  const char* names[] = {"one_address", "address_per_warp", "address_per_thread"};
  for (const char* space : {"global", "shared"}) {
    // Shared atomics are cheap enough for more of them (the kernel's set-up then costs little).
    const std::uint32_t iterations = std::string(space) == "shared" ? 32 : 4;
    for (std::uint32_t mode = 0; mode < 3; ++mode) {
      c.dev.memset(counters, 0, blocks * threads * 32ull * 4);
      c.dev.launch(c.dev.kernel(c.module, std::string("mb_atomic_") + space), Dim3{blocks}, Dim3{threads},
                   Args() << counters << mode << iterations);
      // Every add must have landed: the sum over the counters is the number of adds.
      std::vector<std::uint32_t> v(blocks * threads * 32);
      c.dev.memcpy_to_host(v.data(), counters, v.size() * 4);
      std::uint64_t sum = 0;
      for (auto x : v) sum += x;
      const std::uint64_t ops = std::uint64_t{blocks} * threads * iterations;
      if (sum != ops) throw Error("microbenchmark atomics: " + std::string(space) + " mode " + std::to_string(mode) + " counted " +
                                  std::to_string(sum) + " of " + std::to_string(ops) + " adds");
      f.push_back({std::string("atomic.") + space + "." + names[mode],
                   ratio(static_cast<double>(ops), static_cast<double>(c.kernel_cycles())), "operations/cycle"});
    }
  }
  return f;
}

std::vector<Figure> coalescing(Context& c) {
  std::vector<Figure> f;
  const std::uint64_t in = c.dev.malloc(32 * 32 * 4), out = c.dev.malloc(32 * 4);
  auto& stats = c.sim.stats();
  for (std::uint32_t stride : {1u, 2u, 4u, 8u, 16u, 32u}) {
    const double r0 = stats.sum("", ".global_load_requests"), l0 = stats.sum("", ".global_loads");
    c.dev.launch(c.dev.kernel(c.module, "mb_stride"), Dim3{1}, Dim3{32}, Args() << in << stride << out);
    f.push_back({"coalescing.stride_" + std::to_string(stride),
                 ratio(stats.sum("", ".global_load_requests") - r0, stats.sum("", ".global_loads") - l0), "requests/warp load"});
  }
  return f;
}

std::vector<Figure> launch(Context& c) {
  const int n = 8;
  const auto t0 = sim::now_ps();
  for (int i = 0; i < n; ++i) c.dev.launch(c.dev.kernel(c.module, "mb_empty"), Dim3{1}, Dim3{32}, Args());
  return {{"launch.overhead", static_cast<double>(sim::now_ps() - t0) / n / 1e6, "us"},
          {"launch.empty_kernel", static_cast<double>(c.kernel_cycles()), "cycles"}};
}

}  // namespace

double Context::core_hz() const { return sim.config().get_frequency("clocks.core"); }

const std::vector<Benchmark>& benchmarks() {
  static const std::vector<Benchmark> all = {
      {"latency", "dependent pointer chase: L1 hit, L2 hit, DRAM (load-to-use, core cycles)", latency},
      {"shared", "dependent shared-memory chase by a warp at word strides 0-32 (bank conflicts)", shared},
      {"alu", "dependent integer add and FMA chains; independent FMA issue rate", alu},
      {"bandwidth", "stream copy (DRAM) and an L2-resident read by every SM", bandwidth},
      {"atomics", "atomic adds on one address, one per warp, one per thread; global and shared", atomics},
      {"coalescing", "line requests per warp load for word strides 1-32", coalescing},
      {"launch", "empty kernels: host launch overhead and the kernel's own cycles", launch},
      {"energy", "average power of a full FMA load, energy per thread instruction, DRAM energy per line", energy},
  };
  return all;
}

void check(const std::vector<std::string>& names) {
  for (const std::string& n : names) {
    if (std::none_of(benchmarks().begin(), benchmarks().end(), [&](const Benchmark& b) { return b.name == n; })) {
      std::string known;
      for (const Benchmark& b : benchmarks()) known += (known.empty() ? "" : ", ") + b.name;
      throw Error("no microbenchmark '" + n + "' (" + known + ")", Error::Kind::usage);
    }
  }
}

std::vector<Figure> run(runtime::Device& dev, sim::Simulation& sim, const std::vector<std::string>& names) {
  check(names);
  Context c{dev, sim, dev.load_module(kernels_dir() + "/micro.ptx")};
  std::vector<Figure> figures;
  for (const Benchmark& b : benchmarks()) {
    if (!names.empty() && std::find(names.begin(), names.end(), b.name) == names.end()) continue;
    for (Figure& f : b.run(c)) figures.push_back(std::move(f));
  }
  return figures;
}

}  // namespace irr::workloads::micro
