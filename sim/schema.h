// SPDX-License-Identifier: Apache-2.0
// The configuration schema: every key a config may set, with its type, default, unit, range and
// description. Each folder declares its keys in a schema.yaml; the build embeds them all.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/embedded.h"
#include "sim/error.h"
#include "sim/units.h"

namespace YAML {
class Node;  // <yaml-cpp/yaml.h> where YAML is read: most users of the schema never do
}

namespace irr::sim {

enum class Type { boolean, integer, unsigned_integer, real, string, enumeration, size, frequency, time, bandwidth, map, list };

const char* type_name(Type t);

// A key's value after parsing and validation.
struct Value {
  Type type = Type::string;
  bool b = false;
  std::int64_t i = 0;
  std::uint64_t u = 0;  // unsigned, size (bytes), time (ps)
  double d = 0;         // real, frequency (Hz), bandwidth (B/s)
  std::string s;        // string, enumeration
  std::vector<std::pair<std::string, std::string>> entries;  // map, in document order
  std::vector<std::string> items;                            // list
  std::string text;       // as written (scalars) or as YAML (map, list): what `config show` prints
  std::string canonical;  // unit-free form used to compare two values
};

struct KeySpec {
  std::string path;
  Type type = Type::string;
  std::string description;
  std::string unit;                 // for plain numbers: "cycles", "entries", ...
  std::string default_text;         // YAML text of the default
  Value default_value;              // the default, parsed once
  std::optional<double> min, max;   // in the type's base unit (bytes, Hz, ps, B/s)
  std::string min_text, max_text;
  std::vector<std::string> values;  // enumeration (or enumeration elements of a map/list)
  Type element = Type::string;      // element type of a map or list
  std::string planned;              // non-empty: no model reads this key yet; says which will
  std::string source;               // schema file that declares it

  // Parses and validates a YAML value for this key; throws std::invalid_argument with the reason.
  Value parse(const YAML::Node& node) const;
  std::string range_text() const;
};

struct SectionSpec {
  std::string path;
  std::string description;
  std::string planned;
};

class Schema {
 public:
  // The schema compiled into irrgpu: the schema files as the build parsed them (schema_compile.cpp),
  // read from JSON: parsing the YAML took about 20 ms, a sixth of a small run.
  static Schema builtin();
  static Schema from_files(const std::vector<EmbeddedFile>& files);  // parses them (YAML)
  void add(const EmbeddedFile& file);
  // Everything parsed, as JSON text, and back.
  std::string serialize() const;
  static Schema deserialize(const std::string& json);

  const KeySpec* key(const std::string& path) const;
  const SectionSpec* section(const std::string& path) const;
  // The closest declared key or section to a misspelt path, or "" when nothing is close.
  std::string suggest(const std::string& path) const;
  // Keys by path (sorted).
  const std::map<std::string, KeySpec>& keys() const { return keys_; }
  // Keys in declaration order.
  const std::vector<std::string>& order() const { return order_; }
  const std::vector<std::string>& section_order() const { return section_order_; }
  // docs/configuration.md
  std::string markdown() const;

 private:
  void walk(const YAML::Node& node, const std::string& prefix, const std::string& file,
            const std::string& planned);
  std::map<std::string, KeySpec> keys_;
  std::map<std::string, SectionSpec> sections_;
  std::vector<std::string> order_, section_order_;
};

}  // namespace irr::sim
