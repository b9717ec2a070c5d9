// SPDX-License-Identifier: Apache-2.0
#include "apps/irrgpu/sweep/spec.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <set>

#include "sim/config.h"
#include "sim/output_file.h"

namespace irr::app::sweep {
namespace fs = std::filesystem;

namespace {

// One value of an axis, with where the sweep file wrote it (configuration values are validated
// against the schema there).
struct Value {
  std::string text;
  YAML::Node node;  // the value as YAML
  Location where;
};

// An axis: one key and its values, or several keys advanced together (a zip).
struct Axis {
  std::vector<std::string> keys;
  std::vector<std::vector<Value>> values;  // values[k][i]: key k's i-th value
  std::size_t size() const { return values.front().size(); }
};

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  Location at(const YAML::Node& n) const { return {file_, n.Mark().line + 1, n.Mark().column + 1}; }
  [[noreturn]] void fail(const YAML::Node& n, const std::string& why) const {
    throw config_error(at(n), why);
  }

  static bool is_field(const std::string& key) {
    const auto& f = run_fields();
    return std::any_of(f.begin(), f.end(), [&](const auto& p) { return p.first == key; });
  }

  std::string scalar(const YAML::Node& n, const std::string& what) const {
    if (!n.IsScalar()) fail(n, what + ": expected a single value");
    return n.Scalar();
  }

  // A range {from, to, step} or {from, to, factor}, inclusive, integers.
  std::vector<Value> range(const YAML::Node& n, const std::string& key) const {
    auto number = [&](const char* name) -> long long {
      const YAML::Node v = n[name];
      if (!v) fail(n, key + ": a range needs '" + name + "' (from, to, and step or factor)");
      try {
        std::size_t used = 0;
        const long long x = std::stoll(v.Scalar(), &used);
        if (used != v.Scalar().size()) throw std::invalid_argument("trailing");
        return x;
      } catch (const std::exception&) {
        fail(v, key + ": range " + name + " '" + v.Scalar() + "' is not an integer");
      }
    };
    for (const auto& kv : n) {
      const std::string k = kv.first.Scalar();
      if (k != "from" && k != "to" && k != "step" && k != "factor")
        fail(kv.first, key + ": unknown range key '" + k + "' (from, to, step, factor)");
    }
    const long long from = number("from"), to = number("to");
    if (n["step"] && n["factor"]) fail(n, key + ": a range has a step or a factor, not both");
    const bool geometric = static_cast<bool>(n["factor"]);
    const long long by = number(geometric ? "factor" : "step");
    if (geometric ? (by < 2 || from < 1) : by < 1)
      fail(n, key + (geometric ? ": a geometric range needs from >= 1 and factor >= 2" : ": a range's step is at least 1"));
    if (to < from) fail(n, key + ": range to " + std::to_string(to) + " is below from " + std::to_string(from));
    std::vector<Value> out;
    for (long long x = from; x <= to; x = geometric ? x * by : x + by) {
      out.push_back({std::to_string(x), YAML::Node(std::to_string(x)), at(n)});
      if (out.size() > 100000) fail(n, key + ": a range of over 100,000 values");
    }
    return out;
  }

  // An axis's values: one value, a list, or a range.
  std::vector<Value> values(const YAML::Node& n, const std::string& key) const {
    if (n.IsMap()) return range(n, key);
    std::vector<Value> out;
    auto one = [&](const YAML::Node& v) {
      if (key == "config" && v.IsSequence()) {  // presets and files layered in order
        std::string layered;
        for (const auto& c : v) layered += (layered.empty() ? "" : "+") + scalar(c, key);
        if (layered.empty()) fail(v, "config: an empty list of presets");
        out.push_back({layered, v, at(v)});
        return;
      }
      if (v.IsNull()) fail(v, key + ": an empty value");
      if (key == "graph" && v.IsScalar() && v.Scalar().find('=') != std::string::npos &&
          v.Scalar().find(':') == std::string::npos)
        fail(v, "graph: '" + v.Scalar() + "' looks like part of a generator split at a comma: quote generators in a "
                "[...] list (\"grid:rows=8,cols=8\")");
      if (!v.IsScalar()) fail(v, key + ": expected a value, a list of values or a range {from, to, step|factor}");
      out.push_back({v.Scalar(), v, at(v)});
    };
    if (n.IsSequence()) {
      if (n.size() == 0) fail(n, key + ": an empty list (an axis needs at least one value)");
      for (const auto& v : n) one(v);
    } else {
      one(n);
    }
    return out;
  }

