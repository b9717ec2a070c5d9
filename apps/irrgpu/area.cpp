// SPDX-License-Identifier: Apache-2.0
#include "apps/irrgpu/area.h"

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <regex>
#include <sstream>

#include "apps/irrgpu/commands.h"
#include "sim/error.h"
#include "sim/config.h"
#include "sim/output_file.h"
#include "sim/units.h"

namespace irr::app {
namespace fs = std::filesystem;
using nlohmann::json;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  if (!in) throw Error({p.string(), 0, 0}, "cannot read");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

json load_json(const fs::path& p) {
  try {
    return json::parse(slurp(p));
  } catch (const json::parse_error& e) {
    throw Error({p.string(), 0, 0}, std::string("JSON: ") + e.what(), Error::Kind::config);
  }
}

ScratchDir::ScratchDir(const std::string& prefix) {
  std::string tmpl = "/tmp/" + prefix + "-XXXXXX";
  if (!mkdtemp(tmpl.data())) throw Error("cannot create a temporary directory");
  path_ = tmpl;
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

bool have_tool(const std::string& command) {
  return std::system(("command -v " + command + " >/dev/null 2>&1").c_str()) == 0;
}

void require_tool(const std::string& command, const std::string& what) {
  if (!have_tool(command)) throw Error(what + " is not installed (make deps)");
}

void override_params(std::map<std::string, std::string>& params, const std::vector<std::string>& overrides) {
  for (const auto& p : overrides) {
    auto eq = p.find('=');
    if (eq == std::string::npos || eq == 0) throw Error({"--param", 0, 0}, "'" + p + "': expected NAME=VALUE", Error::Kind::usage);
    params[p.substr(0, eq)] = p.substr(eq + 1);
  }
}

const json& rtl_block(const json& blocks, const std::string& name) {
  if (!blocks.contains(name)) {
    std::string names;
    for (const auto& [n, b] : blocks.items()) names += (names.empty() ? "" : ", ") + n;
    throw Error("no RTL block '" + name + "' in rtl/blocks.json (blocks: " + names + ")", Error::Kind::usage);
  }
  return blocks[name];
}

namespace {

// A liberty's cells: area, and whether it is sequential (an `ff` or `latch` group), whatever the
// order of a cell's attributes.
struct LibCell {
  double area = 0;
  bool sequential = false;
};
std::map<std::string, LibCell> liberty_cells(const std::string& lib) {
  std::map<std::string, LibCell> cells;
  static const std::regex cell_re(R"re(\bcell\s*\(\s*"?([A-Za-z0-9_$.]+)"?\s*\))re");
  std::vector<std::pair<std::string, std::size_t>> at;
  for (auto it = std::sregex_iterator(lib.begin(), lib.end(), cell_re); it != std::sregex_iterator(); ++it)
    at.emplace_back((*it)[1], static_cast<std::size_t>(it->position()));
  static const std::regex area_re(R"(\barea\s*:\s*([0-9.eE+-]+))"), seq_re(R"(\b(ff|latch)\s*\()");
  for (std::size_t i = 0; i < at.size(); ++i) {
    const std::size_t end = i + 1 < at.size() ? at[i + 1].second : lib.size();
    const std::string body = lib.substr(at[i].second, end - at[i].second);
    LibCell c;
    std::smatch m;
    if (std::regex_search(body, m, area_re)) c.area = std::stod(m[1]);
    c.sequential = std::regex_search(body, seq_re);
    cells[at[i].first] = c;
  }
  return cells;
}

struct Memory {
  std::string name;
  std::uint64_t words = 0, width = 0, rd_ports = 0, wr_ports = 0;
};

// `dump t:$mem_v2` output: one cell per memory with its parameters.
std::vector<Memory> parse_memories(const std::string& dump) {
  std::vector<Memory> mems;
  std::istringstream in(dump);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, std::regex(R"(cell \$mem_v2 \\?(\S+))"))) mems.push_back({m[1], 0, 0, 0, 0});
    else if (!mems.empty() && std::regex_search(line, m, std::regex(R"(parameter \\(SIZE|WIDTH|RD_PORTS|WR_PORTS) (\d+))"))) {
      std::uint64_t v = std::stoull(m[2]);
      if (m[1] == "SIZE") mems.back().words = v;
      else if (m[1] == "WIDTH") mems.back().width = v;
      else if (m[1] == "RD_PORTS") mems.back().rd_ports = v;
      else mems.back().wr_ports = v;
    }
  }
  return mems;
}

