// SPDX-License-Identifier: Apache-2.0
#include "sim/config.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <yaml-cpp/yaml.h>

#include "sim/output_file.h"

namespace irr::sim {
namespace fs = std::filesystem;

namespace {

Location mark_location(const std::string& file, const YAML::Mark& m) {
  return {file, m.line + 1, m.column + 1};
}

YAML::Node parse(const std::string& text, const std::string& name) {
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw config_error(mark_location(name, e.mark), "YAML syntax: " + e.msg);
  }
}

bool is_preset_name(const std::string& s) {
  return s.find('/') == std::string::npos && s.find('.') == std::string::npos;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

const char* origin_name(Origin o) {
  switch (o) {
    case Origin::schema_default: return "default";
    case Origin::preset: return "preset";
    case Origin::user: return "user";
    case Origin::command_line: return "command line";
  }
  return "?";
}

Config::Config(Schema schema) : Config(std::make_shared<const Schema>(std::move(schema))) {}

Config::Config(std::shared_ptr<const Schema> schema) : schema_(std::move(schema)) {
  // The schema's keys come sorted: each setting goes at the end, without a search.
  for (const auto& [path, k] : schema_->keys()) {
    Setting s;
    s.value = k.default_value;
    s.where = {k.source, 0, 0};
    s.base_canonical = s.value.canonical;
    settings_.emplace_hint(settings_.end(), path, std::move(s));
  }
}

void Config::load(const std::string& arg) {
  if (is_preset_name(arg)) {
    // User preset folders first, then the presets compiled into irrgpu.
    if (const char* env = std::getenv("IRRGPU_CONFIG_PATH")) {
      std::stringstream dirs(env);
      for (std::string dir; std::getline(dirs, dir, ':');) {
        fs::path p = fs::path(dir) / (arg + ".yaml");
        if (!dir.empty() && file_exists(p)) {
          presets_.push_back(arg);
          return load_text(read_file(p), p.string(), Origin::preset, p.parent_path().string());
        }
      }
    }
    std::string names;
    for (const auto& f : preset_files()) {
      std::string name = fs::path(f.path).stem().string();
      if (name == arg) {
        presets_.push_back(arg);
        // Parsed once: a sweep loads a preset for every configuration it checks.
        static std::map<std::string, YAML::Node> parsed;
        auto it = parsed.find(f.path);
        if (it == parsed.end()) it = parsed.emplace(f.path, parse(f.text, f.path)).first;
        return load_root(it->second, f.path, Origin::preset, "");
      }
      names += (names.empty() ? "" : ", ") + name;
    }
    throw config_error({}, "unknown preset '" + arg + "' (presets: " + names +
                               "; a file path needs a '/' or a .yaml suffix)");
  }
  if (!file_exists(arg)) throw config_error({arg, 0, 0}, "no such configuration file");
  load_text(read_file(arg), arg, Origin::user, fs::path(arg).parent_path().string());
}

void Config::load_text(const std::string& text, const std::string& name, Origin origin, const std::string& dir) {
  load_root(parse(text, name), name, origin, dir);
}

void Config::load_root(const YAML::Node& root, const std::string& name, Origin origin, const std::string& dir) {
  if (std::find(loading_.begin(), loading_.end(), name) != loading_.end())
    throw config_error({name, 0, 0}, "include cycle: " + name + " includes itself");
  if (root.IsNull()) return;
  if (!root.IsMap()) throw config_error(mark_location(name, root.Mark()), "a configuration is a mapping of keys");
  loading_.push_back(name);
  // Includes first, in order; the including file's own keys then override them.
  if (YAML::Node inc = root["include"]) {
    std::vector<YAML::Node> items;
    if (inc.IsSequence()) for (const auto& i : inc) items.push_back(i);
    else items.push_back(inc);
    for (const auto& i : items) {
      if (!i.IsScalar()) throw config_error(mark_location(name, i.Mark()), "include: expected a preset name or a file path");
      std::string what = i.Scalar();
      try {
        if (is_preset_name(what)) load(what);
        else if (origin == Origin::user || !dir.empty()) {
          fs::path p = fs::path(what).is_absolute() ? fs::path(what) : fs::path(dir) / what;
          if (!file_exists(p)) throw config_error(mark_location(name, i.Mark()), "include: no such file '" + p.string() + "'");
          load_text(read_file(p), p.string(), origin, p.parent_path().string());
        } else {
          throw config_error(mark_location(name, i.Mark()), "include: a built-in preset includes presets by name only");
        }
      } catch (const Error& e) {
        if (std::string(e.what()).rfind(name, 0) == 0) throw;
        throw config_error(mark_location(name, i.Mark()), std::string("in include '") + what + "': " + e.what());
      }
    }
  }
  for (const auto& kv : root) {
    if (kv.first.Scalar() == "include") continue;
    load_node(kv.first, kv.second, "", name, origin);
  }
  loading_.pop_back();
}

void Config::load_node(const YAML::Node& key, const YAML::Node& value, const std::string& prefix,
                       const std::string& file, Origin origin) {
  const std::string path = prefix.empty() ? key.Scalar() : prefix + "." + key.Scalar();
  if (schema_->key(path)) return set(path, value, mark_location(file, key.Mark()), origin);
  if (!schema_->section(path)) {
    std::string hint = schema_->suggest(path);
    throw config_error(mark_location(file, key.Mark()),
                       path + ": unknown key" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
  }
  if (!value.IsMap())
    throw config_error(mark_location(file, key.Mark()), path + ": is a section; expected a mapping of its keys");
  for (const auto& kv : value) load_node(kv.first, kv.second, path, file, origin);
}

void Config::set(const std::string& assignment, const Location& where) {
  auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw config_error(where, "'" + assignment + "': expected key.path=value");
  const std::string path = assignment.substr(0, eq);
  YAML::Node node;
  try {
    node = YAML::Load(assignment.substr(eq + 1));
  } catch (const YAML::Exception& e) {
    throw config_error(where, path + ": YAML syntax: " + e.msg);
  }
  if (!schema_->key(path)) {
    std::string hint = schema_->suggest(path);
    throw config_error(where, path + (schema_->section(path) ? ": is a section, not a key" : ": unknown key") +
                                  (hint.empty() || hint == path ? "" : " (did you mean '" + hint + "'?)"));
  }
  set(path, node.IsNull() ? YAML::Node(std::string()) : node, where, Origin::command_line);
}

void Config::set(const std::string& path, const YAML::Node& node, const Location& where, Origin origin) {
  const KeySpec* k = schema_->key(path);
  if (!k) throw config_error(where, path + ": unknown key");
  Setting& s = settings_.at(path);
  try {
    s.value = k->parse(node);
  } catch (const std::invalid_argument& e) {
    throw config_error(where, path + ": " + e.what() + " (" + type_name(k->type) +
                                  (k->range_text().empty() ? "" : ", " + k->range_text()) + ")");
  }
  s.where = where;
  s.origin = origin;
  if (origin == Origin::preset || origin == Origin::schema_default) s.base_canonical = s.value.canonical;
}

const Setting& Config::setting(const std::string& path) const {
  auto it = settings_.find(path);
  if (it == settings_.end()) throw std::logic_error("config key '" + path + "' is not in the schema");
  return it->second;
}

const Value& Config::read(const std::string& path, std::initializer_list<Type> types) const {
  const Setting& s = setting(path);
  if (std::find(types.begin(), types.end(), s.value.type) == types.end())
    throw std::logic_error("config key '" + path + "' is a " + type_name(s.value.type) + ", read with the wrong getter");
  read_.insert(path);
  return s.value;
}

bool Config::get_bool(const std::string& p) const { return read(p, {Type::boolean}).b; }
std::int64_t Config::get_int(const std::string& p) const { return read(p, {Type::integer}).i; }
std::uint64_t Config::get_uint(const std::string& p) const { return read(p, {Type::unsigned_integer}).u; }
double Config::get_real(const std::string& p) const { return read(p, {Type::real}).d; }
std::string Config::get_string(const std::string& p) const { return read(p, {Type::string, Type::enumeration}).s; }
std::uint64_t Config::get_size(const std::string& p) const { return read(p, {Type::size}).u; }
double Config::get_frequency(const std::string& p) const { return read(p, {Type::frequency}).d; }
Picoseconds Config::get_time(const std::string& p) const { return read(p, {Type::time}).u; }
double Config::get_bandwidth(const std::string& p) const { return read(p, {Type::bandwidth}).d; }
std::vector<std::pair<std::string, std::string>> Config::get_map(const std::string& p) const {
  return read(p, {Type::map}).entries;
}
std::vector<std::string> Config::get_list(const std::string& p) const { return read(p, {Type::list}).items; }

void Config::check_unused() const {
  std::string msg;
  int count = 0;
  for (const auto& path : schema_->order()) {
    const Setting& s = settings_.at(path);
    if (s.origin != Origin::user && s.origin != Origin::command_line) continue;
    if (read_.count(path) || s.value.canonical == s.base_canonical) continue;
    const KeySpec& k = *schema_->key(path);
    if (count++) msg += "; ";
    msg += s.where.str() + ": " + path + " is set but no model in this run reads it" +
           (k.planned.empty() ? "" : " (planned: " + k.planned + ")");
  }
  if (count) throw config_error({}, msg);
}

std::string Config::to_yaml(bool origins) const {
  YAML::Emitter out;
  out << YAML::BeginMap;
  if (!presets_.empty()) {
    out << YAML::Key << "include" << YAML::Value << YAML::Flow << presets_;
    if (origins) out << YAML::Comment("keys below equal to a preset's value are not reported as unused");
  }
  std::vector<std::string> open;  // the sections currently open in the emitter
  for (const auto& path : schema_->order()) {
    std::vector<std::string> parts;
    std::stringstream ss(path);
    for (std::string part; std::getline(ss, part, '.');) parts.push_back(part);
    std::size_t common = 0;
    while (common < open.size() && common + 1 < parts.size() && open[common] == parts[common]) ++common;
    for (; open.size() > common; open.pop_back()) out << YAML::EndMap;
    for (; open.size() + 1 < parts.size(); open.push_back(parts[open.size()]))
      out << YAML::Key << parts[open.size()] << YAML::Value << YAML::Block << YAML::BeginMap;
    const Setting& s = settings_.at(path);
    out << YAML::Key << parts.back() << YAML::Value;
    if (s.value.type == Type::map || s.value.type == Type::list) out << YAML::Flow << YAML::Load(s.value.text);
    else out << s.value.text;
    if (origins) out << YAML::Comment(std::string(origin_name(s.origin)) + ": " + s.where.str());
  }
  for (; !open.empty(); open.pop_back()) out << YAML::EndMap;
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

namespace {
// The rows of each preset's paper table that it does not model, from the preset's own comments
// (a row is a `#   ` line and the `#     ` lines after it), so the list cannot drift from them.
std::string presets_markdown() {
  std::ostringstream md;
  md << "\n## Presets: rows of the papers' tables not modelled\n\n"
     << "Each preset's comments map every row of its paper's machine table to the key that carries it; "
        "these are the rows they mark not modelled or not calibrated (testbenches/unit/presets_test.cpp "
        "checks the rest against the seeds).\n";
  for (const auto& f : sim::preset_files()) {
    std::vector<std::string> rows;
    std::istringstream in(f.text);
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("#     ", 0) == 0 && !rows.empty()) rows.back() += " " + line.substr(6);
      else if (line.rfind("#   ", 0) == 0) rows.push_back(line.substr(4));
    }
    bool header = false;
    for (const std::string& r : rows) {
      if (r.find("not modelled") == std::string::npos && r.find("not calibrated") == std::string::npos) continue;
      if (!header) md << "\n### `" << f.path << "`\n\n";
      header = true;
      md << "- " << r << "\n";
    }
  }
  return md.str();
}
}  // namespace

std::string configuration_reference() { return Schema::builtin().markdown() + presets_markdown(); }

}  // namespace irr::sim
