// SPDX-License-Identifier: Apache-2.0
// SIGINT and SIGTERM caught into a flag while a SignalCatcher lives — a run stopping at its next
// clock edge, a sweep stopping in order, a sweep task passing them on to its run — and the
// handlers from before it back when it ends. One at a time in a process: the handler is a plain
// function writing globals, as a signal handler must be.
#pragma once

#include <sys/types.h>

#include <csignal>
#include <initializer_list>
#include <utility>
#include <vector>

namespace irr::sim {
namespace detail {
inline volatile std::sig_atomic_t g_caught = 0;  // inline: a run's monitor asks after every edge
}

class SignalCatcher {
 public:
  // `once`: the handler resets itself (SA_RESETHAND), so a second signal acts as it did before
  // (by default it ends the process). Throws std::logic_error while another catcher lives.
  explicit SignalCatcher(std::initializer_list<int> signals = {SIGINT, SIGTERM}, bool once = false);
  ~SignalCatcher();
  SignalCatcher(const SignalCatcher&) = delete;
  SignalCatcher& operator=(const SignalCatcher&) = delete;

  static int caught() { return detail::g_caught; }  // the last signal caught, 0 if none
  // From now on a caught signal is sent on to `child` too (0: to none); one caught already is
  // sent at once (it may have come between the fork and this call).
  void forward_to(pid_t child);

 private:
  std::vector<std::pair<int, struct sigaction>> old_;
  sigset_t caught_set_;  // the signals caught
};

}  // namespace irr::sim