struct Synthesis {
  std::map<std::string, std::uint64_t> cells;
  double logic_delay_ps = 0;
  std::uint64_t transistors = 0;
  bool transistors_partial = false;
  std::vector<Memory> memories;
};

// One Yosys run: generic synthesis (memories kept as SRAM macros, or mapped to flip-flops), the
// transistor estimate on the generic gates, then mapping to the liberty and ABC's timing.
// `netlist`, when given, receives the mapped netlist as Verilog for OpenSTA (memories kept as
// SRAM macros are deleted first: paths through them are not timed).
Synthesis synthesize(const std::string& top, const std::vector<std::string>& sources,
                     const std::map<std::string, std::string>& params, const std::string& liberty, bool flops,
                     const fs::path& netlist = {}) {
  const ScratchDir scratch("irrgpu-area");
  const fs::path& dir = scratch.path();
  std::ostringstream ys;
  for (const auto& s : sources) ys << "read_verilog -sv \"" << s << "\"\n";
  if (!params.empty()) {
    ys << "chparam";
    for (const auto& [k, v] : params) ys << " -set " << k << " " << v;
    ys << " " << top << "\n";
  }
  ys << "hierarchy -check -top " << top << "\n"
     << "synth -top " << top << " -run begin:fine\n"
     << "tee -q -o " << (dir / "mem.txt").string() << " dump t:$mem_v2\n"  // tee takes no quotes
     << (flops ? "memory_map\n" : "") << "opt -fast -full\ntechmap\nopt -fast\ndesign -save generic\n"
     // The transistor estimate on a copy: plain flip-flops and CMOS gates (NAND, NOR, NOT, AOI,
     // OAI), which stat -tech cmos counts, mapped with the same short ABC script as the liberty.
     << "dfflegalize -cell $_DFF_P_ 01\nabc -g cmos4 -script +strash;ifraig;dc2;dch,-f;map\nopt -fast\n"
     << "tee -q -o " << (dir / "cmos.txt").string() << " stat -tech cmos\n"
     << "design -load generic\n"
     << "dfflibmap -liberty \"" << liberty << "\"\n"
     << "abc -liberty \"" << liberty << "\" -script +strash;ifraig;dc2;dch,-f;map;topo;stime,-p\n"
     << "opt_clean\n"
     << "tee -q -o " << (dir / "cells.json").string() << " stat -json\n";
  if (!netlist.empty()) ys << "delete t:$mem_v2\nopt_clean\nwrite_verilog -noattr -noexpr \"" << netlist.string() << "\"\n";
  std::ofstream(dir / "area.ys") << ys.str();
  const std::string cmd = "yosys -q -l \"" + (dir / "yosys.log").string() + "\" -s \"" + (dir / "area.ys").string() +
                          "\" >/dev/null 2>&1";
  const int rc = std::system(cmd.c_str());
  Synthesis s;
  std::string log = fs::exists(dir / "yosys.log") ? slurp(dir / "yosys.log") : "";
  if (rc != 0) {
    std::smatch m;
    // Yosys puts file:line before "ERROR:" when it has one.
    std::string why = std::regex_search(log, m, std::regex(R"(([^\n]*)ERROR: ([^\n]*))"))
                          ? m[1].str() + m[2].str()
                          : "yosys failed (is it installed? make deps)";
    throw Error("synthesis of " + top + ": " + why);
  }
  json cells = json::parse(slurp(dir / "cells.json"));
  for (const auto& [type, n] : cells["design"]["num_cells_by_type"].items()) s.cells[type] = n.get<std::uint64_t>();
  std::smatch m;
  // The last "Delay =" is the mapped netlist's (flip-flop outputs and inputs are its end points).
  static const std::regex delay(R"(Delay =\s*([0-9.]+) ps)");
  for (auto it = std::sregex_iterator(log.begin(), log.end(), delay); it != std::sregex_iterator(); ++it)
    s.logic_delay_ps = std::stod((*it)[1]);
  std::string cmos = slurp(dir / "cmos.txt");
  if (std::regex_search(cmos, m, std::regex(R"(transistors:\s*(\d+)(\+?))"))) {
    s.transistors = std::stoull(m[1]);
    s.transistors_partial = m[2] == "+";  // some cells have no estimate
  }
  s.memories = parse_memories(slurp(dir / "mem.txt"));
  return s;
}

