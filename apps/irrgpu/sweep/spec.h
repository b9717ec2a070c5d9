// SPDX-License-Identifier: Apache-2.0
// A sweep file (docs/sweeps.md): configurations, workloads, graphs and seeds as axes, expanded to
// `irrgpu run` command lines with stable ids.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sim/error.h"

namespace irr::app::sweep {

// One run: its parameters (the run fields and the configuration keys it sets, each as written in
// the sweep file) and the `irrgpu run` arguments they make, without --output-dir.
struct Run {
  std::string id;  // <workload>-<variant>-<hash of params>: the same parameters give the same id
  std::map<std::string, std::string> params;
  std::vector<std::string> args;
  std::string group;  // the name of the first group that makes it (not a parameter: no part of its id)
};

// What a Slurm job array asks for (each a default the command line can override).
struct Resources {
  std::string time = "01:00:00";  // sbatch --time
  std::string mem;                // sbatch --mem; empty: estimated from the runs' graphs
  unsigned cpus = 1;
  std::string partition, account;
  unsigned throttle = 0;              // at most this many array tasks at once (0: no limit)
  std::vector<std::string> setup;     // shell lines before the run (module load ..., source ...)
  std::vector<std::string> sbatch;    // further sbatch options, as given
};

struct Spec {
  std::string name, file;  // file: the sweep file's absolute path
  std::vector<Run> runs;   // in expansion order, without duplicates
  Resources resources;
  // Commands run once every run is done, in the sweep file's folder ({dir}, {irrgpu} substituted).
  std::vector<std::vector<std::string>> report;
};

// Reads and expands a sweep file; every key and value is checked (configuration keys against the
// schema, with every preset or file each run loads) and an error names file:line and why.
Spec expand(const std::string& file);

// The run fields a sweep file may name besides configuration keys, each with its `irrgpu run` option
// (one ending in "=" is a flag: its value joins it, --handoff=true).
const std::vector<std::pair<std::string, std::string>>& run_fields();

// The id of a run with these parameters.
std::string run_id(const std::map<std::string, std::string>& params);

// The `irrgpu run` arguments for these parameters (configuration first, then --set in key order,
// then the run fields in run_fields() order; -q always).
std::vector<std::string> run_args(const std::map<std::string, std::string>& params);

}  // namespace irr::app::sweep
