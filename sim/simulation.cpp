// SPDX-License-Identifier: Apache-2.0
#include "sim/simulation.h"

#include <spdlog/version.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "sim/version.h"

namespace irr::sim {
namespace {

const char* const kDomains[] = {"core", "interconnect", "l2", "dram"};

std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

// 3 significant digits with an SI prefix: si(3.05e-5, "s") = "30.5 us".
std::string si(double v, const std::string& unit) {
  static const char* const prefix[] = {"p", "n", "u", "m", "", "k", "M", "G", "T"};
  int i = 4;
  while (v != 0 && std::fabs(v) < 1 && i > 0) { v *= 1000; --i; }
  while (std::fabs(v) >= 1000 && i < 8) { v /= 1000; ++i; }
  std::ostringstream s;
  s << std::setprecision(3) << v << " " << prefix[i] << unit;
  if (unit.empty() && i != 4) s << " ";
  return s.str();
}

}  // namespace

// Samples every statistic each `every` cycles of a domain while the model has activity pending,
// so sampling never keeps an otherwise finished simulation alive.
class Simulation::Sampler : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Sampler);
  Sampler(const sc_core::sc_module_name& n, StatsRegistry& stats, const ClockDomain& domain, Cycle every)
      : sc_core::sc_module(n), stats_(stats), interval_(static_cast<double>(domain.time_of(every)), sc_core::SC_PS) {
    SC_METHOD(sample);  // runs once at start-up to arm itself
  }
  void finish() {
    if (stats_.sample_count() == 0 || last_ != now_ps()) stats_.sample(now_ps());
  }

 private:
  void sample() {
    if (!armed_) {
      armed_ = true;
      return next_trigger(interval_);
    }
    last_ = now_ps();
    stats_.sample(last_);
    if (sc_core::sc_pending_activity()) next_trigger(interval_);
  }
  StatsRegistry& stats_;
  sc_core::sc_time interval_;
  Picoseconds last_ = 0;
  bool armed_ = false;
};

Simulation::Simulation(Config config, const std::string& log_file)
    : config_(std::move(config)),
      logging_(log_file),
      seed_(config_.get_uint("sim.seed")),
      time_limit_(config_.get_time("sim.time_limit")) {
  // SystemC prints a banner when its kernel starts unless told not to.
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  logging_.add_level("*", config_.get_string("log.level"));
  for (const auto& [pattern, level] : config_.get_map("log.levels")) logging_.add_level(pattern, level);
  logging_.capture_systemc_reports();
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);

  for (const char* d : kDomains) {
    std::string key = std::string("clocks.") + d;
    ClockDomain domain = ClockDomain::from_frequency(d, config_.get_frequency(key));
    auto sched = std::make_unique<ClockScheduler>((std::string("clock_") + d).c_str(), domain);
    ClockScheduler* s = sched.get();
    stats_.formula(std::string("clocks.") + d + ".cycles", "cycles of the " + std::string(d) + " clock elapsed", "cycles",
                   [s] { return static_cast<double>(s->domain().cycle_at(now_ps())); });
    stats_.formula(std::string("clocks.") + d + ".active_cycles",
                   "edges of the " + std::string(d) + " clock at which some component had work", "cycles",
                   [s] { return static_cast<double>(s->edges_stepped()); });
    clocks_.push_back(std::move(sched));
  }
  transactions_ = &stats_.counter("sim.memory_transactions", "memory transactions completed, all models", "transactions");
  stats_.formula("sim.time", "simulated time", "ps", [] { return static_cast<double>(now_ps()); });

  if (Cycle every = config_.get_uint("stats.sample_every")) {
    const std::string dom = config_.get_string("stats.sample_domain");
    sampler_ = std::make_unique<Sampler>("stats_sampler", stats_, clock(dom).domain(), every);
  }
}

Simulation::~Simulation() { logging_.flush(); }

ClockScheduler& Simulation::clock(const std::string& domain) {
  for (auto& c : clocks_)
    if (c->domain().name() == domain) return *c;
  throw std::logic_error("no clock domain '" + domain + "'");
}