json cells_json(const Synthesis& s, const std::map<std::string, LibCell>& lib, double& area, std::uint64_t& ff_bits) {
  json j = json::object();
  area = 0;
  ff_bits = 0;
  for (const auto& [type, n] : s.cells) {
    j[type] = n;
    auto c = lib.find(type);
    if (c == lib.end()) continue;
    area += c->second.area * static_cast<double>(n);
    if (c->second.sequential) ff_bits += n;
  }
  return j;
}

// OpenSTA's setup check of a mapped netlist at one clock on port `clk`, inputs and outputs
// constrained to that clock with zero external delay: the worst paths, WNS and TNS.
json static_timing(const fs::path& netlist, const std::string& top, const std::string& liberty, double clock_hz,
                   unsigned paths) {
  require_tool("sta", "OpenSTA (sta)");
  const std::string text = slurp(netlist);
  if (!std::regex_search(text, std::regex(R"(\binput\s+clk\s*;)")))
    throw Error("static timing needs the design's clock on an input port named clk; " + top + " has none");
  const double period_ns = 1e9 / clock_hz;
  const fs::path dir = netlist.parent_path();
  std::ostringstream tcl;
  tcl << std::setprecision(9) << "set_cmd_units -time ns\nread_liberty {" << liberty << "}\nread_verilog {" << netlist.string()
      << "}\nlink_design " << top << "\ncreate_clock -name clk -period " << period_ns << " [get_ports clk]\n"
      << "set_input_delay 0 -clock clk [delete_from_list [all_inputs] [get_ports clk]]\n"
      << "set_output_delay 0 -clock clk [all_outputs]\n"
      << "report_checks -path_delay max -group_count " << paths << " -digits 4\nreport_wns -digits 4\nreport_tns -digits 4\nexit\n";
  sim::write_file((dir / "sta.tcl").string(), tcl.str(), "OpenSTA script");
  const std::string log_path = (dir / "sta.log").string();
  const int rc = std::system(("sta -no_splash -exit \"" + (dir / "sta.tcl").string() + "\" > \"" + log_path + "\" 2>&1").c_str());
  const std::string log = slurp(log_path);
  std::smatch m;
  if (rc != 0 || std::regex_search(log, m, std::regex(R"((Error: [^\n]*))")))
    throw Error("OpenSTA on " + top + ": " + (m.size() > 1 ? m[1].str() : "sta failed"));
  json r;
  r["tool"] = "OpenSTA";
  r["clock_hz"] = clock_hz;
  r["period_ps"] = period_ns * 1000;
  r["paths"] = json::array();
  // One block per path: Startpoint, Endpoint, arrival, required, slack.
  static const std::regex path_re(
      R"(Startpoint: (\S+)[\s\S]*?Endpoint: (\S+)[\s\S]*?(-?[0-9.]+)\s+data arrival time[\s\S]*?(-?[0-9.]+)\s+data required time[\s\S]*?(-?[0-9.]+)\s+slack \((MET|VIOLATED)\))");
  // A flip-flop instance (`_781_`) by the register bit it holds: the net on its Q pin (`count[1]`).
  auto named = [&](const std::string& inst) {
    std::smatch q;
    const std::regex re("\\s" + std::regex_replace(inst, std::regex(R"([\[\]\\.$])"), "\\$&") +
                        R"(\s*\(([^;]*?)\.Q\(\s*([^)]+?)\s*\))");
    if (!std::regex_search(text, q, re)) return inst;
    // an escaped identifier, `\mem[0] [3]`, reads mem[0][3]
    return std::regex_replace(q[2].str(), std::regex(R"(^\\|\s+)"), "") + " (" + inst + ")";
  };
  for (auto it = std::sregex_iterator(log.begin(), log.end(), path_re); it != std::sregex_iterator(); ++it)
    r["paths"].push_back({{"from", named((*it)[1])}, {"to", named((*it)[2])}, {"arrival_ps", std::stod((*it)[3]) * 1000},
                          {"required_ps", std::stod((*it)[4]) * 1000}, {"slack_ps", std::stod((*it)[5]) * 1000},
                          {"met", (*it)[6] == "MET"}});
  if (r["paths"].empty()) throw Error("OpenSTA on " + top + ": no timing path reported (" + log_path + ")");
  if (std::regex_search(log, m, std::regex(R"(wns (-?[0-9.]+))"))) r["wns_ps"] = std::stod(m[1]) * 1000;
  if (std::regex_search(log, m, std::regex(R"(tns (-?[0-9.]+))"))) r["tns_ps"] = std::stod(m[1]) * 1000;
  const double worst = r["paths"][0]["slack_ps"];
  r["worst_slack_ps"] = worst;
  r["critical_path_ps"] = r["period_ps"].get<double>() - worst;  // the period at which the worst path just meets
  r["fmax_mhz"] = 1e6 / r["critical_path_ps"].get<double>();
  return r;
}

}  // namespace