  void check_key(const YAML::Node& k, const std::string& key) const {
    if (key.find('.') == std::string::npos && !is_field(key)) {
      std::string names;
      for (const auto& f : run_fields()) names += (names.empty() ? "" : ", ") + f.first;
      fail(k, "unknown run field '" + key + "' (" + names + "; configuration keys go under set:)");
    }
  }

  // The axes a mapping names: run fields, `set:` (configuration keys) and `zip:`, in file order.
  std::vector<Axis> axes(const YAML::Node& map, bool top) const {
    std::vector<Axis> out;
    std::set<std::string> seen;
    auto add = [&](const YAML::Node& k, const std::string& key, std::vector<Value> v) {
      if (!seen.insert(key).second) fail(k, "'" + key + "' is an axis twice");
      out.push_back({{key}, {std::move(v)}});
    };
    for (const auto& kv : map) {
      const std::string key = kv.first.Scalar();
      if (key == "set") {
        if (!kv.second.IsMap()) fail(kv.second, "set: expected a mapping of configuration keys to values");
        for (const auto& s : kv.second) {
          const std::string path = s.first.Scalar();
          if (path.find('.') == std::string::npos)
            fail(s.first, "set: '" + path + "' is not a configuration key (section.key)");
          add(s.first, path, values(s.second, path));
        }
      } else if (key == "zip") {
        if (!kv.second.IsSequence()) fail(kv.second, "zip: expected a list of mappings whose lists advance together");
        for (const auto& z : kv.second) {
          if (!z.IsMap() || z.size() < 2) fail(z, "zip: each entry maps two or more keys to equal-length lists");
          Axis a;
          for (const auto& s : z) {
            const std::string k = s.first.Scalar();
            check_key(s.first, k);
            if (!seen.insert(k).second) fail(s.first, "'" + k + "' is an axis twice");
            a.keys.push_back(k);
            a.values.push_back(values(s.second, k));
            if (a.values.back().size() != a.values.front().size())
              fail(s.second, "zip: '" + k + "' has " + std::to_string(a.values.back().size()) + " values, '" +
                                 a.keys.front() + "' " + std::to_string(a.values.front().size()));
          }
          out.push_back(std::move(a));
        }
      } else if (is_field(key)) {
        add(kv.first, key, values(kv.second, key));
      } else if (key != "name" && (!top || (key != "groups" && key != "resources" && key != "slurm" && key != "report"))) {
        fail(kv.first, std::string("unknown key '") + key + "'" +
                           (top ? " (name, groups, set, zip, resources, slurm, report, or a run field)"
                                : " in a group (name, set, zip, or a run field)"));
      }
    }
    return out;
  }

