// SPDX-License-Identifier: Apache-2.0
#include "apps/irrgpu/kernel_stats.h"

#include <filesystem>
#include <iomanip>

#include <nlohmann/json.hpp>

#include "sim/output_file.h"

namespace irr::app {
namespace {

// The sum over the instances of a per-SM or per-partition counter (gpu.sm<i>.l1.misses).
double total(const KernelStats& k, const std::string& prefix, const std::string& suffix) {
  double sum = 0;
  for (auto it = k.counted.lower_bound(prefix); it != k.counted.end() && it->first.rfind(prefix, 0) == 0; ++it) {
    const std::string& name = it->first;
    if (name.size() <= prefix.size() + suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    const std::string index = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    if (index.find_first_not_of("0123456789") == std::string::npos) sum += it->second;
  }
  return sum;
}

double get(const KernelStats& k, const std::string& name) {
  const auto it = k.counted.find(name);
  return it == k.counted.end() ? 0 : it->second;
}

}  // namespace

std::vector<KernelStats> kernel_stats(const sim::StatsRegistry& stats) {
  const nlohmann::json snapshots = stats.to_json()["snapshots"];
  std::vector<KernelStats> out;
  for (std::size_t i = 0; i + 1 < snapshots.size(); ++i) {
    const std::string start = snapshots[i]["label"], end = snapshots[i + 1]["label"];
    const std::string suffix = " start";
    if (start.rfind("kernel ", 0) != 0 || start.size() <= suffix.size() ||
        start.compare(start.size() - suffix.size(), suffix.size(), suffix) != 0 ||
        end != start.substr(0, start.size() - suffix.size()))
      continue;
    KernelStats k;
    k.index = out.size();
    k.kernel = end.substr(end.find(": ") + 2);
    k.start_ps = snapshots[i]["time_ps"], k.end_ps = snapshots[i + 1]["time_ps"];
    const auto& before = snapshots[i]["values"];
    for (const auto& [name, after] : snapshots[i + 1]["values"].items()) {
      // Counters and energies (formulas in uJ, which only grow) subtract; rates and ratios do not.
      const sim::Stat* stat = stats.find(name);
      if (!stat || !before.contains(name) || (!dynamic_cast<const sim::Counter*>(stat) && stat->unit() != "uJ")) continue;
      const double d = after.get<double>() - before[name].get<double>();
      if (d != 0) k.counted[name] = d;
    }
    out.push_back(std::move(k));
  }
  return out;
}

void write_kernel_stats(const std::vector<KernelStats>& kernels, const std::string& dir) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& k : kernels)
    j.push_back({{"index", k.index}, {"kernel", k.kernel}, {"start_ps", k.start_ps}, {"end_ps", k.end_ps}, {"counted", k.counted}});
  std::filesystem::create_directories(dir);
  sim::write_file((std::filesystem::path(dir) / "kernels.json").string(), j.dump(2) + "\n");
}

void print_kernel_table(const std::vector<KernelStats>& kernels, std::ostream& out) {
  struct Row {
    std::size_t launches = 0;
    double cycles = 0, warp = 0, l1_misses = 0, l2_misses = 0, energy = 0;
  };
  std::map<std::string, Row> rows;
  double all = 0;
  bool with_energy = false;  // power.enabled
  for (const auto& k : kernels) {
    Row& r = rows[k.kernel];
    ++r.launches;
    r.cycles += get(k, "gpu.kernel_cycles");
    r.warp += total(k, "gpu.sm", ".warp_instructions");
    r.l1_misses += total(k, "gpu.sm", ".l1.misses");
    r.l2_misses += total(k, "gpu.partition", ".l2.misses");
    r.energy += get(k, "energy.total");
    with_energy = with_energy || k.counted.count("energy.total");
    all += get(k, "gpu.kernel_cycles");
  }
  if (rows.empty()) return;
  std::size_t width = 6;
  for (const auto& [name, r] : rows) width = std::max(width, name.size());
  out << std::left << std::setw(static_cast<int>(width)) << "kernel" << std::right << std::setw(9) << "launches" << std::setw(13)
      << "cycles" << std::setw(8) << "share" << std::setw(15) << "warp instr." << std::setw(8) << "IPC" << std::setw(12)
      << "L1 misses" << std::setw(12) << "L2 misses" << (with_energy ? "   energy uJ" : "") << "\n";
  for (const auto& [name, r] : rows) {
    out << std::left << std::setw(static_cast<int>(width)) << name << std::right << std::setw(9) << r.launches << std::setw(13)
        << std::fixed << std::setprecision(0) << r.cycles << std::setw(7) << std::setprecision(1)
        << (all > 0 ? 100 * r.cycles / all : 0) << "%" << std::setw(15) << std::setprecision(0) << r.warp << std::setw(8)
        << std::setprecision(2) << (r.cycles > 0 ? r.warp / r.cycles : 0) << std::setw(12) << std::setprecision(0)
        << r.l1_misses << std::setw(12) << r.l2_misses;
    if (with_energy) out << std::setw(13) << std::setprecision(1) << r.energy;
    out << "\n" << std::defaultfloat;
  }
}

}  // namespace irr::app
