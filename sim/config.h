// SPDX-License-Identifier: Apache-2.0
// The effective configuration: schema defaults, then presets, then user files, then --set, each
// value validated against the schema and remembered with where it came from. Models read keys
// through typed getters; a key a user set that no model read is an error (check_unused).
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "sim/error.h"
#include "sim/schema.h"

namespace irr::sim {

enum class Origin { schema_default, preset, user, command_line };
const char* origin_name(Origin o);

struct Setting {
  Value value;
  Location where;
  Origin origin = Origin::schema_default;
  // The value before any user file or --set touched the key; a user setting equal to it is not
  // reported as unused (so an effective config.yaml can be run again).
  std::string base_canonical;
};

class Config {
 public:
  explicit Config(Schema schema);
  // Shares a schema (no copy): for callers that make many configurations from one.
  explicit Config(std::shared_ptr<const Schema> schema);

  // Loads a preset by name (configs/NAME.yaml, or $IRRGPU_CONFIG_PATH) or a YAML file by path.
  void load(const std::string& preset_or_file);
  // Loads YAML text as a user file named `name`, its includes relative to `dir`.
  void load_yaml(const std::string& text, const std::string& name, const std::string& dir) {
    load_text(text, name, Origin::user, dir);
  }
  // Applies "key.path=value" (the value is YAML) as from the command line.
  void set(const std::string& assignment, const Location& where = {"--set", 0, 0});
  // Sets one key from YAML text; throws irr::Error naming where and why.
  void set(const std::string& path, const YAML::Node& node, const Location& where, Origin origin);

  bool get_bool(const std::string& path) const;
  std::int64_t get_int(const std::string& path) const;
  std::uint64_t get_uint(const std::string& path) const;
  double get_real(const std::string& path) const;
  std::string get_string(const std::string& path) const;  // string and enum keys
  std::uint64_t get_size(const std::string& path) const;  // bytes
  double get_frequency(const std::string& path) const;    // Hz
  Picoseconds get_time(const std::string& path) const;
  double get_bandwidth(const std::string& path) const;    // bytes per second
  std::vector<std::pair<std::string, std::string>> get_map(const std::string& path) const;
  std::vector<std::string> get_list(const std::string& path) const;

  const Setting& setting(const std::string& path) const;
  const Schema& schema() const { return *schema_; }
  const std::vector<std::string>& presets() const { return presets_; }
  // Throws a config error listing keys set by a user file or --set that no model has read.
  void check_unused() const;
  // The effective configuration as YAML; with origins, each key says where its value came from.
  std::string to_yaml(bool origins = false) const;

 private:
  void load_text(const std::string& text, const std::string& name, Origin origin, const std::string& dir);
  void load_root(const YAML::Node& root, const std::string& name, Origin origin, const std::string& dir);
  void load_node(const YAML::Node& key, const YAML::Node& value, const std::string& prefix,
                 const std::string& file, Origin origin);
  const Value& read(const std::string& path, std::initializer_list<Type> types) const;

  std::shared_ptr<const Schema> schema_;
  std::map<std::string, Setting> settings_;
  std::vector<std::string> presets_;     // presets loaded, in order (for config.yaml's include)
  std::vector<std::string> loading_;     // files being loaded, to catch include cycles
  mutable std::set<std::string> read_;
};

// The configuration reference (docs/configuration.md, `irrgpu config doc`): the schema's keys, then
// each preset's rows of its paper's machine table that it marks not modelled or not calibrated.
std::string configuration_reference();

}  // namespace irr::sim
