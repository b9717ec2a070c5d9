// SPDX-License-Identifier: Apache-2.0
// The Slurm backend: one job array per (up to) 1,000 runs, submitted with sbatch.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "apps/irrgpu/sweep/backends.h"
#include "sim/output_file.h"
#include "sim/signals.h"

namespace irr::app::sweep {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Single quotes for the shell.
std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs a command, returning its exit code and what it printed.
int capture(const std::string& command, std::string& out) {
  out.clear();
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (!p) return -1;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  const int rc = pclose(p);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

bool on_path(const std::string& program) {
  std::string out;
  return capture("command -v " + program, out) == 0;
}

std::string jobs_file(const Folder& f) { return (fs::path(f.dir()) / "slurm" / "jobs.json").string(); }

json read_jobs(const Folder& f) {
  std::ifstream in(jobs_file(f));
  if (!in) return json::array();
  try {
    return json::parse(in);
  } catch (const json::exception&) {
    return json::array();
  }
}

// Edges a graph argument stands for, roughly (generators by their parameters, files by size).
double graph_edges(const std::string& graph) {
  const auto colon = graph.find(':');
  if (colon == std::string::npos) {
    std::error_code ec;
    const auto size = fs::file_size(graph, ec);
    return ec ? 0 : static_cast<double>(size) / 8;  // a text edge line is some 8-20 bytes
  }
  std::map<std::string, double> p;
  std::stringstream kv(graph.substr(colon + 1));
  for (std::string item; std::getline(kv, item, ',');) {
    const auto eq = item.find('=');
    if (eq != std::string::npos) p[item.substr(0, eq)] = std::atof(item.substr(eq + 1).c_str());
  }
  const std::string kind = graph.substr(0, colon);
  if (kind == "rmat") return (p.count("edge_factor") ? p["edge_factor"] : 16) * std::pow(2.0, p["scale"]);
  if (kind == "grid") return 4 * p["rows"] * p["cols"];
  if (kind == "random") return p["m"];
  if (kind == "rgg") return p["n"] * p["n"] * M_PI * p["radius"] * p["radius"];
  return 0;
}

std::string script(const Folder& folder, const std::string& irrgpu, const std::string& ids_file, std::size_t count,
                   const Resources& r, unsigned mem_mb, const std::string& name) {
  std::ostringstream s;
  const std::string dir = fs::absolute(folder.dir()).string();
  s << "#!/bin/bash\n"
    << "# irrgpu sweep " << name << ": " << count << " runs, one array task each (irrgpu sweep run --backend slurm)\n"
    << "#SBATCH --job-name=irrgpu-" << name << "\n"
    << "#SBATCH --array=0-" << count - 1 << (r.throttle ? "%" + std::to_string(r.throttle) : "") << "\n"
    << "#SBATCH --time=" << r.time << "\n"
    << "#SBATCH --mem=" << (r.mem.empty() ? std::to_string(mem_mb) + "M" : r.mem) << "\n"
    << "#SBATCH --cpus-per-task=" << r.cpus << "\n"
    << "#SBATCH --output=" << dir << "/slurm/%A_%a.out\n";
  if (!r.partition.empty()) s << "#SBATCH --partition=" << r.partition << "\n";
  if (!r.account.empty()) s << "#SBATCH --account=" << r.account << "\n";
  for (const auto& o : r.sbatch) s << "#SBATCH " << o << "\n";
  s << "set -e\n";
  for (const auto& line : r.setup) s << line << "\n";
  s << "exec " << quote(irrgpu) << " sweep task " << quote(dir) << " --list " << quote(ids_file)
    << " --index \"$SLURM_ARRAY_TASK_ID\"\n";
  return s.str();
}

}  // namespace

unsigned estimate_mem_mb(const Folder& folder, const Spec& spec) {
  double measured = 0, edges = 0;
  for (const auto& run : spec.runs) {
    if (auto st = folder.status(run.id); st && st->max_rss_mb > 0) measured = std::max(measured, st->max_rss_mb);
    if (auto g = run.params.find("graph"); g != run.params.end()) {
      const fs::path path = fs::path(spec.file).parent_path() / g->second;
      edges = std::max(edges, graph_edges(g->second.find(':') == std::string::npos ? path.string() : g->second));
    }
  }
  // Measured (timed bfs/data on gtx480, peak RSS): R-MAT scale 12 29 MiB, 14 33 MiB, 16 (1 M edges)
  // 47 MiB: some 30 MiB and 14 bytes an edge. 256 MiB and 64 bytes an edge leave room for units,
  // sampling and traces.
  const double mb = measured > 0 ? measured * 1.5 : 256 + edges * 64 / (1 << 20);
  return static_cast<unsigned>(std::ceil(mb / 256) * 256);
}

std::vector<std::string> active_slurm_jobs(const Folder& folder) {
  const json jobs = read_jobs(folder);
  if (jobs.empty() || !on_path("squeue")) return {};
  std::set<std::string> ours;
  for (const auto& j : jobs) ours.insert(j.value("job", ""));
  std::string out;
  if (capture("squeue -h -o %A", out) != 0) return {};
  std::set<std::string> active;
  std::stringstream lines(out);
  for (std::string id; lines >> id;)
    if (ours.count(id)) active.insert(id);
  return {active.begin(), active.end()};
}

int run_slurm(const Folder& folder, const std::vector<std::string>& ids, const SlurmOptions& o) {
  if (!on_path("sbatch"))
    throw Error("--backend slurm: sbatch is not on PATH (install slurm-client, or load the cluster's Slurm module)",
                Error::Kind::usage);
  if (ids.empty()) return 0;
  const Spec spec = folder.read_plan();
  const unsigned mem = estimate_mem_mb(folder, spec);
  const std::string irrgpu = self_exe();
  fs::create_directories(fs::path(folder.dir()) / "slurm");
  json jobs = read_jobs(folder);
  for (std::size_t first = 0; first < ids.size(); first += o.max_array) {
    const std::size_t count = std::min<std::size_t>(o.max_array, ids.size() - first);
    const std::string stem = (fs::absolute(folder.dir()) / "slurm" / ("submit-" + std::to_string(jobs.size()))).string();
    std::string list;
    for (std::size_t i = first; i < first + count; ++i) list += ids[i] + "\n";
    sim::write_file(stem + ".ids", list, "the job array's run list");
    sim::write_file(stem + ".sbatch", script(folder, irrgpu, stem + ".ids", count, o.resources, mem, spec.name),
                    "the job array's script");
    std::string out;
    if (capture("sbatch --parsable " + quote(stem + ".sbatch"), out) != 0)
      throw Error("sbatch refused " + stem + ".sbatch: " + out.substr(0, out.find_last_not_of("\n") + 1));
    const std::string job = out.substr(0, out.find_first_of(";\n"));
    std::time_t t = std::time(nullptr);
    char when[32];
    std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    jobs.push_back({{"job", job}, {"script", stem + ".sbatch"}, {"runs", count}, {"submitted_at", when}});
    sim::write_file(jobs_file(folder), jobs.dump(1) + "\n", "the sweep's Slurm jobs.json");
    std::cout << "[sweep] submitted job array " << job << ": " << count << " runs (" << stem << ".sbatch)\n";
  }
  if (!o.wait) {
    std::cout << "[sweep] `irrgpu sweep status " << folder.dir() << "` follows them\n";
    return 0;
  }
  const sim::SignalCatcher signals({SIGINT});
  std::size_t done = 0, failed = 0, ended = 0;
  while (!signals.caught()) {
    // The queue first, then the statuses: a task writes its status before its job leaves the
    // queue, so once the queue is empty every status is there to read (the other order missed a
    // job that ended between the two).
    const bool queued = !active_slurm_jobs(folder).empty();
    done = failed = ended = 0;
    for (const auto& id : ids)
      if (auto st = folder.status(id)) {
        ++ended;
        done += st->state == State::done;
        failed += st->state == State::failed;
      }
    if (ended == ids.size() || !queued) break;
    std::this_thread::sleep_for(std::chrono::seconds(2));
  }
  if (signals.caught()) {
    std::cout << "[sweep] stopped waiting; the jobs go on (`irrgpu sweep status " << folder.dir() << "`)\n";
    return 130;
  }
  std::cout << "[sweep] " << done << "/" << ids.size() << " done, " << failed << " failed";
  if (ended < ids.size())
    std::cout << ", " << ids.size() - ended << " ended without a status (see " << folder.dir() << "/slurm/*.out)";
  std::cout << "\n";
  return done == ids.size() ? 0 : 1;
}

}  // namespace irr::app::sweep