  std::string file_;
};

// A group's axes over the top level's: a key the group names replaces the top level's axis (or
// its place in a zip, which then drops it).
std::vector<Axis> merge(const std::vector<Axis>& top, const std::vector<Axis>& group) {
  std::set<std::string> named;
  for (const auto& a : group) named.insert(a.keys.begin(), a.keys.end());
  std::vector<Axis> out;
  for (const auto& a : top) {
    Axis kept;
    for (std::size_t k = 0; k < a.keys.size(); ++k) {
      if (named.count(a.keys[k])) continue;
      kept.keys.push_back(a.keys[k]);
      kept.values.push_back(a.values[k]);
    }
    if (!kept.keys.empty()) out.push_back(std::move(kept));
  }
  out.insert(out.end(), group.begin(), group.end());
  return out;
}

std::string resolve(const std::string& path, const fs::path& dir) {
  if (path.empty() || fs::path(path).is_absolute()) return path;
  return (dir / path).lexically_normal().string();
}

bool is_preset_name(const std::string& s) { return s.find('/') == std::string::npos && s.find('.') == std::string::npos; }

// A config value's layers ("kim4x16+mine.yaml": presets and files, loaded in order).
std::vector<std::string> layers(const std::string& config) {
  std::vector<std::string> out;
  for (std::size_t b = 0, e; b <= config.size(); b = e + 1) {
    e = std::min(config.find('+', b), config.size());
    out.push_back(config.substr(b, e - b));
  }
  return out;
}

// A layer as irrgpu run takes it: a preset by name, a file relative to the sweep file's folder.
std::string locate(const std::string& layer, const fs::path& dir) {
  return is_preset_name(layer) ? layer : resolve(layer, dir);
}

// Checks each distinct configuration the runs load, once: presets, files and keys, with the
// sweep file's line for a bad value.
void validate(const std::vector<std::vector<const Value*>>& combos, const std::vector<std::string>& keys,
              const fs::path& dir) {
  // Parsed once: a sweep may load hundreds of configurations.
  static const auto schema = std::make_shared<const sim::Schema>(sim::Schema::builtin());
  std::set<std::string> done;
  for (const auto& combo : combos) {
    std::string sig;
    for (std::size_t k = 0; k < keys.size(); ++k)
      if (keys[k] == "config" || keys[k].find('.') != std::string::npos) sig += keys[k] + "=" + combo[k]->text + "\n";
    if (!done.insert(sig).second) continue;
    sim::Config cfg(schema);
    const Value* config = nullptr;
    for (std::size_t k = 0; k < keys.size(); ++k)
      if (keys[k] == "config") config = combo[k];
    try {
      if (!config) cfg.load("gtx480");
      else
        for (const auto& c : layers(config->text)) cfg.load(locate(c, dir));
    } catch (const Error& e) {
      throw config_error(config->where, std::string("config: ") + e.what());
    }
    for (std::size_t k = 0; k < keys.size(); ++k) {
      if (keys[k].find('.') == std::string::npos) continue;
      const Value& v = *combo[k];
      cfg.set(keys[k], v.node, v.where, sim::Origin::command_line);
    }
  }
}

std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

Resources read_resources(const Reader& r, const YAML::Node& root) {
  Resources res;
  auto strings = [&](const YAML::Node& n, const std::string& what) {
    std::vector<std::string> out;
    if (n.IsScalar()) return std::vector<std::string>{n.Scalar()};
    if (!n.IsSequence()) r.fail(n, what + ": expected a list of strings");
    for (const auto& s : n) out.push_back(r.scalar(s, what));
    return out;
  };
  auto count = [&](const YAML::Node& n, const std::string& what) {
    const std::string s = r.scalar(n, what);
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 6)
      r.fail(n, what + ": '" + s + "' is not a count");
    return static_cast<unsigned>(std::stoul(s));
  };
  for (const char* section : {"resources", "slurm"}) {
    const YAML::Node n = root[section];
    if (!n) continue;
    if (!n.IsMap()) r.fail(n, std::string(section) + ": expected a mapping");
    for (const auto& kv : n) {
      const std::string k = kv.first.Scalar(), what = std::string(section) + "." + k;
      if (section == std::string("resources") && k == "time") res.time = r.scalar(kv.second, what);
      else if (section == std::string("resources") && k == "mem") res.mem = r.scalar(kv.second, what);
      else if (section == std::string("resources") && k == "cpus") res.cpus = std::max(1u, count(kv.second, what));
      else if (section == std::string("slurm") && k == "partition") res.partition = r.scalar(kv.second, what);
      else if (section == std::string("slurm") && k == "account") res.account = r.scalar(kv.second, what);
      else if (section == std::string("slurm") && k == "throttle") res.throttle = count(kv.second, what);
      else if (section == std::string("slurm") && k == "setup") res.setup = strings(kv.second, what);
      else if (section == std::string("slurm") && k == "sbatch") res.sbatch = strings(kv.second, what);
      else
        r.fail(kv.first, "unknown key '" + what + "' (resources: time, mem, cpus; slurm: partition, account, throttle, "
                                                  "setup, sbatch)");
    }
  }
  return res;
}

}  // namespace

const std::vector<std::pair<std::string, std::string>>& run_fields() {
  static const std::vector<std::pair<std::string, std::string>> fields = {
      {"config", "--config"},     {"workload", "--workload"},   {"variant", "--variant"},
      {"graph", "--graph"},       {"source", "--source"},       {"scale", "--scale"},
      {"tiles", "--tiles"},       {"tile", "--tile"},           {"mode", "--mode"},
      {"seed", "--seed"},         {"sample_every", "--sample-every"},
      {"timing_from_kernel", "--timing-from-kernel"}, {"collisions", "--collisions"}, {"servers", "--servers"},
      {"handoff", "--handoff="},  {"profile", "--profile="}};
  return fields;
}

std::string run_id(const std::map<std::string, std::string>& params) {
  std::string canonical;
  for (const auto& [k, v] : params) canonical += k + "=" + v + "\n";
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(fnv1a(canonical)));
  std::string prefix;
  for (const char* f : {"workload", "variant"}) {
    auto it = params.find(f);
    if (it == params.end()) continue;
    for (char c : it->second) prefix += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
    prefix += "-";
  }
  return (prefix.empty() ? std::string("run-") : prefix) + std::string(hash, 12);
}

std::vector<std::string> run_args(const std::map<std::string, std::string>& params) {
  std::vector<std::string> args = {"run", "-q"};
  if (auto c = params.find("config"); c != params.end())
    for (const auto& layer : layers(c->second)) args.insert(args.end(), {"--config", layer});
  for (const auto& [k, v] : params)
    if (k.find('.') != std::string::npos) args.insert(args.end(), {"--set", k + "=" + v});
  for (const auto& [field, option] : run_fields()) {
    auto it = params.find(field);
    if (it == params.end() || field == "config") continue;
    if (option.back() == '=') args.push_back(option + it->second);  // a flag: --handoff=true
    else args.insert(args.end(), {option, it->second});
  }
  return args;
}

