// SPDX-License-Identifier: Apache-2.0
// The stopwatch Rodinia's cfd takes from the CUDA Samples' helper_timer.h (not part of the
// toolkit), written here: host wall-clock time in milliseconds.
#pragma once
#include <chrono>

struct StopWatchInterface {
  std::chrono::steady_clock::time_point start;
  double total_ms = 0;
  int runs = 0;
};
inline bool sdkCreateTimer(StopWatchInterface** t) { return (*t = new StopWatchInterface) != nullptr; }
inline bool sdkDeleteTimer(StopWatchInterface** t) {
  delete *t;
  *t = nullptr;
  return true;
}
inline bool sdkStartTimer(StopWatchInterface** t) {
  (*t)->start = std::chrono::steady_clock::now();
  return true;
}
inline bool sdkStopTimer(StopWatchInterface** t) {
  (*t)->total_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - (*t)->start).count();
  ++(*t)->runs;
  return true;
}
inline float sdkGetTimerValue(StopWatchInterface** t) { return static_cast<float>((*t)->total_ms); }
inline float sdkGetAverageTimerValue(StopWatchInterface** t) {
  return (*t)->runs ? static_cast<float>((*t)->total_ms / (*t)->runs) : 0.0f;
}
