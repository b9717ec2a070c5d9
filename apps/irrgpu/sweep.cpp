// SPDX-License-Identifier: Apache-2.0
// `irrgpu sweep`: run, status, collect, report, and the task a backend runs (docs/sweeps.md).
#include "apps/irrgpu/sweep.h"

#include <fcntl.h>
#include <fnmatch.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "apps/irrgpu/commands.h"
#include "apps/irrgpu/sweep/backends.h"
#include "sim/output_file.h"

namespace irr::app {
namespace fs = std::filesystem;
using nlohmann::json;
using sweep::Folder;
using sweep::State;

namespace {

// The command line as one string (for --dry-run and messages).
std::string shell_line(const std::vector<std::string>& args) {
  std::string s;
  for (const auto& a : args) {
    const bool plain = a.find_first_of(" '\"$;&|<>*?()\\") == std::string::npos && !a.empty();
    std::string quoted = "'";
    for (char c : a) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    s += (s.empty() ? "" : " ") + (plain ? a : quoted + "'");
  }
  return s;
}

// Holds an exclusive lock on DIR/.lock while a sweep runs there.
class FolderLock {
 public:
  explicit FolderLock(const std::string& dir) {
    fs::create_directories(dir);
    fd_ = open((fs::path(dir) / ".lock").c_str(), O_CREAT | O_RDWR, 0644);
    if (fd_ < 0 || flock(fd_, LOCK_EX | LOCK_NB) != 0)
      throw Error({dir, 0, 0}, "another `irrgpu sweep run` is using this folder", Error::Kind::usage);
  }
  ~FolderLock() {
    if (fd_ >= 0) close(fd_);
  }

