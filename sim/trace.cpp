// SPDX-License-Identifier: Apache-2.0
#include "sim/trace.h"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "sim/clock.h"
#include "sim/error.h"
#include "sim/output_file.h"

namespace irr::sim {
namespace {

// Trace-event time stamps are microseconds; print picoseconds exactly.
std::string micros(Picoseconds ps) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%llu.%06llu", static_cast<unsigned long long>(ps / 1000000),
                static_cast<unsigned long long>(ps % 1000000));
  return buf;
}

std::string quoted(const std::string& s) { return nlohmann::json(s).dump(); }

}  // namespace

TxnTrace::TxnTrace(std::uint64_t limit) : limit_(limit) {}

TxnTrace::Track TxnTrace::track(const std::string& group, const std::string& name) {
  for (std::size_t i = 0; i < tracks_.size(); ++i)
    if (tracks_[i].first == group && tracks_[i].second == name) return static_cast<Track>(i);
  if (std::find(groups_.begin(), groups_.end(), group) == groups_.end()) groups_.push_back(group);
  tracks_.emplace_back(group, name);
  return static_cast<Track>(tracks_.size() - 1);
}

bool TxnTrace::room(std::size_t n) {
  if (events_.size() + n <= limit_) return true;
  dropped_ += n;
  return false;
}

void TxnTrace::begin(std::uint64_t txn, Track where, const std::string& what) {
  open_[txn] = {where, what, now_ps(), true};
}

void TxnTrace::close(std::uint64_t txn, Open& o, char flow_phase) {
  const Picoseconds now = now_ps();
  if (!room(flow_phase ? 2 : 1)) return;
  events_.push_back({'X', o.track, o.what, o.since, now - o.since, true, txn, ""});
  if (flow_phase) events_.push_back({flow_phase, o.track, "txn", o.since, 0, true, txn, ""});
}

void TxnTrace::hop(std::uint64_t txn, Track where, const std::string& what) {
  auto it = open_.find(txn);
  if (it == open_.end()) return begin(txn, where, what);
  close(txn, it->second, it->second.first ? 's' : 't');
  it->second = {where, what, now_ps(), false};
}

void TxnTrace::end(std::uint64_t txn) {
  auto it = open_.find(txn);
  if (it == open_.end()) return;
  close(txn, it->second, it->second.first ? 0 : 'f');  // a one-span transaction needs no flow
  open_.erase(it);
}

void TxnTrace::span(Track where, const std::string& name, Picoseconds start, Picoseconds end, const std::string& args,
                    bool outline) {
  if (outline || room(1)) events_.push_back({'X', where, name, start, end - start, false, 0, args});
}

void TxnTrace::instant(Track where, const std::string& name, const std::string& args) {
  if (room(1)) events_.push_back({'i', where, name, now_ps(), 0, false, 0, args});
}

void TxnTrace::row_span(const std::string& group, const std::string& row, const std::string& name, Picoseconds start,
                        Picoseconds end, const std::string& args) {
  if (!room(1)) return;
  auto& rows = rows_[{group, row}];
  auto free = std::find_if(rows.begin(), rows.end(), [&](const auto& r) { return r.second <= start; });
  if (free == rows.end()) {
    rows.emplace_back(track(group, rows.empty() ? row : row + " " + std::to_string(rows.size() + 1)), end);
    free = rows.end() - 1;
  }
  free->second = end;
  events_.push_back({'X', free->first, name, start, end - start, false, 0, args});
}

void TxnTrace::write(const std::string& path) const {
  OutputFile file(path, "transaction trace");
  std::ofstream& out = file.stream();
  auto pid = [&](Track t) {
    return std::find(groups_.begin(), groups_.end(), tracks_.at(t).first) - groups_.begin() + 1;
  };
  out << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"irrgpu\",\"events\":" << events_.size()
      << ",\"dropped_events\":" << dropped_ << ",\"unfinished_transactions\":" << open_.size() << "},\n\"traceEvents\":[\n";
  bool first = true;
  auto sep = [&] {
    if (!first) out << ",\n";
    first = false;
  };
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    sep();
    out << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << g + 1 << ",\"tid\":0,\"args\":{\"name\":" << quoted(groups_[g]) << "}}";
  }
  for (std::size_t t = 0; t < tracks_.size(); ++t) {
    sep();
    out << "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << pid(static_cast<Track>(t)) << ",\"tid\":" << t + 1
        << ",\"args\":{\"name\":" << quoted(tracks_[t].second) << "}}";
  }
  for (const Event& e : events_) {
    sep();
    out << "{\"ph\":\"" << e.phase << "\",\"name\":" << quoted(e.name) << ",\"pid\":" << pid(e.track)
        << ",\"tid\":" << e.track + 1 << ",\"ts\":" << micros(e.ts);
    switch (e.phase) {
      case 'X':
        out << ",\"dur\":" << micros(e.dur) << ",\"cat\":\"" << (e.txn ? "txn" : "event") << "\"";
        if (e.txn) out << ",\"args\":{\"txn\":" << e.id << "}";
        else if (!e.args.empty()) out << ",\"args\":" << e.args;
        break;
      case 'i':
        out << ",\"s\":\"t\",\"cat\":\"event\"";
        if (!e.args.empty()) out << ",\"args\":" << e.args;
        break;
      default:  // flow start, step, end: binds to the span at the same track and time
        out << ",\"cat\":\"txn\",\"id\":" << e.id << (e.phase == 'f' ? ",\"bp\":\"e\"" : "");
    }
    out << "}";
  }
  out << "\n]}\n";
  file.commit();
}

}  // namespace irr::sim
