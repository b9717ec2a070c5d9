// SPDX-License-Identifier: Apache-2.0
#include "models/core/profile.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <iomanip>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>

#include "sim/demangle.h"

namespace irr::core {

std::uint64_t Profile::Counters::stall_cycles() const {
  std::uint64_t n = 0;
  for (const auto s : stalls) n += s;
  return n;
}

Profile::Counters& Profile::Counters::operator+=(const Counters& o) {
  issued += o.issued;
  thread_instructions += o.thread_instructions;
  requests += o.requests;
  l1_misses += o.l1_misses;
  l2_misses += o.l2_misses;
  for (std::size_t i = 0; i < kStallKinds; ++i) stalls[i] += o.stalls[i];
  return *this;
}

void Profile::module(const ptx::Module* m) {
  if (std::find(modules_.begin(), modules_.end(), m) == modules_.end()) modules_.push_back(m);
}

namespace {

nlohmann::json counters_json(const Profile::Counters& c) {
  nlohmann::json stalls = nlohmann::json::object();
  for (std::size_t i = 0; i < Profile::kStallKinds; ++i)
    if (c.stalls[i]) stalls[Profile::kStalls[i]] = c.stalls[i];
  return {{"cost_cycles", c.cost()}, {"issued", c.issued}, {"thread_instructions", c.thread_instructions},
          {"stall_cycles", c.stall_cycles()}, {"stalls", stalls}, {"memory_requests", c.requests},
          {"l1_misses", c.l1_misses}, {"l2_misses", c.l2_misses}};
}

struct Line {
  std::string file;  // the PTX module's name, or the CUDA source's path
  std::uint32_t line = 0;
  std::string function, op;  // PTX lines: the function and the instruction
  Profile::Counters c;
  // PTX lines: the CUDA line the instruction came from (`.loc`) and, for inlined code, the line of
  // the call (a kernel's atomicAdd is CUDA's header inlined at the kernel's line); "": not known.
  std::string source_file, call_file;
  std::uint32_t source_line = 0, call_line = 0;
};

std::vector<Line> sorted(std::map<std::pair<std::string, std::uint32_t>, Line>& lines) {
  std::vector<Line> v;
  for (auto& [key, l] : lines) v.push_back(std::move(l));
  std::stable_sort(v.begin(), v.end(), [](const Line& a, const Line& b) { return a.c.cost() > b.c.cost(); });
  return v;
}

// The PTX lines and CUDA lines of every instruction the profile has, and what it has of none.
struct Tables {
  std::vector<Line> ptx, cuda;
  Profile::Counters total, unattributed;
};

Tables tables(const std::unordered_map<const ptx::Instruction*, Profile::Counters>& by, const std::vector<const ptx::Module*>& modules) {
  Tables t;
  std::map<std::pair<std::string, std::uint32_t>, Line> ptx_lines, cuda_lines;
  for (const auto& [in, c] : by) {
    t.total += c;
    if (!in) t.unattributed += c;
  }
  for (const ptx::Module* m : modules)
    for (const auto& f : m->functions)
      for (const auto& in : f.code) {
        auto it = by.find(&in);
        if (it == by.end()) continue;
        Line& p = ptx_lines[{m->file, in.ptx_line}];
        auto file = m->files.find(in.loc.file), call = m->files.find(in.loc.call_file);
        const bool located = in.loc.line && file != m->files.end(), called = in.loc.call_line && call != m->files.end();
        if (p.file.empty())
          p = Line{m->file, in.ptx_line, sim::demangled(f.name), std::string(ptx::op_name(in.op)), {},
                   located ? file->second : "", called ? call->second : "", located ? in.loc.line : 0,
                   called ? in.loc.call_line : 0};
        p.c += it->second;
        if (located) {
          Line& s = cuda_lines[{file->second, in.loc.line}];
          if (s.file.empty()) s = Line{file->second, in.loc.line, sim::demangled(f.name), "", {}, "", "", 0, 0};
          s.c += it->second;
        }
      }
  t.ptx = sorted(ptx_lines);
  t.cuda = sorted(cuda_lines);
  return t;
}

std::string source_text(const std::string& path, std::uint32_t line) {
  std::ifstream in(path);
  std::string s;
  for (std::uint32_t i = 0; i < line && std::getline(in, s); ++i) {
  }
  if (!in) return "";
  s.erase(0, s.find_first_not_of(" \t"));
  return s;
}

// The instruction at a PC (Instruction::address), for the cache tables: its PTX line, function, op.
std::function<nlohmann::json(std::uint64_t)> instruction_at(const std::vector<const ptx::Module*>& modules) {
  auto at = std::make_shared<std::map<std::uint64_t, nlohmann::json>>();
  for (const ptx::Module* m : modules)
    for (const auto& f : m->functions)
      for (const auto& in : f.code)
        (*at)[in.address] = {{"file", m->file}, {"line", in.ptx_line}, {"function", sim::demangled(f.name)},
                             {"op", std::string(ptx::op_name(in.op))}};
  return [at](std::uint64_t pc) {
    auto it = at->find(pc);
    return it != at->end() ? it->second : nlohmann::json{{"note", pc ? "not an instruction of a profiled module" : "no PC: a prefetch or a unit's request"}};
  };
}

std::string top_stall(const Profile::Counters& c) {
  const auto it = std::max_element(c.stalls.begin(), c.stalls.end());
  return *it ? Profile::kStalls[it - c.stalls.begin()] : "-";
}

}  // namespace

nlohmann::json Profile::report() const {
  const Tables t = tables(by_instruction_, modules_);
  auto list = [](const std::vector<Line>& lines, bool ptx) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& l : lines) {
      nlohmann::json j = {{"file", l.file}, {"line", l.line}, {"function", l.function}};
      if (ptx) j["op"] = l.op;
      if (ptx && l.source_line) j["source"] = {{"file", l.source_file}, {"line", l.source_line}};
      if (ptx && l.call_line) j["inlined_at"] = {{"file", l.call_file}, {"line", l.call_line}};
      j.update(counters_json(l.c));
      a.push_back(std::move(j));
    }
    return a;
  };
  const auto where = instruction_at(modules_);
  return {{"ptx_lines", list(t.ptx, true)}, {"cuda_lines", list(t.cuda, false)}, {"total", counters_json(t.total)},
          {"unattributed", counters_json(t.unattributed)},
          {"caches", {{"l1", l1_.report(where)}, {"l2", l2_.report(where)}}},
          {"note", "cost_cycles: scheduler cycles an instruction held, issuing (issued) or stalled (stall_cycles, by "
                   "reason: the cycles a scheduler could issue nothing, charged to the warp whose reason it counts); "
                   "unattributed: stalls with no warp to charge (stall.empty); caches: loads by PC and by allocation "
                   "at each level, fills installed or bypassed, and reuse, the hits on the lines a PC fetched"}};
}

