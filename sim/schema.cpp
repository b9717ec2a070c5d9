// SPDX-License-Identifier: Apache-2.0
#include "sim/schema.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

// A key's optional bounds in the compiled schema: null when absent.
template <typename T>
struct nlohmann::adl_serializer<std::optional<T>> {
  static void to_json(json& j, const std::optional<T>& o) { j = o ? json(*o) : json(); }
  static void from_json(const json& j, std::optional<T>& o) { o = j.is_null() ? std::nullopt : std::optional<T>(j.get<T>()); }
};

namespace irr::sim {
namespace {

const std::vector<std::pair<const char*, Type>> kTypes = {
    {"bool", Type::boolean},       {"int", Type::integer},     {"uint", Type::unsigned_integer},
    {"real", Type::real},          {"string", Type::string},   {"enum", Type::enumeration},
    {"size", Type::size},          {"frequency", Type::frequency}, {"time", Type::time},
    {"bandwidth", Type::bandwidth}, {"map", Type::map},        {"list", Type::list}};

Type parse_type(const std::string& name, const std::string& where) {
  for (const auto& [n, t] : kTypes)
    if (name == n) return t;
  throw std::logic_error(where + ": unknown schema type '" + name + "'");
}

std::string yaml_text(const YAML::Node& node) {
  YAML::Emitter out;
  out << YAML::Flow << node;
  return out.c_str();
}

bool is_scalar_type(Type t) { return t != Type::map && t != Type::list; }

std::string number_text(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

// Parses one scalar of a scalar type (also the elements of maps and lists).
Value parse_scalar(Type type, const std::vector<std::string>& values, const YAML::Node& node) {
  if (!node.IsScalar()) throw std::invalid_argument(std::string("expected a ") + type_name(type) + ", got " + (node.IsMap() ? "a mapping" : node.IsSequence() ? "a list" : "nothing"));
  Value v;
  v.type = type;
  v.text = node.Scalar();
  const std::string& t = v.text;
  auto whole = [&](bool is_signed) {
    std::size_t pos = 0;
    if (t.empty() || (!is_signed && t[0] == '-')) throw std::invalid_argument("'" + t + "' is not a " + (is_signed ? "whole number" : "non-negative whole number"));
    try {
      if (is_signed) v.i = std::stoll(t, &pos, 0);
      else v.u = std::stoull(t, &pos, 0);
    } catch (const std::out_of_range&) {
      throw std::invalid_argument("'" + t + "' is out of the 64-bit range");
    } catch (const std::exception&) {
      pos = 0;
    }
    if (pos != t.size()) throw std::invalid_argument("'" + t + "' is not a whole number");
  };
  switch (type) {
    case Type::boolean:
      if (t == "true" || t == "yes" || t == "on") v.b = true;
      else if (t == "false" || t == "no" || t == "off") v.b = false;
      else throw std::invalid_argument("'" + t + "' is not a boolean (true or false)");
      v.canonical = v.b ? "true" : "false";
      break;
    case Type::integer: whole(true); v.d = double(v.i); v.canonical = std::to_string(v.i); break;
    case Type::unsigned_integer: whole(false); v.d = double(v.u); v.canonical = std::to_string(v.u); break;
    case Type::real: {
      std::size_t pos = 0;
      try { v.d = std::stod(t, &pos); } catch (const std::exception&) { pos = 0; }
      if (pos != t.size() || t.empty() || !std::isfinite(v.d)) throw std::invalid_argument("'" + t + "' is not a number");
      v.canonical = number_text(v.d);
      break;
    }
    case Type::string: v.s = t; v.canonical = t; break;
    case Type::enumeration:
      if (std::find(values.begin(), values.end(), t) == values.end()) {
        std::string all;
        for (const auto& x : values) all += (all.empty() ? "" : ", ") + x;
        throw std::invalid_argument("'" + t + "' is not one of: " + all);
      }
      v.s = t; v.canonical = t;
      break;
    case Type::size: v.u = parse_size(t); v.d = double(v.u); v.canonical = std::to_string(v.u); break;
    case Type::frequency: v.d = parse_frequency(t); v.canonical = number_text(v.d); break;
    case Type::time: v.u = parse_time(t); v.d = double(v.u); v.canonical = std::to_string(v.u); break;
    case Type::bandwidth: v.d = parse_bandwidth(t); v.canonical = number_text(v.d); break;
    default: throw std::logic_error("parse_scalar on a container type");
  }
  return v;
}

// Base-unit number of a range bound written in the key's own syntax ("1KiB", "1MHz", 4).
double bound(Type type, const std::string& text) {
  YAML::Node n(text);
  return parse_scalar(type, {}, n).d;
}

// The edit distance, or `limit` when it is at least that: the lengths' difference bounds it
// from below, and so does each row's least entry, so most of a schema's keys cost little when an
// unknown key is matched.
std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t limit) {
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) >= limit) return limit;
  // One row kept between calls: a suggestion compares a key with every key of the schema.
  thread_local std::vector<std::size_t> row;
  row.resize(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    std::size_t least = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      row[j] = std::min(std::min(row[j], row[j - 1]) + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1));
      least = std::min(least, row[j]);
      diag = up;
    }
    if (least >= limit) return limit;
  }
  return std::min(row[b.size()], limit);
}

}  // namespace

