// SPDX-License-Identifier: Apache-2.0
// A sweep's output folder (docs/sweeps.md): runs.json (the expanded runs), and per run
// runs/<id>/ holding the run's own outputs, its stdout and stderr, and status.json, written
// when the run ends. A run without status.json has not run (or was killed with its task).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "apps/irrgpu/sweep/spec.h"

namespace irr::app::sweep {

enum class State { pending, done, failed, interrupted };
const char* state_name(State s);

struct Status {
  State state = State::pending;
  int exit_code = 0, signal = 0;
  double seconds = 0, max_rss_mb = 0;
  std::string error;  // the line that says why a run failed
  std::string host, started_at;
};

class Folder {
 public:
  explicit Folder(std::string dir);

  // Records the expanded sweep (runs.json); runs already in the folder keep their outputs.
  void write_plan(const Spec& spec, const std::string& irrgpu) const;
  // The recorded sweep; an error naming the folder if it holds none.
  Spec read_plan() const;
  std::string irrgpu() const;  // the binary the plan was made with

  const std::string& dir() const { return dir_; }
  std::string run_dir(const std::string& id) const;
  std::optional<Status> status(const std::string& id) const;  // empty: pending
  void write_status(const std::string& id, const Status& s) const;

 private:
  std::string dir_;
};

// This irrgpu binary's path (what a backend starts tasks with).
std::string self_exe();

// Runs one run of a recorded sweep in a child process (`irrgpu run ... -o runs/<id>`), forwarding
// SIGINT and SIGTERM to it, then writes its status.json. Returns the run's exit code.
int run_task(const Folder& folder, const std::string& id);

}  // namespace irr::app::sweep