Spec expand(const std::string& file) {
  Spec spec;
  spec.file = fs::absolute(file).lexically_normal().string();
  std::error_code ec;  // a path the system rejects (too long, say) is no sweep file either
  if (!fs::is_regular_file(file, ec)) throw Error({file, 0, 0}, "no such sweep file", Error::Kind::usage);
  Reader r(file);
  YAML::Node root;
  try {
    root = YAML::LoadFile(file);
  } catch (const YAML::ParserException& e) {
    throw config_error({file, e.mark.line + 1, e.mark.column + 1}, "YAML syntax: " + e.msg);
  }
  if (!root.IsMap()) throw config_error({file, 1, 1}, "a sweep file is a mapping (docs/sweeps.md)");
  spec.name = root["name"] ? r.scalar(root["name"], "name") : fs::path(file).stem().string();
  if (spec.name.empty() || spec.name.find('/') != std::string::npos)
    r.fail(root["name"], "name: a sweep's name is a non-empty word without '/'");
  spec.resources = read_resources(r, root);
  if (const YAML::Node rep = root["report"]) {  // a command (a list of words) or a list of commands
    if (!rep.IsSequence() || rep.size() == 0) r.fail(rep, "report: expected a command as a list of words, or a list of them");
    for (const auto& c : rep[0].IsSequence() ? rep : YAML::Node(std::vector<YAML::Node>{rep})) {
      if (!c.IsSequence() || c.size() == 0) r.fail(c, "report: each command is a list of words");
      spec.report.emplace_back();
      for (const auto& w : c) spec.report.back().push_back(r.scalar(w, "report"));
    }
  }

  const std::vector<Axis> top = r.axes(root, true);
  std::vector<std::vector<Axis>> groups;
  std::vector<std::string> names;  // each group's name (empty: none)
  if (const YAML::Node g = root["groups"]) {
    if (!g.IsSequence() || g.size() == 0) r.fail(g, "groups: expected a list of mappings, each its own axes");
    for (const auto& group : g) {
      if (!group.IsMap()) r.fail(group, "groups: each group is a mapping of axes");
      groups.push_back(merge(top, r.axes(group, false)));
      names.push_back(group["name"] ? r.scalar(group["name"], "name") : "");
    }
  } else {
    groups.push_back(top);
    names.push_back("");
  }

  const fs::path dir = fs::path(spec.file).parent_path();
  std::set<std::string> ids;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const std::vector<Axis>& axes = groups[g];
    // Every combination, the last axis fastest.
    std::vector<std::string> keys;
    for (const auto& a : axes) keys.insert(keys.end(), a.keys.begin(), a.keys.end());
    std::vector<std::vector<const Value*>> combos;
    std::size_t total = 1;
    for (const auto& a : axes) {
      total *= a.size();
      if (total > 1000000) throw config_error({file, 0, 0}, "over a million runs: not a sweep one machine can list");
    }
    std::vector<std::size_t> index(axes.size(), 0);
    for (std::size_t n = 0; n < total; ++n) {
      std::vector<const Value*> combo;
      for (std::size_t a = 0; a < axes.size(); ++a)
        for (const auto& v : axes[a].values) combo.push_back(&v[index[a]]);
      combos.push_back(std::move(combo));
      for (std::size_t a = axes.size(); a-- > 0;) {
        if (++index[a] < axes[a].size()) break;
        index[a] = 0;
      }
    }
    validate(combos, keys, dir);
    for (const auto& combo : combos) {
      Run run;
      for (std::size_t k = 0; k < keys.size(); ++k) run.params[keys[k]] = combo[k]->text;
      run.id = run_id(run.params);
      run.group = names[g];
      if (!ids.insert(run.id).second) continue;  // the same run in two groups runs once
      // Files named relative to the sweep file, wherever irrgpu runs from.
      std::map<std::string, std::string> located = run.params;
      if (auto c = located.find("config"); c != located.end()) {
        std::string layered;
        for (const auto& layer : layers(c->second)) layered += (layered.empty() ? "" : "+") + locate(layer, dir);
        c->second = layered;
      }
      if (auto g = located.find("graph"); g != located.end() && g->second.find(':') == std::string::npos &&
                                          sim::file_exists(dir / g->second))
        g->second = resolve(g->second, dir);
      run.args = run_args(located);
      spec.runs.push_back(std::move(run));
    }
  }
  return spec;
}

}  // namespace irr::app::sweep
