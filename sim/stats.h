// SPDX-License-Identifier: Apache-2.0
// Statistics: modules declare counters, averages, distributions and formulas under hierarchical
// names, each with a description and a unit. The registry takes labelled snapshots (one per kernel
// launch, say) and periodic samples (a time series), and writes stats.json, stats.csv and a table.
#pragma once

#include <nlohmann/json_fwd.hpp>  // the whole header only where JSON is built or read: it is slow to compile

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

namespace irr::sim {

class Stat {
 public:
  Stat(std::string name, std::string description, std::string unit)
      : names_(std::make_unique<const Names>(Names{std::move(name), std::move(description), std::move(unit)})) {}
  virtual ~Stat() = default;
  const std::string& name() const { return names_->name; }
  const std::string& description() const { return names_->description; }
  const std::string& unit() const { return names_->unit; }
  // The headline number: what snapshots, samples and the table show.
  virtual double value() const = 0;
  // The full record for stats.json (value, and for distributions count/min/max/buckets).
  virtual nlohmann::json to_json() const;
  // Extra named fields for stats.csv (name.field); the headline value is always written.
  virtual std::vector<std::pair<std::string, double>> fields() const { return {}; }

 private:
  // Out of line: a statistic is then a few words, and the registry keeps those of a kind side by
  // side, so the counters a component bumps every cycle share host cache lines.
  struct Names {
    std::string name, description, unit;
  };
  std::unique_ptr<const Names> names_;
};

class Counter : public Stat {
 public:
  using Stat::Stat;
  Counter& operator++() { ++v_; return *this; }
  Counter& operator+=(std::uint64_t n) { v_ += n; return *this; }
  std::uint64_t count() const { return v_; }
  double value() const override { return static_cast<double>(v_); }
  nlohmann::json to_json() const override;

 private:
  std::uint64_t v_ = 0;
};

// Mean of sampled values.
class Average : public Stat {
 public:
  using Stat::Stat;
  // `times` samples of x at once: for whole numbers (sums below 2^53), exactly as many one by one.
  void sample(double x, std::uint64_t times = 1) {
    sum_ += x * static_cast<double>(times);
    n_ += times;
  }
  std::uint64_t count() const { return n_; }
  double value() const override { return n_ ? sum_ / static_cast<double>(n_) : 0.0; }
  std::vector<std::pair<std::string, double>> fields() const override;

 private:
  double sum_ = 0;
  std::uint64_t n_ = 0;
};

// Histogram with equal-width buckets over [low, low + width * buckets); values outside count as
// underflow/overflow. Keeps count, min, max and mean exactly.
class Distribution : public Stat {
 public:
  Distribution(std::string name, std::string description, std::string unit, double low, double width,
               std::size_t buckets);
  void sample(double x, std::uint64_t times = 1);
  std::uint64_t count() const { return n_; }
  double min() const { return n_ ? min_ : 0; }
  double max() const { return n_ ? max_ : 0; }
  double value() const override { return n_ ? sum_ / static_cast<double>(n_) : 0.0; }  // the mean
  const std::vector<std::uint64_t>& buckets() const { return buckets_; }
  nlohmann::json to_json() const override;
  std::vector<std::pair<std::string, double>> fields() const override;

 private:
  double low_, width_;
  std::vector<std::uint64_t> buckets_;
  std::uint64_t under_ = 0, over_ = 0, n_ = 0;
  double sum_ = 0, min_ = 0, max_ = 0;
};

// Computed from other statistics when read (a rate, a ratio).
class Formula : public Stat {
 public:
  Formula(std::string name, std::string description, std::string unit, std::function<double()> f)
      : Stat(std::move(name), std::move(description), std::move(unit)), f_(std::move(f)) {}
  double value() const override { return f_(); }

 private:
  std::function<double()> f_;
};

class StatsRegistry {
 public:
  // Declares a statistic; a second declaration of one name is a programming error (logic_error).
  Counter& counter(const std::string& name, const std::string& description, const std::string& unit);
  Average& average(const std::string& name, const std::string& description, const std::string& unit);
  Distribution& distribution(const std::string& name, const std::string& description, const std::string& unit,
                             double low, double width, std::size_t buckets);
  Formula& formula(const std::string& name, const std::string& description, const std::string& unit,
                   std::function<double()> f);

  const Stat* find(const std::string& name) const;
  // The values of every statistic named prefix...suffix added up (".l2.hits" over all
  // partitions), summary formulas (a ".total." in the name) left out.
  double sum(const std::string& prefix, const std::string& suffix) const;

  // Records every statistic's value now, labelled (e.g. "kernel 3: bfs_kernel").
  void snapshot(const std::string& label, std::uint64_t time_ps);
  // One point of the time series.
  void sample(std::uint64_t time_ps);
  std::size_t snapshot_count() const { return snapshots_.size(); }
  std::size_t sample_count() const { return sample_times_.size(); }

  nlohmann::json to_json() const;
  // name,value,unit,description; a run stopped early (`incomplete`: why) has an "incomplete" row first.
  void write_csv(std::ostream& out, const std::string& incomplete = "") const;
  // Aligned table of the statistics whose names match the glob (all when empty).
  void print_table(std::ostream& out, const std::string& pattern = "") const;

 private:
  template <typename T, typename... A>
  T& add(const std::string& name, A&&... args);

  // Each kind in declaration order (a deque: addresses stay put), found by name through stats_.
  std::tuple<std::deque<Counter>, std::deque<Average>, std::deque<Distribution>, std::deque<Formula>> pools_;
  std::map<std::string, Stat*> stats_;  // sorted by name: deterministic output
  struct Snapshot {
    std::string label;
    std::uint64_t time_ps;
    std::vector<double> values;  // in stats_ order at the time it was taken
    std::vector<std::string> names;
  };
  std::vector<Snapshot> snapshots_;
  std::vector<std::uint64_t> sample_times_;
  std::map<std::string, std::vector<double>> series_;
  // Found once, not at every sample or snapshot (a name look-up per statistic and a walk of every
  // statistic per sum made a run sampled each 500 cycles five times slower); remade when a
  // statistic is added. Both in stats_ order, so values are read and added as before.
  std::vector<std::pair<const Stat*, std::vector<double>*>> sampled_;  // each statistic's series
  mutable std::map<std::pair<std::string, std::string>, std::vector<const Stat*>> sums_;  // sum()'s matches
  mutable std::size_t sums_for_ = 0;  // stats_.size() when sums_ was found
};

bool glob_match(const std::string& pattern, const std::string& name);

}  // namespace irr::sim
