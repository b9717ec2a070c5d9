// SPDX-License-Identifier: Apache-2.0
#include "sim/signals.h"

#include <signal.h>

#include <stdexcept>

namespace irr::sim {
namespace {
volatile pid_t g_child = 0;
bool g_active = false;

extern "C" void on_signal(int sig) {
  detail::g_caught = sig;
  if (g_child > 0) kill(g_child, sig);
}
}  // namespace

SignalCatcher::SignalCatcher(std::initializer_list<int> signals, bool once) {
  if (g_active) throw std::logic_error("SignalCatcher: another one is catching signals");
  g_active = true;
  detail::g_caught = 0;
  g_child = 0;
  struct sigaction a {};
  a.sa_handler = on_signal;
  sigemptyset(&a.sa_mask);
  a.sa_flags = once ? SA_RESETHAND : 0;
  sigemptyset(&caught_set_);
  for (int sig : signals) {
    sigaddset(&caught_set_, sig);
    old_.push_back({sig, {}});
    sigaction(sig, &a, &old_.back().second);
  }
}

SignalCatcher::~SignalCatcher() {
  g_child = 0;
  for (auto& [sig, old] : old_) sigaction(sig, &old, nullptr);
  g_active = false;
}

void SignalCatcher::forward_to(pid_t child) {
  // Held while the child is set and the flag read: a signal then is forwarded once, by the
  // handler as they are let through, not also here.
  sigset_t held;
  sigprocmask(SIG_BLOCK, &caught_set_, &held);
  g_child = child;
  const int before = detail::g_caught;
  sigprocmask(SIG_SETMASK, &held, nullptr);
  if (child > 0 && before) kill(child, before);
}

}  // namespace irr::sim
