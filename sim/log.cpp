// SPDX-License-Identifier: Apache-2.0
#include "sim/log.h"

#include <fnmatch.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <stdexcept>
#include <systemc>

#include "sim/clock.h"

namespace irr::sim {
namespace {

// %* in the pattern: the current simulated time ("1429 ps").
class SimTimeFlag : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg&, const std::tm&, spdlog::memory_buf_t& dest) override {
    std::string t = sc_core::sc_time::from_value(now_ps()).to_string();
    dest.append(t.data(), t.data() + t.size());
  }
  std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<SimTimeFlag>(); }
};

std::unique_ptr<spdlog::formatter> make_formatter() {
  auto f = std::make_unique<spdlog::pattern_formatter>();
  f->add_flag<SimTimeFlag>('*').set_pattern("[%l %*] %n: %v");
  return f;
}

Logging* g_report_target = nullptr;  // the Logging SystemC reports go to (SystemC's handler is a plain function)

void report_handler(const sc_core::sc_report& r, const sc_core::sc_actions& actions) {
  // Errors and fatals end the run: thrown as the report itself, which SystemC carries out of
  // sc_start (it re-reports exceptions a process throws as SC_ERROR, which lands here too). The
  // top level prints them once, so they are not logged here.
  if (r.get_severity() >= sc_core::SC_ERROR) throw r;
  if (!g_report_target || !(actions & (sc_core::SC_DISPLAY | sc_core::SC_LOG))) return;
  std::string who = "systemc";
  if (sc_core::sc_get_current_process_handle().valid()) who = sc_core::sc_get_current_process_handle().name();
  auto log = g_report_target->get(who);
  std::string text = std::string(r.get_msg_type()) + ": " + r.get_msg();
  if (r.get_severity() == sc_core::SC_WARNING) log->warn(text);
  else log->info(text);
}

}  // namespace

std::string describe(const sc_core::sc_report& r) {
  std::string where = "[" + r.get_time().to_string() + "] ";
  if (r.get_process_name() && *r.get_process_name()) where += std::string(r.get_process_name()) + ": ";
  if (std::string(r.get_msg_type()) == sc_core::SC_ID_SIMULATION_UNCAUGHT_EXCEPTION_) return where + r.get_msg();
  return where + r.get_msg_type() + ": " + r.get_msg();
}

spdlog::level::level_enum parse_level(const std::string& name) {
  static const std::pair<const char*, spdlog::level::level_enum> kLevels[] = {
      {"trace", spdlog::level::trace}, {"debug", spdlog::level::debug}, {"info", spdlog::level::info},
      {"warn", spdlog::level::warn},   {"error", spdlog::level::err},   {"off", spdlog::level::off}};
  for (const auto& [n, l] : kLevels)
    if (name == n) return l;
  throw std::invalid_argument("'" + name + "' is not a log level (trace, debug, info, warn, error, off)");
}

Logging::Logging(const std::string& file) {
  sinks_.push_back(std::make_shared<spdlog::sinks::stderr_sink_mt>());
  if (!file.empty()) sinks_.push_back(std::make_shared<spdlog::sinks::basic_file_sink_mt>(file, true));
  for (auto& s : sinks_) s->set_formatter(make_formatter());
}

Logging::~Logging() {
  flush();
  if (g_report_target == this) g_report_target = nullptr;
}

void Logging::add_level(const std::string& spec) {
  auto eq = spec.rfind('=');
  if (eq == std::string::npos) add_level("*", spec);
  else add_level(spec.substr(0, eq), spec.substr(eq + 1));
}

void Logging::add_level(const std::string& pattern, const std::string& level) {
  levels_.emplace_back(pattern, parse_level(level));
  for (auto& l : loggers_) l->set_level(level_for(l->name()));
}

spdlog::level::level_enum Logging::level_for(const std::string& name) const {
  auto level = spdlog::level::info;
  for (const auto& [pattern, l] : levels_)
    if (fnmatch(pattern.c_str(), name.c_str(), 0) == 0) level = l;
  return level;
}

std::shared_ptr<spdlog::logger> Logging::get(const std::string& name) {
  for (auto& l : loggers_)
    if (l->name() == name) return l;
  auto l = std::make_shared<spdlog::logger>(name, sinks_.begin(), sinks_.end());
  l->set_level(level_for(name));
  l->flush_on(spdlog::level::warn);
  loggers_.push_back(l);
  return l;
}

void Logging::add_sink(spdlog::sink_ptr sink) {
  sink->set_formatter(make_formatter());
  sinks_.push_back(sink);
  for (auto& l : loggers_) l->sinks().push_back(sink);
}

void Logging::capture_systemc_reports() {
  g_report_target = this;
  sc_core::sc_report_handler::set_handler(report_handler);
  // sc_stop() announces itself; the run says why it stopped instead.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
}

void Logging::flush() {
  for (auto& l : loggers_) l->flush();
}

}  // namespace irr::sim
