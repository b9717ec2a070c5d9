// SPDX-License-Identifier: Apache-2.0
#include "apps/irrgpu/sweep/folder.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/output_file.h"
#include "sim/signals.h"

namespace irr::app::sweep {
namespace fs = std::filesystem;
using nlohmann::json;

const char* state_name(State s) {
  switch (s) {
    case State::pending: return "pending";
    case State::done: return "done";
    case State::failed: return "failed";
    case State::interrupted: return "interrupted";
  }
  return "?";
}

namespace {

json read_json(const std::string& path, const std::string& what) {
  std::ifstream in(path);
  if (!in) throw Error({path, 0, 0}, "cannot read " + what, Error::Kind::usage);
  try {
    return json::parse(in);
  } catch (const json::exception& e) {
    throw Error({path, 0, 0}, what + " is not valid JSON: " + e.what(), Error::Kind::usage);
  }
}

std::string now_utc() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

// The line of a failed run's output that says why: irrgpu's error line, else a failed check.
std::string error_line(const std::string& run_dir) {
  std::string found, line;
  std::ifstream err(run_dir + "/stderr.txt");
  while (std::getline(err, line))
    if (line.rfind("irrgpu:", 0) == 0) found = line;
  if (!found.empty()) return found;
  std::ifstream out(run_dir + "/stdout.txt");
  while (std::getline(out, line))
    if (line.rfind("check: FAIL", 0) == 0) return line;
  return found;
}

}  // namespace

std::string self_exe() { return fs::read_symlink("/proc/self/exe").string(); }

Folder::Folder(std::string dir) : dir_(std::move(dir)) {}

std::string Folder::run_dir(const std::string& id) const { return (fs::path(dir_) / "runs" / id).string(); }

void Folder::write_plan(const Spec& spec, const std::string& irrgpu) const {
  fs::create_directories(fs::path(dir_) / "runs");
  json runs = json::array();
  for (const auto& r : spec.runs)
    runs.push_back({{"id", r.id}, {"group", r.group}, {"params", r.params}, {"args", r.args}});
  const Resources& res = spec.resources;
  const json plan = {{"name", spec.name},
                     {"sweep_file", spec.file},
                     {"irrgpu", irrgpu},
                     {"report", spec.report},
                     {"resources",
                      {{"time", res.time}, {"mem", res.mem}, {"cpus", res.cpus}, {"partition", res.partition},
                       {"account", res.account}, {"throttle", res.throttle}, {"setup", res.setup}, {"sbatch", res.sbatch}}},
                     {"runs", runs}};
  sim::write_file((fs::path(dir_) / "runs.json").string(), plan.dump(1) + "\n", "the sweep's runs.json");
}

Spec Folder::read_plan() const {
  const std::string path = (fs::path(dir_) / "runs.json").string();
  if (!sim::file_exists(path))
    throw Error({dir_, 0, 0}, "not a sweep folder (no runs.json; `irrgpu sweep run SPEC -o DIR` makes one)",
                Error::Kind::usage);
  const json plan = read_json(path, "the sweep's runs.json");
  Spec spec;
  try {
    spec.name = plan.at("name");
    spec.file = plan.at("sweep_file");
    const json& report = plan.at("report");  // a list of commands (one command, its words, in older folders)
    if (!report.empty() && report[0].is_string()) spec.report.push_back(report.get<std::vector<std::string>>());
    else spec.report = report.get<std::vector<std::vector<std::string>>>();
    const json& r = plan.at("resources");
    spec.resources = {r.at("time"), r.at("mem"), r.at("cpus"), r.at("partition"), r.at("account"),
                      r.at("throttle"), r.at("setup").get<std::vector<std::string>>(),
                      r.at("sbatch").get<std::vector<std::string>>()};
    for (const auto& run : plan.at("runs"))
      spec.runs.push_back({run.at("id"), run.at("params").get<std::map<std::string, std::string>>(),
                           run.at("args").get<std::vector<std::string>>(), run.value("group", "")});
  } catch (const json::exception& e) {
    throw Error({path, 0, 0}, std::string("a field is missing or of the wrong type: ") + e.what(), Error::Kind::usage);
  }
  return spec;
}

std::string Folder::irrgpu() const {
  return read_json((fs::path(dir_) / "runs.json").string(), "the sweep's runs.json").value("irrgpu", "");
}

std::optional<Status> Folder::status(const std::string& id) const {
  const std::string path = run_dir(id) + "/status.json";
  if (!sim::file_exists(path)) return std::nullopt;
  const json j = read_json(path, "a run's status.json");
  Status s;
  const std::string state = j.value("state", "");
  s.state = state == "done" ? State::done : state == "failed" ? State::failed
          : state == "interrupted" ? State::interrupted : State::pending;
  s.exit_code = j.value("exit_code", 0);
  s.signal = j.value("signal", 0);
  s.seconds = j.value("seconds", 0.0);
  s.max_rss_mb = j.value("max_rss_mb", 0.0);
  s.error = j.value("error", "");
  s.host = j.value("host", "");
  s.started_at = j.value("started_at", "");
  return s;
}

void Folder::write_status(const std::string& id, const Status& s) const {
  const json j = {{"state", state_name(s.state)}, {"exit_code", s.exit_code}, {"signal", s.signal},
                  {"seconds", s.seconds},         {"max_rss_mb", s.max_rss_mb}, {"error", s.error},
                  {"host", s.host},               {"started_at", s.started_at}};
  sim::write_file(run_dir(id) + "/status.json", j.dump(1) + "\n", "a run's status.json");
}

int run_task(const Folder& folder, const std::string& id) {
  const Spec spec = folder.read_plan();
  const Run* run = nullptr;
  for (const auto& r : spec.runs)
    if (r.id == id) run = &r;
  if (!run) throw Error({folder.dir(), 0, 0}, "no run '" + id + "' in this sweep", Error::Kind::usage);
  const std::string dir = folder.run_dir(id);
  fs::create_directories(dir);
  fs::remove(dir + "/status.json");  // a rerun: pending until it ends

  std::vector<std::string> args = run->args;
  args.insert(args.end(), {"--output-dir", dir});
  std::string irrgpu = folder.irrgpu();
  if (irrgpu.empty() || !fs::exists(irrgpu)) irrgpu = self_exe();
  std::vector<char*> argv = {irrgpu.data()};
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  Status s;
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  s.host = host;
  s.started_at = now_utc();
  sim::SignalCatcher signals;  // passed on to the run once it is forked
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) throw Error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    const int out = open((dir + "/stdout.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = open((dir + "/stderr.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || err < 0) _exit(127);
    dup2(out, 1);
    dup2(err, 2);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    execv(irrgpu.c_str(), argv.data());
    dprintf(2, "irrgpu: error: cannot run %s: %s\n", irrgpu.c_str(), std::strerror(errno));
    _exit(127);
  }
  signals.forward_to(pid);
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  signals.forward_to(0);
  rusage ru{};
  getrusage(RUSAGE_CHILDREN, &ru);
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  s.max_rss_mb = static_cast<double>(ru.ru_maxrss) / 1024.0;
  s.exit_code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
  s.signal = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
  if (s.exit_code == 0) {
    s.state = State::done;
  } else if (signals.caught() || s.exit_code == 130) {
    // Stopped from outside (Ctrl-C, a killed sweep, scancel, Slurm's time limit): run again on resume.
    s.state = State::interrupted;
    s.error = signals.caught() == SIGTERM ? "interrupted (SIGTERM: a stopped sweep, scancel or Slurm's time limit)"
                                          : "interrupted (SIGINT)";
  } else {
    s.state = State::failed;
    s.error = error_line(dir);
    if (s.error.empty())
      s.error = s.signal ? std::string("killed by signal ") + std::to_string(s.signal) + " (" + strsignal(s.signal) +
                               (s.signal == SIGKILL ? "; out of memory?" : "") + ")"
                         : "exit code " + std::to_string(s.exit_code) + " (see stderr.txt)";
  }
  folder.write_status(id, s);
  return s.exit_code;
}

}  // namespace irr::app::sweep
