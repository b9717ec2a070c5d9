// SPDX-License-Identifier: Apache-2.0
#include "sim/units.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>
#include <vector>

namespace irr::sim {
namespace {

struct Unit {
  const char* name;
  double scale;
};

// Splits "48 KiB" into 48 and "KiB": spaces, digits with an optional fraction and exponent,
// spaces, letters or '/', spaces; rejects anything else. Scanned by hand: a std::regex took some
// 3 ms to compile in every run.
std::pair<double, std::string> split(const std::string& text) {
  const std::size_t n = text.size();
  std::size_t i = 0;
  auto skip = [&](auto pred) {  // past the characters `pred` takes; whether there were any
    const std::size_t from = i;
    while (i < n && pred(static_cast<unsigned char>(text[i]))) ++i;
    return i > from;
  };
  auto space = [](unsigned char c) { return std::isspace(c) != 0; };
  auto digit = [](unsigned char c) { return std::isdigit(c) != 0; };
  auto bad = [&] { return std::invalid_argument("'" + text + "' is not a number with a unit"); };
  skip(space);
  const std::size_t start = i;
  if (!skip(digit)) throw bad();
  if (i < n && text[i] == '.') {
    ++i;
    if (!skip(digit)) throw bad();
  }
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {  // an exponent, or else the unit's first letter
    const std::size_t e = i++;
    if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
    if (!skip(digit)) i = e;
  }
  const std::string number = text.substr(start, i - start);
  skip(space);
  const std::size_t unit = i;
  skip([](unsigned char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '/'; });
  const std::string name = text.substr(unit, i - unit);
  skip(space);
  if (i != n) throw bad();
  try {
    return {std::stod(number), name};
  } catch (const std::out_of_range&) {  // an exponent beyond a double's
    throw std::invalid_argument("'" + text + "' is out of range");
  }
}

double scaled(const std::string& text, const std::vector<Unit>& units, const char* what,
              bool unit_required) {
  auto [number, unit] = split(text);
  if (unit.empty() && !unit_required) return number;
  std::string known;
  for (const auto& u : units) {
    if (unit == u.name) return number * u.scale;
    known += known.empty() ? "" : ", ";
    known += u.name;
  }
  throw std::invalid_argument("'" + text + "': " + (unit.empty() ? "missing" : "unknown") + " " +
                              what + " unit (use " + known + ")");
}

std::string trim_number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.12g", v);
  return buf;
}

// Picks the largest unit that divides the value exactly (or leaves >= 1 for reals).
template <typename T>
std::string format_with(T value, const std::vector<Unit>& units, bool exact) {
  for (auto it = units.rbegin(); it != units.rend(); ++it) {
    double q = static_cast<double>(value) / it->scale;
    if (exact ? (std::fmod(static_cast<double>(value), it->scale) == 0 && q >= 1) : q >= 1)
      return trim_number(q) + it->name;
  }
  return trim_number(static_cast<double>(value)) + units.front().name;
}

const std::vector<Unit> kSize = {{"B", 1},
                                 {"KiB", 1024.0},
                                 {"MiB", 1024.0 * 1024},
                                 {"GiB", 1024.0 * 1024 * 1024},
                                 {"TiB", 1024.0 * 1024 * 1024 * 1024}};
const std::vector<Unit> kSizeAliases = {{"KB", 1024.0}, {"MB", 1024.0 * 1024}, {"GB", 1024.0 * 1024 * 1024}};
const std::vector<Unit> kFrequency = {{"Hz", 1}, {"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}};
const std::vector<Unit> kTime = {{"ps", 1}, {"ns", 1e3}, {"us", 1e6}, {"ms", 1e9}, {"s", 1e12}};
const std::vector<Unit> kBandwidth = {{"B/s", 1}, {"KB/s", 1e3}, {"MB/s", 1e6}, {"GB/s", 1e9}, {"TB/s", 1e12}};

}  // namespace

std::uint64_t parse_size(const std::string& text) {
  std::vector<Unit> all = kSize;
  all.insert(all.end(), kSizeAliases.begin(), kSizeAliases.end());
  double v = scaled(text, all, "size", false);
  if (v != std::floor(v) || v > 1.8e19) throw std::invalid_argument("'" + text + "' is not a whole number of bytes");
  return static_cast<std::uint64_t>(v);
}

double parse_frequency(const std::string& text) {
  double hz = scaled(text, kFrequency, "frequency", true);
  if (hz <= 0) throw std::invalid_argument("'" + text + "': a frequency must be positive");
  return hz;
}

Picoseconds parse_time(const std::string& text) {
  double ps = scaled(text, kTime, "time", true);
  if (std::fabs(ps - std::round(ps)) > 1e-6 * std::max(1.0, ps))
    throw std::invalid_argument("'" + text + "' is finer than the 1 ps time resolution");
  return static_cast<Picoseconds>(std::llround(ps));
}

double parse_bandwidth(const std::string& text) { return scaled(text, kBandwidth, "bandwidth", true); }

std::string format_size(std::uint64_t bytes) { return format_with(bytes, kSize, true); }
std::string format_frequency(double hz) { return format_with(hz, kFrequency, false); }
std::string format_time(Picoseconds ps) { return format_with(ps, kTime, true); }
std::string format_bandwidth(double bps) { return format_with(bps, kBandwidth, false); }

}  // namespace irr::sim
