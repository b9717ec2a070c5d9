// SPDX-License-Identifier: Apache-2.0
#include "sim/simulation.h"

#include <nlohmann/json.hpp>
#include <spdlog/version.h>
#include <yaml-cpp/yaml.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <sys/resource.h>

#include "sim/output_file.h"
#include "sim/signals.h"
#include "sim/version.h"

namespace irr::sim {
namespace {
// A run cut short leaves DIR/outstanding.txt: what each module still had to do then (an SM's warps
// with their progress), the first thing to read when a workload does not finish.
void write_outstanding(const std::string& dir, const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  if (!text.empty()) write_file((std::filesystem::path(dir) / "outstanding.txt").string(), text);
}


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

// Housekeeping after each stepped clock edge: time-series samples, the watchdog and the progress
// line. It runs on model activity only, so it never keeps a finished simulation alive or moves the
// time at which it ends.
class Simulation::Monitor : public EdgeObserver {
 public:
  Monitor(Simulation& sim, Picoseconds sample_interval, std::uint64_t watchdog_cycles, std::ostream* progress,
          unsigned progress_interval_ms)
      : sim_(sim), sample_interval_(sample_interval), next_sample_(sample_interval),
        watchdog_cycles_(watchdog_cycles), progress_(progress), progress_interval_(progress_interval_ms),
        started_(std::chrono::steady_clock::now()), last_print_(started_) {}

  void after_edge() override {
    if (const int sig = SignalCatcher::caught(); sig && interrupted_.empty()) {
      interrupted_ = std::string(sig == SIGINT ? "interrupted (SIGINT)" : "terminated (SIGTERM)") + " at " +
                     si(static_cast<double>(now_ps()) * 1e-12, "s");
      sc_core::sc_stop();
      return;
    }
    if (watchdog_cycles_) {
      const std::uint64_t p = sim_.progress_ + sim_.transactions_->count();
      if (p != last_progress_) {
        last_progress_ = p;
        quiet_cycles_ = 0;
      } else if (++quiet_cycles_ == watchdog_cycles_) {
        fire();
      }
    }
    if (progress_ && ++edges_ % 4096 == 0) {
      auto now = std::chrono::steady_clock::now();
      if (now - last_print_ >= progress_interval_) {
        last_print_ = now;
        print_progress(now, false);
      }
    }
  }

  // A sample holds what the edges before this instant left: taken before any of its edges, it
  // does not depend on which clock domain SystemC steps first at an instant they share.
  void before_edges() override {
    if (sample_interval_ && now_ps() >= next_sample_) {
      const Picoseconds t = now_ps();
      for (auto& c : sim_.clocks_) c->catch_up_held();
      sim_.stats_.sample(t);
      last_sample_ = t;
      next_sample_ = (t / sample_interval_ + 1) * sample_interval_;
    }
  }

  // Each sample's time is an event of the clocks' drivers while the model has work after it: a
  // sample falls on every interval, however quiet the model is then.
  Picoseconds next_look() const override { return sample_interval_ ? next_sample_ : ~Picoseconds{0}; }

  // At the end of the run: the last sample, and the progress line's final state.
  void finish() {
    if (sample_interval_ && last_sample_ != now_ps()) sim_.stats_.sample(now_ps());
    if (progress_ && printed_) print_progress(std::chrono::steady_clock::now(), true);
  }
  const std::string& failure() const { return failure_; }
  const std::string& interrupted() const { return interrupted_; }

 private:
  void fire() {
    std::ostringstream s;
    s << "watchdog: no progress for " << watchdog_cycles_ << " active clock cycles (sim.watchdog_cycles) at "
      << si(static_cast<double>(now_ps()) * 1e-12, "s") << "; outstanding:";
    std::vector<std::string> lines = sim_.outstanding();
    if (lines.empty()) s << " nothing reported";
    for (const auto& l : lines) s << "\n  " << l;
    failure_ = s.str();
    sc_core::sc_stop();
  }

  void print_progress(std::chrono::steady_clock::time_point now, bool last) {
    const ClockDomain& core = sim_.clocks_.front()->domain();
    double elapsed = std::chrono::duration<double>(now - started_).count();
    Cycle cycles = core.cycle_at(now_ps());
    *progress_ << "\rirrgpu: " << cycles << " core cycles (" << si(static_cast<double>(now_ps()) * 1e-12, "s")
               << " simulated), " << si(static_cast<double>(cycles) / std::max(elapsed, 1e-9), "")
               << "cycles/s, " << std::fixed << std::setprecision(1) << elapsed << " s elapsed" << std::defaultfloat
               << "\x1b[K" << (last ? "\n" : "") << std::flush;
    printed_ = true;
  }