const char* type_name(Type t) {
  for (const auto& [n, type] : kTypes)
    if (type == t) return n;
  return "?";
}

Value KeySpec::parse(const YAML::Node& node) const {
  Value v;
  if (is_scalar_type(type)) {
    v = parse_scalar(type, values, node);
    if (type != Type::string && type != Type::enumeration && type != Type::boolean) {
      if ((min && v.d < *min) || (max && v.d > *max))
        throw std::invalid_argument("'" + v.text + "' is out of range " + range_text());
    }
    return v;
  }
  v.type = type;
  v.text = yaml_text(node);
  if (type == Type::map) {
    if (!node.IsMap() && !node.IsNull()) throw std::invalid_argument("expected a mapping");
    for (const auto& kv : node) {
      Value e = parse_scalar(element, values, kv.second);
      v.entries.emplace_back(kv.first.Scalar(), e.text);
      v.canonical += kv.first.Scalar() + "=" + e.canonical + ";";
    }
  } else {
    if (!node.IsSequence() && !node.IsNull()) throw std::invalid_argument("expected a list");
    for (const auto& item : node) {
      Value e = parse_scalar(element, values, item);
      v.items.push_back(e.text);
      v.canonical += e.canonical + ";";
    }
  }
  return v;
}

std::string KeySpec::range_text() const {
  if (!values.empty() && (type == Type::enumeration || element == Type::enumeration)) {
    std::string all;
    for (const auto& x : values) all += (all.empty() ? "" : " | ") + x;
    return all;
  }
  if (min_text.empty() && max_text.empty()) return "";
  return "[" + (min_text.empty() ? std::string("-inf") : min_text) + ", " +
         (max_text.empty() ? std::string("inf") : max_text) + "]";
}

Schema Schema::from_files(const std::vector<EmbeddedFile>& files) {
  Schema s;
  for (const auto& f : files) s.add(f);
  return s;
}