std::string rtl_dir() {
  if (const char* env = std::getenv("IRRGPU_RTL_DIR")) return env;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path installed = exe.parent_path().parent_path() / "share" / "irrgpu" / "rtl";
    if (fs::exists(installed / "blocks.json")) return installed.string();
  }
  return std::string(IRRGPU_SOURCE_DIR) + "/rtl";
}

json area_report(const AreaOptions& o) {
  const fs::path rtl = rtl_dir();
  const json blocks = load_json(rtl / "blocks.json");
  const json tech = load_json(rtl / "lib" / "irrgpu45.json");
  const bool own_liberty = !o.liberty.empty();  // the user's: areas and timing from it, timing by OpenSTA
  const std::string liberty = own_liberty ? o.liberty : (rtl / "lib" / tech["liberty"].get<std::string>()).string();
  if (own_liberty && !sim::file_exists(liberty)) throw Error({liberty, 0, 0}, "no such liberty file", Error::Kind::usage);
  std::string preset = o.preset;

  std::string top = o.top;
  std::vector<std::string> sources;
  std::map<std::string, std::string> params;
  json declared_memories = json::object();
  bool flop_pass = true;  // blocks.json flip_flop_pass: false for memories too large to map to flip-flops
  if (!o.block.empty()) {
    const json& b = rtl_block(blocks, o.block);
    top = b["top"];
    for (const auto& s : b["sources"]) sources.push_back((rtl / s.get<std::string>()).string());
    const json defaults = b.value("parameters", json::object());
    for (const auto& [k, v] : defaults.items()) params[k] = v.dump();
    declared_memories = b.value("memories", json::object());
    flop_pass = b.value("flip_flop_pass", true);
    if (preset.empty()) preset = b.value("preset", "");
  } else {
    if (top.empty() || o.sources.empty()) throw Error("name a block, or give --top and --source", Error::Kind::usage);
    sources = o.sources;
  }
  for (const auto& s : sources) {
    if (!sim::file_exists(s)) throw Error({s, 0, 0}, "no such Verilog file", Error::Kind::usage);
  }
  override_params(params, o.params);
  // Static timing: asked for, or implied by the user's liberty. The clock: --clock, else the core
  // clock of the preset the block's unit runs on (blocks.json), or --preset.
  const bool sta = o.sta || own_liberty;
  double clock_hz = 0;
  if (sta) {
    if (!o.clock.empty()) {
      try {
        clock_hz = sim::parse_frequency(o.clock);
      } catch (const std::exception& e) {
        throw Error({"--clock", 0, 0}, e.what(), Error::Kind::usage);
      }
    } else if (!preset.empty()) {
      clock_hz = load(ConfigOptions{{preset}, {}}).get_frequency("clocks.core");
    } else {
      throw Error("static timing needs a clock: give --clock FREQ or --preset NAME", Error::Kind::usage);
    }
  }
  if (o.dry_run) {
    require_tool("yosys", "yosys");
    if (sta) require_tool("sta", "OpenSTA (sta)");
    return {{"block", o.block.empty() ? top : o.block}};
  }

  const auto lib = liberty_cells(slurp(liberty));
  const double clk_to_q = tech["flip_flop"]["clk_to_q_ps"], setup = tech["flip_flop"]["setup_ps"];
  const json& sram = tech["sram"];

  // OpenSTA times the all-flip-flop netlist (every path), or without it the SRAM one minus its memories.
  const auto scratch = sta ? std::make_unique<ScratchDir>("irrgpu-sta") : nullptr;
  const fs::path netlist = sta ? scratch->path() / "netlist.v" : fs::path();
  Synthesis with_sram = synthesize(top, sources, params, liberty, false, flop_pass ? fs::path() : netlist);
  const Synthesis with_flops = flop_pass ? synthesize(top, sources, params, liberty, true, netlist) : Synthesis{};

  json r;
  r["block"] = o.block.empty() ? top : o.block;
  r["top"] = top;
  r["parameters"] = params;
  if (own_liberty) {
    std::smatch m;
    const std::string text = slurp(liberty);
    r["library"] = {{"name", std::regex_search(text, m, std::regex(R"re(library\s*\(\s*"?([^)"\s]+))re")) ? m[1].str() : liberty},
                    {"description", "the user's liberty " + liberty + ": cell areas and OpenSTA's timing from it; SRAM area "
                                    "from irrgpu45's first-order 45 nm model, not scaled"}};
  } else {
    r["library"] = {{"name", tech["name"]}, {"description", tech["description"]}};
  }
  double logic_area = 0, flop_area = 0;
  std::uint64_t ff_bits = 0, flop_ff_bits = 0;
  r["cells"] = cells_json(with_sram, lib, logic_area, ff_bits);
  r["cells"].erase("$mem_v2");
  r["flip_flop_bits"] = ff_bits;
  r["logic_area_um2"] = logic_area;
  r["transistors_logic"] = with_sram.transistors;
  r["transistors_logic_is_lower_bound"] = with_sram.transistors_partial;

  double sram_area = 0;
  std::uint64_t sram_bits = 0;
  r["memories"] = json::array();
  for (const Memory& m : with_sram.memories) {
    // Ports as the designer declared them (sync_fifo's read and write never share a cycle, so its
    // 1R+1W in Yosys is one port); otherwise every Yosys port counts.
    std::uint64_t ports = declared_memories.contains(m.name) ? declared_memories[m.name]["ports"].get<std::uint64_t>()
                                                             : m.rd_ports + m.wr_ports;
    const std::uint64_t bits = m.words * m.width;
    const double port_factor = 1 + sram["extra_port_factor"].get<double>() * static_cast<double>(ports - 1);
    const double a = static_cast<double>(bits) * sram["bitcell_um2"].get<double>() * port_factor /
                     sram["array_efficiency"].get<double>();
    sram_area += a;
    sram_bits += bits;
    r["memories"].push_back({{"name", m.name}, {"words", m.words}, {"width", m.width}, {"bits", bits},
                             {"ports", ports}, {"area_um2", a}});
  }
  r["sram_bits"] = sram_bits;
  r["sram_area_um2"] = sram_area;
  r["transistors_sram"] = sram_bits * sram["transistors_per_bit"].get<std::uint64_t>();
  r["total_area_um2"] = logic_area + sram_area;
  r["logic_delay_ps"] = with_sram.logic_delay_ps;
  if (!own_liberty) {  // the shipped library's flip-flop figures around ABC's delay
    const double path = clk_to_q + with_sram.logic_delay_ps + setup;
    r["critical_path_ps"] = path;
    r["fmax_mhz"] = 1e6 / path;
  }
  r["sram_model"] = sram;
  if (sta) {
    r["static_timing"] = static_timing(netlist, top, liberty, clock_hz, o.paths);
    r["static_timing"]["netlist"] = flop_pass ? "all flip-flops" : "memories as SRAM, taken out (paths through them not timed)";
    r["static_timing"]["clock_from"] = !o.clock.empty() ? "--clock" : "preset " + preset + " (clocks.core)";
  }
  if (!flop_pass) return r;  // "all_flip_flops" absent: not synthesised
  json flops;
  flops["cells"] = cells_json(with_flops, lib, flop_area, flop_ff_bits);
  flops["flip_flop_bits"] = flop_ff_bits;
  flops["area_um2"] = flop_area;
  flops["transistors"] = with_flops.transistors;
  flops["transistors_is_lower_bound"] = with_flops.transistors_partial;
  flops["logic_delay_ps"] = with_flops.logic_delay_ps;
  if (!own_liberty) flops["critical_path_ps"] = clk_to_q + with_flops.logic_delay_ps + setup;
  r["all_flip_flops"] = flops;
  return r;
}

int area(const AreaOptions& o) {
  if (o.list) {
    const json blocks = load_json(fs::path(rtl_dir()) / "blocks.json");
    for (const auto& [name, b] : blocks.items()) std::cout << name << "  " << b.value("description", "") << "\n";
    return 0;
  }
  json r = area_report(o);
  if (o.dry_run) return dry_run_done("area " + r["block"].get<std::string>());
  auto num = [](double v, int prec = 1) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(prec) << v;
    return s.str();
  };
  std::string params;
  for (const auto& [k, v] : r["parameters"].items()) params += (params.empty() ? "" : " ") + k + "=" + v.get<std::string>();
  std::cout << "block " << r["block"].get<std::string>() << " (" << params << "), library "
            << r["library"]["name"].get<std::string>() << "\n\n";
  const json f = r.value("all_flip_flops", json{{"flip_flop_bits", 0}, {"area_um2", 0.0}, {"transistors", 0}, {"critical_path_ps", 0.0}});
  const bool flops = r.contains("all_flip_flops");
  std::cout << std::left << std::setw(34) << "" << std::setw(18) << "memories as SRAM" << "all flip-flops\n";
  auto row = [&](const std::string& what, const std::string& a, const std::string& b) {
    std::cout << std::left << std::setw(34) << what << std::setw(18) << a << (flops ? b : "(not synthesised)") << "\n";
  };
  row("flip-flop bits", std::to_string(r["flip_flop_bits"].get<std::uint64_t>()),
      std::to_string(f["flip_flop_bits"].get<std::uint64_t>()));
  row("standard-cell area (um2)", num(r["logic_area_um2"]), num(f["area_um2"]));
  row("SRAM area (um2)", num(r["sram_area_um2"]), "-");
  row("total area (um2)", num(r["total_area_um2"]), num(f["area_um2"]));
  row("transistors (stat -tech cmos)",
      std::to_string(r["transistors_logic"].get<std::uint64_t>() + r["transistors_sram"].get<std::uint64_t>()),
      std::to_string(f["transistors"].get<std::uint64_t>()));
  if (r.contains("critical_path_ps")) {
    row("critical path (ps)", num(r["critical_path_ps"]), num(f["critical_path_ps"]));
    row("fmax (MHz)", num(r["fmax_mhz"], 0), flops ? num(1e6 / f["critical_path_ps"].get<double>(), 0) : "");
  }
  for (const auto& m : r["memories"])
    std::cout << "\nSRAM " << m["name"].get<std::string>() << ": " << m["words"] << " x " << m["width"] << " bits, "
              << m["ports"] << " port(s), " << num(m["area_um2"]) << " um2 (first-order model, docs/rtl.md)";
  if (r.contains("critical_path_ps"))
    std::cout << "\ncritical path = clk-to-q + " << num(r["logic_delay_ps"]) << " ps of logic (ABC) + setup; SRAM access not included\n";
  else
    std::cout << "\n" << num(r["logic_delay_ps"]) << " ps of logic (ABC); the critical path is OpenSTA's, below\n";
  std::cout << "cells:";
  for (const auto& [type, n] : r["cells"].items()) std::cout << " " << type << "=" << n;
  std::cout << "\n";
  if (r.contains("static_timing")) {
    const json& t = r["static_timing"];
    std::cout << "\nstatic timing (OpenSTA, " << t["netlist"].get<std::string>() << ") at "
              << num(t["clock_hz"].get<double>() / 1e6, 0) << " MHz from " << t["clock_from"].get<std::string>() << ", period "
              << num(t["period_ps"]) << " ps, inputs and outputs at 0 ps external delay:\n"
              << "worst slack " << num(t["worst_slack_ps"]) << " ps (" << (t["worst_slack_ps"].get<double>() >= 0 ? "met" : "VIOLATED")
              << "), critical path " << num(t["critical_path_ps"]) << " ps (fmax " << num(t["fmax_mhz"], 0) << " MHz)"
              << (t.contains("tns_ps") ? ", TNS " + num(t["tns_ps"]) + " ps" : "") << "\n"
              << std::left << std::setw(28) << "from" << std::setw(28) << "to" << std::setw(12) << "arrival" << std::setw(12)
              << "required" << "slack (ps)\n";
    for (const auto& p : t["paths"])
      std::cout << std::setw(28) << p["from"].get<std::string>() << std::setw(28) << p["to"].get<std::string>() << std::setw(12)
                << num(p["arrival_ps"]) << std::setw(12) << num(p["required_ps"]) << num(p["slack_ps"]) << "\n";
  }
  if (!o.json.empty()) sim::write_report(o.json, r.dump(2) + "\n", "area report");
  return 0;
}

}  // namespace irr::app