  Simulation& sim_;
  const Picoseconds sample_interval_;
  Picoseconds next_sample_, last_sample_ = ~Picoseconds{0};
  const std::uint64_t watchdog_cycles_;
  std::uint64_t last_progress_ = 0, quiet_cycles_ = 0, edges_ = 0;
  std::ostream* progress_;
  const std::chrono::milliseconds progress_interval_;
  bool printed_ = false;
  std::chrono::steady_clock::time_point started_, last_print_;
  std::string failure_, interrupted_;
};

Simulation::Simulation(Config config, const std::string& log_file)
    : config_(std::move(config)),
      logging_(log_file),
      seed_(config_.get_uint("sim.seed")),
      time_limit_(config_.get_time("sim.time_limit")),
      run_ahead_(config_.get_bool("sim.run_ahead")) {
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
                   [s] { return static_cast<double>(s->active_edges()); });
    // One SystemC process steps the domains (ClockScheduler::drive), the first one's: all of them
    // in time order when run ahead, those of one period otherwise (each edge its own event then).
    for (auto& c : clocks_)
      if (run_ahead_ || c->domain().period() == domain.period()) {
        c->drive(*s);
        break;
      }
    clocks_.push_back(std::move(sched));
  }
  transactions_ = &stats_.counter("sim.memory_transactions", "memory transactions completed, all models", "transactions");
  stats_.formula("sim.time", "simulated time", "ps", [] { return static_cast<double>(now_ps()); });

  const Cycle every = config_.get_uint("stats.sample_every");
  sample_interval_ = every ? clock(config_.get_string("stats.sample_domain")).domain().time_of(every) : 0;
  watchdog_cycles_ = config_.get_uint("sim.watchdog_cycles");
  check_protocol_ = config_.get_bool("sim.check_protocol");
#ifdef IRRGPU_DEBUG_BUILD
  check_protocol_ = true;  // debug builds check every hop
#endif
}

void Simulation::observe(const ObserveOptions& options) {
  observe_ = options;
  if (!options.fst.empty() && std::system("command -v vcd2fst >/dev/null 2>&1") != 0)
    throw Error({"--fst", 0, 0}, "needs vcd2fst (Debian package gtkwave)", Error::Kind::usage);
  txn_trace_ = options.txn_trace.empty() ? nullptr : std::make_unique<TxnTrace>(options.txn_trace_limit);
}

std::vector<std::string> Simulation::outstanding() const {
  std::vector<std::string> lines;
  for (const auto& [name, o] : watched_)
    for (const auto& item : o->outstanding()) lines.push_back(name + ": " + item);
  return lines;
}

void Simulation::finish_traces() {
  if (vcd_) {
    vcd_->finish(now_ps());
    vcd_.reset();
    if (!observe_.fst.empty()) {
      const std::string vcd = observe_.vcd.empty() ? observe_.fst + ".tmp.vcd" : observe_.vcd;
      const std::string partial = observe_.fst + ".partial";
      const std::string cmd = "vcd2fst '" + vcd + "' '" + partial + "' >/dev/null 2>&1";
      int rc = std::system(cmd.c_str());
      if (observe_.vcd.empty()) std::remove(vcd.c_str());
      if (rc != 0 || std::rename(partial.c_str(), observe_.fst.c_str()) != 0) {
        std::remove(partial.c_str());
        throw Error({observe_.fst, 0, 0}, "vcd2fst failed to write the FST file", Error::Kind::usage);
      }
    }
  }
  if (txn_trace_) {
    txn_trace_->write(observe_.txn_trace);
    if (txn_trace_->dropped())  // said where it is seen, not only inside the file
      std::cerr << "irrgpu: warning: " << observe_.txn_trace << " stopped at " << txn_trace_->limit() << " events; "
                << txn_trace_->dropped() << " later ones were dropped (--txn-trace-limit raises the limit)\n";
  }
}

Simulation::~Simulation() { logging_.flush(); }

ClockScheduler& Simulation::clock(const std::string& domain) {
  for (auto& c : clocks_)
    if (c->domain().name() == domain) return *c;
  throw std::logic_error("no clock domain '" + domain + "'");
}

std::mt19937_64 Simulation::rng(const std::string& module_name) const {
  ++random_streams_;
  std::seed_seq seq{static_cast<std::uint32_t>(seed_), static_cast<std::uint32_t>(seed_ >> 32),
                    static_cast<std::uint32_t>(fnv1a(module_name)), static_cast<std::uint32_t>(fnv1a(module_name) >> 32)};
  return std::mt19937_64(seq);
}

void Simulation::snapshot(const std::string& label) {
  for (auto& c : clocks_) c->settle_held();  // components asleep with work: counted as if they had ticked
  stats_.snapshot(label, now_ps());
}

