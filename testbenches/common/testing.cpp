// SPDX-License-Identifier: Apache-2.0
#include "testbenches/common/testing.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace irr::testing {
namespace fs = std::filesystem;

TempDir::TempDir() {
  std::string tmpl = (fs::temp_directory_path() / "irrgpu-test-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string TempDir::write(const std::string& name, const std::string& text) const {
  fs::path p = fs::path(path_) / name;
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
  return p.string();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

sim::Config make_config(const std::vector<std::string>& sets, const std::string& preset) {
  sim::Config cfg(sim::Schema::builtin());
  if (!preset.empty()) cfg.load(preset);
  for (const auto& s : sets) cfg.set(s);
  return cfg;
}

Testbench::Testbench(const std::vector<std::string>& sets, const std::string& preset) {
  std::vector<std::string> all{"sim.check_protocol=true"};
  if (const char* seed = std::getenv("IRRGPU_TEST_SEED")) all.push_back(std::string("sim.seed=") + seed);
  if (const char* set = std::getenv("IRRGPU_TEST_SET")) all.push_back(set);
  all.insert(all.end(), sets.begin(), sets.end());
  sim_ = std::make_unique<sim::Simulation>(make_config(all, preset));
}

sim::RunReport Testbench::run() {
  sim::RunReport report = sim_->run();
  if (const char* dir = std::getenv("IRRGPU_TEST_OUTPUTS")) {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string(test->test_suite_name()) + "." + test->name();
    std::replace(name.begin(), name.end(), '/', '_');
    const std::string out = std::string(dir) + "/" + name;
    sim_->write_outputs(out, {});
    std::ofstream(out + "/random_streams") << sim_->random_streams() << "\n";
  }
  return report;
}

double stat_sum(sim::Simulation& sim, const std::string& suffix) { return sim.stats().sum("", suffix); }

double Testbench::stat(const std::string& name) const {
  const sim::Stat* s = sim_->stats().find(name);
  if (!s) throw std::runtime_error("no statistic named '" + name + "'");
  return s->value();
}

Vcd parse_vcd(const std::string& text) {
  Vcd vcd;
  std::map<std::string, std::string> code_to_name;
  std::vector<std::string> scope;
  std::istringstream in(text);
  std::uint64_t t = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream w(line);
    std::string tok;
    w >> tok;
    if (tok == "$scope") {
      std::string kind, name;
      w >> kind >> name;
      scope.push_back(name);
    } else if (tok == "$upscope") {
      scope.pop_back();
    } else if (tok == "$var") {
      std::string type, width, code, name;
      w >> type >> width >> code >> name;
      std::string full;
      for (const auto& s : scope) full += s + ".";
      code_to_name[code] = full + name;
      vcd.widths[full + name] = static_cast<unsigned>(std::stoul(width));
    } else if (!tok.empty() && tok[0] == '#') {
      t = std::stoull(tok.substr(1));
    } else if (!tok.empty() && tok[0] == 'b') {
      std::string code;
      w >> code;
      if (code_to_name.count(code) && tok.find_first_of("xzXZ") == std::string::npos)
        vcd.changes[code_to_name[code]].emplace_back(t, std::stoull(tok.substr(tok.size() > 65 ? tok.size() - 64 : 1), nullptr, 2));
    } else if (!tok.empty() && (tok[0] == '0' || tok[0] == '1') && code_to_name.count(tok.substr(1))) {
      vcd.changes[code_to_name[tok.substr(1)]].emplace_back(t, tok[0] - '0');
    }
  }
  return vcd;
}

std::vector<std::string> gtkw_signals(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '@' && line[0] != '-' && line[0] != '[') out.push_back(line);
  return out;
}

namespace {
std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}
}  // namespace

CliResult run_cli(const std::vector<std::string>& args, double interrupt_after) {
  TempDir tmp;
  // --foreground: the signal goes to the command alone. Without it timeout also signals its whole
  // process group, so the command gets a second SIGINT at once — which, by design, ends it.
  std::string cmd = interrupt_after > 0 ? "timeout --foreground --preserve-status -s INT " + std::to_string(interrupt_after) + " " : "";
  cmd += quote(IRRGPU_CLI);
  for (const auto& a : args) cmd += " " + quote(a);
  std::string out = tmp.path() + "/out", err = tmp.path() + "/err";
  cmd += " </dev/null >" + quote(out) + " 2>" + quote(err);
  int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

}  // namespace irr::testing