void Schema::add(const EmbeddedFile& file) {
  YAML::Node root;
  try {
    root = YAML::Load(file.text);
    // A schema is the project's own input: its mistakes are internal errors, named by place.
    walk(root, "", file.path, "");
  } catch (const YAML::Exception& e) {
    throw std::logic_error(file.path + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
}

void Schema::walk(const YAML::Node& node, const std::string& prefix, const std::string& file,
                  const std::string& planned) {
  for (const auto& kv : node) {
    const std::string name = kv.first.Scalar();
    const YAML::Node& body = kv.second;
    if (!prefix.empty() && (name == "description" || name == "planned")) continue;
    const std::string path = prefix.empty() ? name : prefix + "." + name;
    const std::string where = file + ":" + std::to_string(kv.first.Mark().line + 1) + ": " + path;
    if (!body.IsMap()) throw std::logic_error(where + ": schema entries are mappings");
    if (!body["type"]) {  // a section
      if (keys_.count(path)) throw std::logic_error(where + ": declared as a key and a section");
      SectionSpec& sec = sections_[path];
      if (sec.path.empty()) section_order_.push_back(path);
      sec.path = path;
      if (body["description"]) sec.description = body["description"].as<std::string>();
      sec.planned = body["planned"] ? body["planned"].as<std::string>() : planned;
      walk(body, path, file, sec.planned);
      continue;
    }
    if (keys_.count(path) || sections_.count(path)) throw std::logic_error(where + ": declared twice");
    KeySpec k;
    k.path = path;
    k.source = file;
    k.type = parse_type(body["type"].as<std::string>(), where);
    if (!body["description"]) throw std::logic_error(where + ": no description");
    k.description = body["description"].as<std::string>();
    if (body["unit"]) k.unit = body["unit"].as<std::string>();
    if (body["values"]) k.values = body["values"].as<std::vector<std::string>>();
    if (body["of"]) k.element = parse_type(body["of"].as<std::string>(), where);
    k.planned = body["planned"] ? body["planned"].as<std::string>() : planned;
    Type scalar = is_scalar_type(k.type) ? k.type : k.element;
    try {
      if (body["min"]) { k.min_text = body["min"].Scalar(); k.min = bound(scalar, k.min_text); }
      if (body["max"]) { k.max_text = body["max"].Scalar(); k.max = bound(scalar, k.max_text); }
    } catch (const std::invalid_argument& e) {
      throw std::logic_error(where + ": bad bound: " + e.what());
    }
    if (!body["default"]) throw std::logic_error(where + ": no default");
    k.default_text = yaml_text(body["default"]);
    try {
      k.default_value = k.parse(body["default"]);
    } catch (const std::invalid_argument& e) {
      throw std::logic_error(where + ": bad default: " + e.what());
    }
    keys_[path] = k;
    order_.push_back(path);
  }
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Value, type, b, i, u, d, s, entries, items, text, canonical)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(KeySpec, path, type, description, unit, default_text, default_value, min, max,
                                   min_text, max_text, values, element, planned, source)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(SectionSpec, path, description, planned)

std::string Schema::serialize() const {
  nlohmann::json keys = nlohmann::json::array(), sections = nlohmann::json::array();
  for (const auto& path : order_) {
    const KeySpec& k = keys_.at(path);
    if ((k.min && !std::isfinite(*k.min)) || (k.max && !std::isfinite(*k.max)) || !std::isfinite(k.default_value.d))
      throw std::logic_error(k.source + ": " + path + ": a bound or default JSON cannot carry");
    keys.push_back(k);
  }
  for (const auto& path : section_order_) sections.push_back(sections_.at(path));
  return nlohmann::json{{"keys", keys}, {"sections", sections}}.dump();
}

Schema Schema::deserialize(const std::string& text) {
  const nlohmann::json j = nlohmann::json::parse(text);
  Schema s;
  for (const auto& jk : j.at("keys")) {
    auto k = jk.get<KeySpec>();
    s.order_.push_back(k.path);
    s.keys_.emplace(k.path, std::move(k));
  }
  for (const auto& js : j.at("sections")) {
    auto sec = js.get<SectionSpec>();
    s.section_order_.push_back(sec.path);
    s.sections_.emplace(sec.path, std::move(sec));
  }
  return s;
}

const KeySpec* Schema::key(const std::string& path) const {
  auto it = keys_.find(path);
  return it == keys_.end() ? nullptr : &it->second;
}

const SectionSpec* Schema::section(const std::string& path) const {
  auto it = sections_.find(path);
  return it == sections_.end() ? nullptr : &it->second;
}

std::string Schema::suggest(const std::string& path) const {
  std::string best;
  std::size_t best_d = std::max<std::size_t>(3, path.size() / 3) + 1;
  auto leaf = [](std::string_view p) { auto i = p.rfind('.'); return i == std::string_view::npos ? p : p.substr(i + 1); };
  const std::string_view path_leaf = leaf(path);
  const std::size_t leaf_cost = path_leaf.size() == path.size() ? 0 : 1;
  auto consider = [&](const std::string& candidate) {
    std::size_t d = edit_distance(path, candidate, best_d);
    // Also match on the last component alone, so "l1.sise" finds "l1.size" and a key put under
    // the wrong section ("core.l1_size") finds its real place.
    if (best_d > leaf_cost) d = std::min(d, edit_distance(path_leaf, leaf(candidate), best_d - leaf_cost) + leaf_cost);
    if (d < best_d) { best_d = d; best = candidate; }
  };
  for (const auto& k : order_) consider(k);
  for (const auto& s : section_order_) consider(s);
  return best;
}

std::string Schema::markdown() const {
  std::ostringstream md;
  md << "<!-- Generated by `irrgpu config doc` (make docs) from the schema.yaml files; do not edit. -->\n"
     << "# Configuration reference\n\n"
     << "Every key a configuration may set. Sizes take binary units (`48KiB`; `KB` = `KiB` = 1024 B, "
        "the papers' usage), frequencies `Hz`/`kHz`/`MHz`/`GHz`, times `ps`/`ns`/`us`/`ms`/`s`, "
        "bandwidths decimal `B/s`/`KB/s`/`MB/s`/`GB/s`. Keys of sections marked *planned* are "
        "validated and carried by the presets, but no model reads them yet: setting one in a user "
        "file or with `--set` is an error until that model exists.\n";
  std::string current;
  for (const auto& path : order_) {
    const KeySpec& k = keys_.at(path);
    std::string sec = path.rfind('.') == std::string::npos ? "" : path.substr(0, path.rfind('.'));
    if (sec != current) {
      current = sec;
      md << "\n## `" << (sec.empty() ? "(top level)" : sec) << "`\n\n";
      if (const SectionSpec* s = section(sec)) {
        if (!s->description.empty()) md << s->description << "\n\n";
        if (!s->planned.empty()) md << "*Planned:* " << s->planned << "\n\n";
      }
      md << "| key | type | default | unit | range | description |\n|---|---|---|---|---|---|\n";
    }
    std::string type = type_name(k.type);
    if (k.type == Type::map || k.type == Type::list) type += std::string(" of ") + type_name(k.element);
    std::string desc = k.description;
    std::replace(desc.begin(), desc.end(), '\n', ' ');
    if (!k.planned.empty() && (!section(sec) || section(sec)->planned != k.planned)) desc += " *Planned:* " + k.planned;
    std::string range = k.range_text();
    std::replace(range.begin(), range.end(), '|', '/');
    md << "| `" << path << "` | " << type << " | `" << k.default_text << "` | " << k.unit << " | " << range << " | " << desc << " |\n";
  }
  return md.str();
}

}  // namespace irr::sim