RunReport Simulation::run() {
  config_.check_unused();
  std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  started_at_ = buf;

  if (!observe_.vcd.empty() || !observe_.fst.empty()) {
    vcd_ = std::make_unique<VcdWriter>(observe_.vcd.empty() ? observe_.fst + ".tmp.vcd" : observe_.vcd);
    vcd_->start(probes_.select(observe_.trace), now_ps());
  }
  monitor_ = std::make_unique<Monitor>(*this, sample_interval_, watchdog_cycles_, observe_.progress,
                                       observe_.progress_interval_ms);
  for (auto& c : clocks_) {
    c->set_observer(monitor_.get());
    c->run_ahead(run_ahead_, time_limit_ ? time_limit_ : ~Picoseconds{0});  // sc_start stops at the limit
  }

  std::string failure;
  auto t0 = std::chrono::steady_clock::now();
  try {
    // Ctrl-C or SIGTERM: the first asks the monitor to stop at the next clock edge (the statistics
    // so far are written); the handler resets itself, so a second one ends the process at once.
    SignalCatcher signals({SIGINT, SIGTERM}, true);
    if (time_limit_) sc_core::sc_start(sc_core::sc_time(static_cast<double>(time_limit_), sc_core::SC_PS));
    else sc_core::sc_start();
  } catch (const sc_core::sc_report& r) {
    failure = describe(r);
  }
  report_.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  report_.simulated_ps = now_ps();
  monitor_->finish();
  for (auto& c : clocks_) c->set_observer(nullptr);
  logging_.flush();
  report_.incomplete = monitor_->interrupted();
  const bool interrupted = !report_.incomplete.empty() && failure.empty();
  if (failure.empty()) failure = monitor_->failure();
  // A run cut short (a signal, the time limit) keeps its statistics so far, marked incomplete,
  // with what was outstanding; returns where it says they are.
  auto keep_so_far = [&]() -> std::string {
    if (interrupt_dir_.empty()) return "";
    write_outputs(interrupt_dir_, interrupt_command_line_);
    write_outstanding(interrupt_dir_, outstanding());
    return "; the statistics so far are in " + interrupt_dir_ + " (marked incomplete)";
  };
  if (!interrupted && failure.empty() && time_limit_ && sc_core::sc_pending_activity()) {
    failure = "sim.time_limit (" + format_time(time_limit_) + ") reached with activity still pending";
    report_.incomplete = failure;
    failure += keep_so_far();
  }
  if (!interrupted && failure.empty()) {
    std::vector<std::string> lines = outstanding();
    if (!lines.empty()) {
      failure = "the simulation ran out of events with work outstanding (a lost wake-up or a deadlock):";
      for (const auto& l : lines) failure += "\n  " + l;
    }
  }
  finish_traces();  // also after a failure: the waveform and trace up to it are what a user debugs
  if (interrupted) throw Error(report_.incomplete + keep_so_far(), Error::Kind::interrupted);
  if (!failure.empty()) throw Error(failure);
  return report_;
}

nlohmann::json Simulation::run_json(const std::vector<std::string>& command_line) const {
  nlohmann::json j;
  j["host_seconds"] = report_.host_seconds;
  rusage usage{};  // the process's peak resident memory so far (Linux: ru_maxrss in KiB)
  if (getrusage(RUSAGE_SELF, &usage) == 0) j["peak_memory_bytes"] = static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
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
  if (!report_.incomplete.empty()) j["incomplete"] = report_.incomplete;
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
  // The energy model's headline (models/power), when it ran.
  const Stat *total = stats_.find("energy.total"), *dynamic = stats_.find("energy.dynamic"), *power = stats_.find("energy.average_power");
  if (total && dynamic && power) {
    std::ostringstream line;  // its own stream: the table leaves `out`'s precision as it likes
    line << std::setprecision(6) << "energy " << total->value() << " uJ (dynamic " << dynamic->value() << " uJ, static "
         << total->value() - dynamic->value() << " uJ), " << power->value() << " W on average inside kernels\n";
    out << line.str();
  }
  // Sampled simulation's estimate (models/gpu/sampling.h), when it ran.
  const Stat *timed = stats_.find("gpu.sampling.timed_kernels"), *charged = stats_.find("gpu.sampling.extrapolated_kernels"),
             *clusters = stats_.find("gpu.sampling.clusters"), *cycles = stats_.find("gpu.kernel_cycles"),
             *estimated = stats_.find("gpu.sampling.extrapolated_cycles"), *bound = stats_.find("gpu.sampling.error_bound_cycles");
  if (timed && charged && cycles && estimated && bound) {  // clusters: with kernels only
    std::ostringstream line;
    line << std::fixed << std::setprecision(0) << "sampled: " << timed->value() << " launches timed whole, "
         << charged->value() << " charged";
    if (clusters) line << ", in " << clusters->value() << " clusters";
    line << "; kernel cycles " << cycles->value() << ", of which " << estimated->value() << " estimated, +/- "
         << bound->value() << std::setprecision(2) << " (" << (cycles->value() > 0 ? 100 * bound->value() / cycles->value() : 0.0)
         << " %); instructions exact, other statistics of the timed launches only\n";
    out << line.str();
  }
  out << speed_line() << "\n";
}

void Simulation::write_outputs(const std::string& dir, const std::vector<std::string>& command_line) const {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error({dir, 0, 0}, "cannot create the output directory: " + ec.message(), Error::Kind::usage);
  auto write = [&](const std::string& name, const std::string& text) { write_file((fs::path(dir) / name).string(), text); };
  write("config.yaml", config_.to_yaml());
  nlohmann::json stats = stats_.to_json();
  if (!report_.incomplete.empty()) stats["incomplete"] = report_.incomplete;
  write("stats.json", stats.dump(2) + "\n");
  std::ostringstream csv;
  stats_.write_csv(csv, report_.incomplete);
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