std::mt19937_64 Simulation::rng(const std::string& module_name) const {
  std::seed_seq seq{static_cast<std::uint32_t>(seed_), static_cast<std::uint32_t>(seed_ >> 32),
                    static_cast<std::uint32_t>(fnv1a(module_name)), static_cast<std::uint32_t>(fnv1a(module_name) >> 32)};
  return std::mt19937_64(seq);
}

void Simulation::snapshot(const std::string& label) { stats_.snapshot(label, now_ps()); }

RunReport Simulation::run() {
  config_.check_unused();
  std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  started_at_ = buf;

  const Picoseconds limit = time_limit_;
  auto t0 = std::chrono::steady_clock::now();
  try {
    if (limit) sc_core::sc_start(sc_core::sc_time(static_cast<double>(limit), sc_core::SC_PS));
    else sc_core::sc_start();
  } catch (const sc_core::sc_report& r) {
    logging_.flush();
    throw Error(describe(r));
  }
  report_.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  report_.simulated_ps = now_ps();
  if (sampler_) sampler_->finish();
  logging_.flush();
  if (limit && sc_core::sc_pending_activity())
    throw Error("sim.time_limit (" + format_time(limit) + ") reached with activity still pending");
  return report_;
}

nlohmann::json Simulation::run_json(const std::vector<std::string>& command_line) const {
  nlohmann::json j;
  j["host_seconds"] = report_.host_seconds;
  j["simulated_ps"] = report_.simulated_ps;
  j["started_at"] = started_at_;
  j["seed"] = seed_;
  j["command_line"] = command_line;
  j["versions"] = versions();
  double host = report_.host_seconds > 0 ? report_.host_seconds : 1e-9;
  for (const auto& c : clocks_) {
    Cycle cycles = c->domain().cycle_at(report_.simulated_ps);
    j["cycles"][c->domain().name()] = cycles;
    j["rates"][c->domain().name() + "_cycles_per_second"] = static_cast<double>(cycles) / host;
  }
  j["memory_transactions"] = transactions_->count();
  j["rates"]["memory_transactions_per_second"] = static_cast<double>(transactions_->count()) / host;
  return j;
}

std::string Simulation::speed_line() const {
  double host = report_.host_seconds > 0 ? report_.host_seconds : 1e-9;
  const ClockDomain& core = clocks_.front()->domain();
  Cycle cycles = core.cycle_at(report_.simulated_ps);
  std::ostringstream s;
  s << "simulated " << si(static_cast<double>(report_.simulated_ps) * 1e-12, "s") << " (" << cycles << " core cycles) in " << std::setprecision(3) << report_.host_seconds << " s host: "
    << si(static_cast<double>(cycles) / host, "") << "cycles/s, "
    << si(static_cast<double>(transactions_->count()) / host, "") << "memory transactions/s";
  return s.str();
}

void Simulation::print_summary(std::ostream& out, const std::string& pattern) const {
  stats_.print_table(out, pattern);
  out << speed_line() << "\n";
}

void Simulation::write_outputs(const std::string& dir, const std::vector<std::string>& command_line) const {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error({dir, 0, 0}, "cannot create the output directory: " + ec.message(), Error::Kind::usage);
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream f(fs::path(dir) / name);
    f << text;
    if (!f) throw Error({(fs::path(dir) / name).string(), 0, 0}, "cannot write", Error::Kind::usage);
  };
  write("config.yaml", config_.to_yaml());
  write("stats.json", stats_.to_json().dump(2) + "\n");
  std::ostringstream csv;
  stats_.write_csv(csv);
  write("stats.csv", csv.str());
  write("run.json", run_json(command_line).dump(2) + "\n");
}

nlohmann::json versions() {
  return {{"irrgpu", IRRGPU_VERSION},
          {"systemc", sc_core::sc_release()},
          {"spdlog", std::to_string(SPDLOG_VER_MAJOR) + "." + std::to_string(SPDLOG_VER_MINOR) + "." + std::to_string(SPDLOG_VER_PATCH)},
          {"nlohmann_json", std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." + std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." + std::to_string(NLOHMANN_JSON_VERSION_PATCH)},
          {"compiler", __VERSION__}};
}

std::string version_string() {
  return std::string("irrgpu ") + IRRGPU_VERSION + " (SystemC " + sc_core::sc_release() + ", " + __VERSION__ + ")";
}

}  // namespace irr::sim
