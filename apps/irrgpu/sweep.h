// SPDX-License-Identifier: Apache-2.0
// `irrgpu sweep` (apps/irrgpu/sweep.cpp; docs/sweeps.md).
#pragma once

#include <string>
#include <vector>

namespace irr::app {

struct SweepRunOptions {
  std::string file, output_dir, backend = "local";
  unsigned jobs = 0;  // 0: one per core
  bool rerun_failed = false, dry_run = false, progress = false, wait = false, no_report = false;
  // Slurm: override the sweep file's resources and slurm sections.
  std::string time, mem, partition, account;
  unsigned throttle = 0;
  std::vector<std::string> only;  // KEY=VALUE: run only the runs with these parameters
};
int sweep_run(const SweepRunOptions& options);
int sweep_status(const std::string& dir);

struct SweepCollectOptions {
  std::string dir, output;          // output: .csv (default DIR/results.csv) or .json
  std::vector<std::string> stats;   // globs of statistic names (default: all)
};
int sweep_collect(const SweepCollectOptions& options);
int sweep_report(const std::string& dir);

struct SweepTaskOptions {
  std::string dir, id, list;  // a run id, or line `index` of the file `list`
  long index = -1;
};
int sweep_task(const SweepTaskOptions& options);

}  // namespace irr::app
