// SPDX-License-Identifier: Apache-2.0
// Logging through spdlog: one logger per module under its hierarchical name, lines
// "[level simtime] hier.name: message", levels per glob pattern ("l2.*=debug", last match wins).
// SystemC's own reports go through the same sinks; SC_ERROR and SC_FATAL end the run (exit 1).
#pragma once

#include <spdlog/fwd.h>  // <spdlog/spdlog.h> where a logger is used: most models never log

#include <memory>
#include <systemc>
#include <string>
#include <utility>
#include <vector>

namespace irr::sim {

class Logging {
 public:
  // Sinks: stderr, plus a file when `file` is not empty.
  explicit Logging(const std::string& file = "");
  ~Logging();
  Logging(const Logging&) = delete;
  Logging& operator=(const Logging&) = delete;

  // Adds "PATTERN=LEVEL" (or a bare LEVEL for "*"); throws std::invalid_argument on a bad level.
  void add_level(const std::string& spec);
  void add_level(const std::string& pattern, const std::string& level);
  spdlog::level::level_enum level_for(const std::string& name) const;

  // The logger of a module; created on first use with the level its name matches.
  std::shared_ptr<spdlog::logger> get(const std::string& name);
  // Routes SystemC reports (SC_REPORT_*) to the logger named after the report's message type's
  // process, or "systemc"; errors and fatals become exceptions that end the run.
  void capture_systemc_reports();
  void flush();

  // For tests: a sink that captures lines in memory.
  void add_sink(std::shared_ptr<spdlog::sinks::sink> sink);

 private:
  std::vector<std::shared_ptr<spdlog::sinks::sink>> sinks_;
  std::vector<std::pair<std::string, spdlog::level::level_enum>> levels_;
  std::vector<std::shared_ptr<spdlog::logger>> loggers_;
};

spdlog::level::level_enum parse_level(const std::string& name);  // throws std::invalid_argument
// One line for an error report: "[10 ns] top.proc: msg_type: message".
std::string describe(const sc_core::sc_report& r);

}  // namespace irr::sim
