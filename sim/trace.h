// SPDX-License-Identifier: Apache-2.0
// Transaction and event trace in Chrome trace-event JSON, which Perfetto (ui.perfetto.dev) and
// chrome://tracing open. A track is a (group, name) pair — group "SM 3" or "partition 1" or a
// unit, name the component — shown as a process and a thread. A memory transaction is a chain of
// spans, one per component it waits in (issue, each hop, completion), joined by flow arrows.
// Kernel launches and unit events are spans and instants on their tracks. The trace keeps at most
// `limit` events; later ones are counted as dropped and the file says so. Outline spans (kernel
// launches: a handful a run) are kept past the limit, so a truncated trace still shows the run's shape.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/units.h"

namespace irr::sim {

class TxnTrace {
 public:
  using Track = std::uint32_t;
  explicit TxnTrace(std::uint64_t limit);

  Track track(const std::string& group, const std::string& name);
  std::uint64_t new_id() { return next_id_++; }

  // A transaction: issued at `where`, then arriving at each next component, then complete.
  void begin(std::uint64_t txn, Track where, const std::string& what);
  void hop(std::uint64_t txn, Track where, const std::string& what);
  void end(std::uint64_t txn);
  // A span (kernel launch, unit activity) and an instant event.
  void span(Track where, const std::string& name, Picoseconds start, Picoseconds end, const std::string& args_json = "",
            bool outline = false);
  void instant(Track where, const std::string& name, const std::string& args_json = "");
  // A span on the first of the rows `row`, `row 2`, ... of `group` free from `start`: spans that
  // overlap (the CTAs resident on an SM, a unit's operations for several warps) each get a row of
  // their own, as Perfetto draws a track's spans only when they nest.
  void row_span(const std::string& group, const std::string& row, const std::string& name, Picoseconds start,
                Picoseconds end, const std::string& args_json = "");

  std::size_t events() const { return events_.size(); }
  std::uint64_t limit() const { return limit_; }
  std::uint64_t dropped() const { return dropped_; }
  std::size_t in_flight() const { return open_.size(); }
  void write(const std::string& path) const;

 private:
  struct Event {
    char phase;  // X span, i instant, s/t/f flow start/step/end
    Track track;
    std::string name;
    Picoseconds ts, dur;
    bool txn;  // part of a transaction (id below) rather than a span or instant of its own
    std::uint64_t id;
    std::string args;
  };
  struct Open {
    Track track;
    std::string what;
    Picoseconds since;
    bool first;
  };
  bool room(std::size_t n);
  void close(std::uint64_t txn, Open& o, char flow_phase);

  std::uint64_t limit_, dropped_ = 0, next_id_ = 1;
  std::vector<std::pair<std::string, std::string>> tracks_;  // index = Track
  std::vector<std::string> groups_;                          // pid - 1
  std::vector<Event> events_;
  std::map<std::uint64_t, Open> open_;
  std::map<std::pair<std::string, std::string>, std::vector<std::pair<Track, Picoseconds>>> rows_;  // busy until
};

}  // namespace irr::sim
