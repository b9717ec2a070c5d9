// SPDX-License-Identifier: Apache-2.0
// The local backend: `irrgpu sweep task` children, `jobs` at a time.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <iostream>
#include <map>
#include <thread>

#include "apps/irrgpu/sweep/backends.h"
#include "sim/signals.h"

namespace irr::app::sweep {

namespace {

std::string duration(double s) {
  char buf[32];
  if (s < 10) std::snprintf(buf, sizeof buf, "%.1fs", s);
  else if (s < 60) std::snprintf(buf, sizeof buf, "%.0fs", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  else std::snprintf(buf, sizeof buf, "%dh%02dm", static_cast<int>(s) / 3600, static_cast<int>(s) / 60 % 60);
  return buf;
}

}  // namespace

int run_local(const Folder& folder, const std::vector<std::string>& ids, unsigned jobs, bool progress) {
  const std::string self = self_exe();
  const bool tty = progress || isatty(2);
  std::deque<std::string> queue(ids.begin(), ids.end());
  std::map<pid_t, std::pair<std::string, std::chrono::steady_clock::time_point>> running;
  std::size_t done = 0, failed = 0, interrupted = 0;
  double busy = 0;  // seconds of finished runs, for the ETA
  const sim::SignalCatcher signals;
  const auto t0 = std::chrono::steady_clock::now();
  auto show = [&](bool final) {
    if (!tty) return;
    const std::size_t ended = done + failed;
    std::string eta = "";
    if (ended > 0 && queue.size() + running.size() > 0)
      eta = ", ETA " + duration(busy / ended * static_cast<double>(queue.size() + running.size()) / jobs);
    std::fprintf(stderr, "\r[sweep] %zu/%zu done, %zu running, %zu failed%s, %s elapsed\033[K%s", done, ids.size(),
                 running.size(), failed, eta.c_str(),
                 duration(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()).c_str(),
                 final ? "\n" : "");
    std::fflush(stderr);
  };
  bool forwarded = false;
  while (!queue.empty() || !running.empty()) {
    const int stop = signals.caught();
    if (stop && !forwarded) {  // stop starting runs; the running ones end interrupted
      queue.clear();
      for (const auto& [pid, r] : running) kill(pid, stop);
      forwarded = true;
    }
    while (!signals.caught() && running.size() < jobs && !queue.empty()) {
      const std::string id = queue.front();
      queue.pop_front();
      const pid_t pid = fork();
      if (pid < 0) throw Error(std::string("fork: ") + std::strerror(errno));
      if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        execl(self.c_str(), self.c_str(), "sweep", "task", folder.dir().c_str(), id.c_str(), static_cast<char*>(nullptr));
        _exit(127);
      }
      running[pid] = {id, std::chrono::steady_clock::now()};
    }
    int wstatus = 0;
    const pid_t pid = waitpid(-1, &wstatus, WNOHANG);
    if (pid <= 0) {
      show(false);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      continue;
    }
    auto it = running.find(pid);
    if (it == running.end()) continue;
    const auto [id, start] = it->second;
    running.erase(it);
    const auto st = folder.status(id);
    const State s = st ? st->state : State::interrupted;  // a task killed before it could write one
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (s == State::done) {
      ++done;
      busy += secs;
    } else if (s == State::failed) {
      ++failed;
      busy += secs;
    } else {
      ++interrupted;
    }
    if (s == State::failed || !tty) {
      if (tty) std::fprintf(stderr, "\r\033[K");
      std::fprintf(stderr, "[sweep] %s %s (%s)%s%s\n", state_name(s), id.c_str(), duration(secs).c_str(),
                   st && !st->error.empty() ? ": " : "", st ? st->error.c_str() : "");
    }
    show(false);
  }
  show(true);
  if (signals.caught()) {
    std::fprintf(stderr, "[sweep] stopped: %zu done, %zu failed, %zu interrupted, %zu not started; the same command "
                 "again resumes\n", done, failed, interrupted, ids.size() - done - failed - interrupted);
    return 130;
  }
  return failed ? 1 : 0;
}

}  // namespace irr::app::sweep