 private:
  int fd_ = -1;
};

json load_stats(const std::string& run_dir) {
  std::ifstream in(run_dir + "/stats.json");
  if (!in) return json::object();
  try {
    return json::parse(in).value("stats", json::object());
  } catch (const json::exception&) {
    return json::object();
  }
}

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string number(double v) { return json(v).dump(); }  // the shortest text that reads back the same

int run_report(const Folder& folder, const sweep::Spec& spec) {
  if (spec.report.empty()) {
    std::cerr << "irrgpu: error: the sweep file has no report: command\n";
    return 2;
  }
  const std::string cwd = fs::path(spec.file).parent_path().string();
  for (const auto& command : spec.report) {
    std::vector<std::string> words;
    for (std::string w : command) {
      for (const auto& [key, value] : {std::pair<std::string, std::string>{"{dir}", fs::absolute(folder.dir()).string()},
                                       {"{irrgpu}", sweep::self_exe()}})
        for (std::size_t at; (at = w.find(key)) != std::string::npos;) w.replace(at, key.size(), value);
      words.push_back(w);
    }
    std::cerr << "[sweep] report: " << shell_line(words) << " (in " << cwd << ")\n";
    const pid_t pid = fork();
    if (pid == 0) {
      if (chdir(cwd.c_str()) != 0) _exit(127);
      std::vector<char*> argv;
      for (auto& w : words) argv.push_back(w.data());
      argv.push_back(nullptr);
      execvp(argv[0], argv.data());
      std::cerr << "irrgpu: error: cannot run the report command " << words[0] << "\n";
      _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::cerr << "irrgpu: error: the report command " << words[0] << " failed\n";
      return 1;
    }
  }
  return 0;
}

}  // namespace

int sweep_run(const SweepRunOptions& o) {
  return guarded([&] {
    const sweep::Spec spec = sweep::expand(o.file);
    if (o.backend != "local" && o.backend != "slurm")
      throw Error({"--backend", 0, 0}, "'" + o.backend + "': local or slurm", Error::Kind::usage);
    std::vector<std::pair<std::string, std::string>> only;
    for (const auto& kv : o.only) {
      const auto eq = kv.find('=');
      if (eq == std::string::npos) throw Error({"--only", 0, 0}, "'" + kv + "': expected KEY=VALUE", Error::Kind::usage);
      only.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    }
    auto selected = [&](const sweep::Run& r) {
      for (const auto& [k, v] : only)
        if (!r.params.count(k) || r.params.at(k) != v) return false;
      return true;
    };
    if (o.dry_run) {
      std::size_t listed = 0;
      for (const auto& r : spec.runs) {
        if (!selected(r)) continue;
        ++listed;
        std::vector<std::string> line = {"irrgpu"};
        line.insert(line.end(), r.args.begin(), r.args.end());
        std::cout << r.id << "  " << shell_line(line) << "\n";
      }
      std::cout << listed << " runs\n";
      return 0;
    }
    const std::string dir = o.output_dir.empty() ? (fs::path("sweeps") / spec.name).string() : o.output_dir;
    FolderLock lock(dir);
    const Folder folder(dir);
    if (const auto active = sweep::active_slurm_jobs(folder); !active.empty())
      throw Error({dir, 0, 0}, "Slurm jobs of this sweep are still queued or running (" + active.front() +
                                   (active.size() > 1 ? ", ..." : "") + "): wait for them or scancel them",
                  Error::Kind::usage);
    folder.write_plan(spec, sweep::self_exe());
    std::vector<std::string> todo;
    std::size_t done = 0, failed = 0, skipped = 0;
    for (const auto& r : spec.runs) {
      if (!selected(r)) {
        ++skipped;
        continue;
      }
      const auto st = folder.status(r.id);
      if (st && st->state == State::done) ++done;
      else if (st && st->state == State::failed && !o.rerun_failed) ++failed;
      else todo.push_back(r.id);
    }
    std::cerr << "[sweep] " << spec.name << ": " << spec.runs.size() << " runs in " << dir << "; " << done << " done";
    if (failed) std::cerr << ", " << failed << " failed (--rerun-failed runs them again)";
    std::cerr << ", " << todo.size() << " to run (" << o.backend << ")";
    if (skipped) std::cerr << "; " << skipped << " left out by --only";
    std::cerr << "\n";
    if (!only.empty() && skipped == spec.runs.size())
      throw Error({"--only", 0, 0}, "no run of the sweep has these parameters", Error::Kind::usage);
    int rc = 0;
    if (o.backend == "local") {
      rc = sweep::run_local(folder, todo, o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency()),
                            o.progress);
    } else {
      sweep::SlurmOptions s;
      s.resources = spec.resources;
      if (!o.time.empty()) s.resources.time = o.time;
      if (!o.mem.empty()) s.resources.mem = o.mem;
      if (!o.partition.empty()) s.resources.partition = o.partition;
      if (!o.account.empty()) s.resources.account = o.account;
      if (o.throttle) s.resources.throttle = o.throttle;
      s.wait = o.wait;
      rc = sweep::run_slurm(folder, todo, s);
      if (!o.wait) return rc;
    }
    if (rc == 0 && failed == 0 && skipped == 0 && !spec.report.empty() && !o.no_report) return run_report(folder, spec);
    if (rc == 0 && failed) rc = 1;
    return rc;
  });
}

int sweep_status(const std::string& dir) {
  return guarded([&] {
    const Folder folder(dir);
    const sweep::Spec spec = folder.read_plan();
    std::map<State, std::size_t> count;
    std::vector<std::pair<std::string, sweep::Status>> failed;
    for (const auto& r : spec.runs) {
      const auto st = folder.status(r.id);
      ++count[st ? st->state : State::pending];
      if (st && st->state == State::failed) failed.emplace_back(r.id, *st);
    }
    std::cout << "sweep " << spec.name << " (" << spec.file << "): " << spec.runs.size() << " runs\n  ";
    for (State s : {State::done, State::failed, State::interrupted, State::pending})
      std::cout << sweep::state_name(s) << " " << count[s] << (s == State::pending ? "\n" : ", ");
    if (const auto active = sweep::active_slurm_jobs(folder); !active.empty()) {
      std::cout << "  Slurm jobs queued or running:";
      for (const auto& j : active) std::cout << " " << j;
      std::cout << "\n";
    }
    if (!failed.empty()) std::cout << "failed (`irrgpu sweep run SPEC --rerun-failed` runs them again):\n";
    for (const auto& [id, st] : failed)
      std::cout << "  " << id << ": " << st.error << " (" << folder.run_dir(id) << "/stderr.txt)\n";
    return 0;
  });
}

