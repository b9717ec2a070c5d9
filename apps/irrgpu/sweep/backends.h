// SPDX-License-Identifier: Apache-2.0
// Where a sweep's runs execute: child processes on this machine, or a Slurm job array.
#pragma once

#include <string>
#include <vector>

#include "apps/irrgpu/sweep/folder.h"

namespace irr::app::sweep {

// Runs `ids` as `irrgpu sweep task` processes, `jobs` at a time, with a progress line (done /
// running / failed, ETA) on a terminal or when `progress`, else a line per run that ends.
// SIGINT or SIGTERM stops it: running runs are interrupted (pending again), none start.
// Returns 0 when every run is done, 1 if one failed, 130 if stopped.
int run_local(const Folder& folder, const std::vector<std::string>& ids, unsigned jobs, bool progress);

struct SlurmOptions {
  Resources resources;  // the sweep file's, with the command line's overrides
  bool wait = false;    // poll until every submitted run has ended
  unsigned max_array = 1000;  // tasks per job array (Slurm's MaxArraySize is 1001 by default)
};

// Submits `ids` as job arrays through sbatch (each task `irrgpu sweep task DIR --list F --index
// $SLURM_ARRAY_TASK_ID`), recording the job ids in DIR/slurm/jobs.json. With `wait`, returns as
// run_local does once they have ended.
int run_slurm(const Folder& folder, const std::vector<std::string>& ids, const SlurmOptions& options);

// Slurm jobs of this sweep still queued or running (empty when none, or squeue is absent).
std::vector<std::string> active_slurm_jobs(const Folder& folder);

// The memory a run of this sweep asks Slurm for, in MiB: the largest measured so far × 1.5, else
// an estimate from its graph's size (docs/sweeps.md).
unsigned estimate_mem_mb(const Folder& folder, const Spec& spec);

}  // namespace irr::app::sweep
