// SPDX-License-Identifier: Apache-2.0
#include "sim/stats.h"

#include <fnmatch.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace irr::sim {

bool glob_match(const std::string& pattern, const std::string& name) {
  return pattern.empty() || fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
}

nlohmann::json Stat::to_json() const {
  return {{"value", value()}, {"unit", unit()}, {"description", description()}};
}

nlohmann::json Counter::to_json() const {
  nlohmann::json j = Stat::to_json();
  j["value"] = v_;  // exact integer
  return j;
}

std::vector<std::pair<std::string, double>> Average::fields() const {
  return {{"count", static_cast<double>(n_)}};
}

Distribution::Distribution(std::string name, std::string description, std::string unit, double low,
                           double width, std::size_t buckets)
    : Stat(std::move(name), std::move(description), std::move(unit)), low_(low), width_(width), buckets_(buckets) {
  if (width <= 0 || buckets == 0) throw std::logic_error("distribution " + this->name() + ": needs width > 0 and buckets > 0");
}

void Distribution::sample(double x, std::uint64_t times) {
  if (times == 0) return;
  if (n_ == 0) min_ = max_ = x;
  min_ = std::min(min_, x);
  max_ = std::max(max_, x);
  n_ += times;
  sum_ += x * static_cast<double>(times);
  // The bucket is floor(pos); for pos >= 0 that is its truncation, and floor(pos) >= n (an
  // integer) exactly when pos >= n: no call to floor() on this per-cycle path.
  const double pos = (x - low_) / width_;
  if (pos < 0) under_ += times;
  else if (pos >= static_cast<double>(buckets_.size())) over_ += times;
  else buckets_[static_cast<std::size_t>(pos)] += times;
}

nlohmann::json Distribution::to_json() const {
  nlohmann::json j = Stat::to_json();
  j["count"] = n_;
  j["min"] = min();
  j["max"] = max();
  j["bucket_low"] = low_;
  j["bucket_width"] = width_;
  j["buckets"] = buckets_;
  j["underflow"] = under_;
  j["overflow"] = over_;
  return j;
}

std::vector<std::pair<std::string, double>> Distribution::fields() const {
  return {{"count", static_cast<double>(n_)}, {"min", min()}, {"max", max()}};
}

template <typename T, typename... A>
T& StatsRegistry::add(const std::string& name, A&&... args) {
  if (stats_.count(name)) throw std::logic_error("statistic '" + name + "' declared twice");
  T& stat = std::get<std::deque<T>>(pools_).emplace_back(name, std::forward<A>(args)...);
  stats_[name] = &stat;
  return stat;
}

Counter& StatsRegistry::counter(const std::string& n, const std::string& d, const std::string& u) {
  return add<Counter>(n, d, u);
}
Average& StatsRegistry::average(const std::string& n, const std::string& d, const std::string& u) {
  return add<Average>(n, d, u);
}
Distribution& StatsRegistry::distribution(const std::string& n, const std::string& d, const std::string& u,
                                          double low, double width, std::size_t buckets) {
  return add<Distribution>(n, d, u, low, width, buckets);
}
Formula& StatsRegistry::formula(const std::string& n, const std::string& d, const std::string& u,
                                std::function<double()> f) {
  return add<Formula>(n, d, u, std::move(f));
}

const Stat* StatsRegistry::find(const std::string& name) const {
  auto it = stats_.find(name);
  return it == stats_.end() ? nullptr : it->second;
}

double StatsRegistry::sum(const std::string& prefix, const std::string& suffix) const {
  if (sums_for_ != stats_.size()) {  // a statistic was added: find the matches again
    sums_.clear();
    sums_for_ = stats_.size();
  }
  auto [found, fresh] = sums_.try_emplace({prefix, suffix});
  if (fresh)
    for (auto it = stats_.lower_bound(prefix); it != stats_.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
      const std::string& n = it->first;
      if (n.size() >= prefix.size() + suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0 &&
          n.find(".total.") == std::string::npos)
        found->second.push_back(it->second);
    }
  double total = 0;
  for (const Stat* stat : found->second) total += stat->value();
  return total;
}

void StatsRegistry::snapshot(const std::string& label, std::uint64_t time_ps) {
  Snapshot s{label, time_ps, {}, {}};
  for (const auto& [name, stat] : stats_) {
    s.names.push_back(name);
    s.values.push_back(stat->value());
  }
  snapshots_.push_back(std::move(s));
}

void StatsRegistry::sample(std::uint64_t time_ps) {
  std::size_t points = sample_times_.size();
  sample_times_.push_back(time_ps);
  if (sampled_.size() != stats_.size()) {  // a statistic was added (a series' place never moves)
    sampled_.clear();
    for (const auto& [name, stat] : stats_) sampled_.emplace_back(stat, &series_[name]);
  }
  for (auto& [stat, series] : sampled_) {
    series->resize(points, 0.0);  // a statistic declared late starts at zero
    series->push_back(stat->value());
  }
}

nlohmann::json StatsRegistry::to_json() const {
  nlohmann::json j;
  j["stats"] = nlohmann::json::object();
  for (const auto& [name, stat] : stats_) j["stats"][name] = stat->to_json();
  j["snapshots"] = nlohmann::json::array();
  for (const auto& s : snapshots_) {
    nlohmann::json values = nlohmann::json::object();
    for (std::size_t i = 0; i < s.names.size(); ++i) values[s.names[i]] = s.values[i];
    j["snapshots"].push_back({{"label", s.label}, {"time_ps", s.time_ps}, {"values", values}});
  }
  if (!sample_times_.empty()) {
    nlohmann::json series = nlohmann::json::object();
    for (const auto& [name, values] : series_) series[name] = values;
    j["samples"] = {{"time_ps", sample_times_}, {"series", series}};
  }
  return j;
}

namespace {
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}
std::string number(double v) {
  std::ostringstream s;
  s << std::setprecision(12) << v;
  return s.str();
}
}  // namespace

void StatsRegistry::write_csv(std::ostream& out, const std::string& incomplete) const {
  out << "name,value,unit,description\n";
  if (!incomplete.empty()) out << "incomplete,1,," << csv_field(incomplete) << "\n";
  for (const auto& [name, stat] : stats_) {
    out << csv_field(name) << "," << number(stat->value()) << "," << csv_field(stat->unit()) << ","
        << csv_field(stat->description()) << "\n";
    for (const auto& [field, v] : stat->fields())
      out << csv_field(name + "." + field) << "," << number(v) << ",," << "\n";
  }
}

void StatsRegistry::print_table(std::ostream& out, const std::string& pattern) const {
  std::size_t width = 4;
  for (const auto& [name, stat] : stats_)
    if (glob_match(pattern, name)) width = std::max(width, name.size());
  for (const auto& [name, stat] : stats_) {
    if (!glob_match(pattern, name)) continue;
    std::ostringstream v;
    double x = stat->value();
    if (x == std::floor(x) && std::fabs(x) < 1e15) v << static_cast<long long>(x);  // counts exactly
    else v << std::setprecision(6) << x;
    out << std::left << std::setw(static_cast<int>(width) + 2) << name << std::right << std::setw(14) << v.str() << "  " << stat->unit() << "\n";
  }
}

}  // namespace irr::sim