// The L1s' busiest load PCs: what a PC-keyed bypass or predictor sees of each.
void Profile::print_l1(std::ostream& out, std::size_t top) const {
  std::vector<std::pair<std::uint64_t, mem::CacheProfile::Counters>> pcs(l1_.by_pc().begin(), l1_.by_pc().end());
  if (pcs.empty()) return;
  std::stable_sort(pcs.begin(), pcs.end(), [](const auto& a, const auto& b) { return a.second.accesses > b.second.accesses; });
  const auto where = instruction_at(modules_);
  out << "profile: the L1s' loads by PC, most accesses first (reuse: hits on the lines the PC fetched, per access)\n";
  out << std::right << std::setw(8) << "line" << std::setw(11) << "accesses" << std::setw(8) << "hits" << std::setw(10) << "fills"
      << std::setw(10) << "bypassed" << std::setw(8) << "reuse" << "  function\n";
  for (std::size_t i = 0; i < std::min(top, pcs.size()); ++i) {
    const auto& [pc, c] = pcs[i];
    const nlohmann::json w = where(pc);
    std::ostringstream hits, reuse;
    hits << std::fixed << std::setprecision(1) << 100.0 * static_cast<double>(c.hits) / static_cast<double>(std::max<std::uint64_t>(1, c.accesses)) << "%";
    reuse << std::fixed << std::setprecision(3) << static_cast<double>(c.reuse) / static_cast<double>(std::max<std::uint64_t>(1, c.accesses));
    out << std::right << std::setw(8) << (w.contains("line") ? std::to_string(w["line"].get<std::uint32_t>()) : "-") << std::setw(11)
        << c.accesses << std::setw(8) << hits.str() << std::setw(10) << c.fills << std::setw(10) << c.bypassed << std::setw(8)
        << reuse.str() << "  " << (w.contains("function") ? w["function"].get<std::string>() : w["note"].get<std::string>()) << "\n";
  }
}

void Profile::print(std::ostream& out, std::size_t top) const {
  const Tables t = tables(by_instruction_, modules_);
  const double all = std::max<double>(1, static_cast<double>(t.total.cost()));
  out << "profile: the costliest PTX lines (scheduler cycles issuing or stalled; profile.json has every line)\n";
  out << std::right << std::setw(7) << "cost" << std::setw(8) << "line" << "  " << std::left << std::setw(10) << "op"
      << std::right << std::setw(10) << "issued" << std::setw(12) << "stalled" << "  " << std::left << std::setw(16) << "mostly"
      << std::right << std::setw(9) << "requests" << std::setw(9) << "L1 miss" << std::setw(9) << "L2 miss" << "  function\n";
  for (std::size_t i = 0; i < std::min(top, t.ptx.size()); ++i) {
    const Line& l = t.ptx[i];
    std::ostringstream pct;
    pct << std::fixed << std::setprecision(1) << 100.0 * static_cast<double>(l.c.cost()) / all << "%";
    out << std::right << std::setw(7) << pct.str() << std::setw(8) << l.line << "  " << std::left << std::setw(10) << l.op
        << std::right << std::setw(10) << l.c.issued << std::setw(12) << l.c.stall_cycles() << "  " << std::left << std::setw(16)
        << top_stall(l.c) << std::right << std::setw(9) << l.c.requests << std::setw(9) << l.c.l1_misses << std::setw(9)
        << l.c.l2_misses << "  " << l.function << "\n";
  }
  print_l1(out, top);
  if (t.cuda.empty()) {
    out << "profile: no CUDA source lines (compile with -lineinfo or -G for them)\n";
    return;
  }
  out << "profile: the costliest CUDA lines\n";
  for (std::size_t i = 0; i < std::min<std::size_t>(5, t.cuda.size()); ++i) {
    const Line& l = t.cuda[i];
    std::ostringstream pct;
    pct << std::fixed << std::setprecision(1) << 100.0 * static_cast<double>(l.c.cost()) / all << "%";
    const std::string text = source_text(l.file, l.line);
    out << std::right << std::setw(7) << pct.str() << "  " << l.file << ":" << l.line << "  (" << top_stall(l.c) << ")\n";
    if (!text.empty()) out << "         | " << text << "\n";
  }
}

}  // namespace irr::core