int sweep_collect(const SweepCollectOptions& o) {
  return guarded([&] {
    const Folder folder(o.dir);
    const sweep::Spec spec = folder.read_plan();
    const std::string out = o.output.empty() ? (fs::path(o.dir) / "results.csv").string() : o.output;
    const std::string ext = fs::path(out).extension().string();
    if (ext != ".csv" && ext != ".json")
      throw Error({out, 0, 0}, "collect writes .csv or .json (no Debian package offers Parquet to C++ or Python in "
                               "Debian 12; docs/sweeps.md)",
                  Error::Kind::usage);
    const std::vector<std::string> globs = o.stats.empty() ? std::vector<std::string>{"*"} : o.stats;
    auto wanted = [&](const std::string& name) {
      for (const auto& g : globs)
        if (fnmatch(g.c_str(), name.c_str(), 0) == 0) return true;
      return false;
    };
    // Columns: the parameters (run fields in their order, then configuration keys), then the statistics.
    std::set<std::string> param_keys, stat_names;
    std::vector<json> stats;
    for (const auto& r : spec.runs) {
      for (const auto& [k, v] : r.params) param_keys.insert(k);
      json s = json::object();
      const auto st = folder.status(r.id);  // an interrupted run's statistics are incomplete: left out
      const json all = st && st->state == State::done ? load_stats(folder.run_dir(r.id)) : json::object();
      for (const auto& [name, entry] : all.items())
        if (entry.is_object() && entry.contains("value") && entry["value"].is_number() && wanted(name)) {
          s[name] = entry["value"];
          stat_names.insert(name);
        }
      stats.push_back(std::move(s));
    }
    std::vector<std::string> params;
    for (const auto& [f, option] : sweep::run_fields())
      if (param_keys.erase(f)) params.push_back(f);
    params.insert(params.end(), param_keys.begin(), param_keys.end());

    std::ostringstream text;
    if (ext == ".json") {
      json rows = json::array();
      for (std::size_t i = 0; i < spec.runs.size(); ++i) {
        const auto& r = spec.runs[i];
        const auto st = folder.status(r.id);
        rows.push_back({{"id", r.id}, {"group", r.group}, {"state", sweep::state_name(st ? st->state : State::pending)},
                        {"seconds", st ? st->seconds : 0.0}, {"max_rss_mb", st ? st->max_rss_mb : 0.0},
                        {"error", st ? st->error : ""}, {"params", r.params}, {"stats", stats[i]}});
      }
      text << rows.dump(1) << "\n";
    } else {
      text << "id,group,state";
      for (const auto& p : params) text << "," << csv_cell(p);
      text << ",seconds,max_rss_mb,error";
      for (const auto& s : stat_names) text << "," << csv_cell(s);
      text << "\n";
      for (std::size_t i = 0; i < spec.runs.size(); ++i) {
        const auto& r = spec.runs[i];
        const auto st = folder.status(r.id);
        text << r.id << "," << csv_cell(r.group) << "," << sweep::state_name(st ? st->state : State::pending);
        for (const auto& p : params) text << "," << (r.params.count(p) ? csv_cell(r.params.at(p)) : "");
        text << "," << (st ? number(st->seconds) : "") << "," << (st ? number(st->max_rss_mb) : "") << ","
             << csv_cell(st ? st->error : "");
        for (const auto& s : stat_names) text << "," << (stats[i].contains(s) ? number(stats[i][s].get<double>()) : "");
        text << "\n";
      }
    }
    sim::write_file(out, text.str(), "the collected results");
    std::cerr << "[sweep] " << spec.runs.size() << " runs, " << stat_names.size() << " statistics -> " << out << "\n";
    return 0;
  });
}

int sweep_report(const std::string& dir) {
  return guarded([&] {
    const Folder folder(dir);
    return run_report(folder, folder.read_plan());
  });
}

int sweep_task(const SweepTaskOptions& o) {
  return guarded([&] {
    const Folder folder(o.dir);
    std::string id = o.id;
    if (!o.list.empty()) {
      std::ifstream in(o.list);
      if (!in) throw Error({o.list, 0, 0}, "cannot read the run list", Error::Kind::usage);
      std::string line;
      for (long i = 0; std::getline(in, line); ++i)
        if (i == o.index) id = line;
      if (id.empty())
        throw Error({o.list, 0, 0}, "no run at index " + std::to_string(o.index), Error::Kind::usage);
    }
    if (id.empty()) throw Error("sweep task: give a run id, or --list FILE --index N", Error::Kind::usage);
    return sweep::run_task(folder, id);
  });
}

}  // namespace irr::app
