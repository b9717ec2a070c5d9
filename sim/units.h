// SPDX-License-Identifier: Apache-2.0
// Quantities with units in configuration text: sizes (48KiB), frequencies (700MHz),
// times (30us) and bandwidths (224GB/s). Parsers throw std::invalid_argument with the reason.
#pragma once

#include <cstdint>
#include <string>

namespace irr::sim {

using Picoseconds = std::uint64_t;

// Bytes. Binary prefixes: KiB = KB = 1024 (the hardware convention the papers use), MiB = MB, ...
std::uint64_t parse_size(const std::string& text);
// Hertz. Units Hz, kHz, MHz, GHz (decimal).
double parse_frequency(const std::string& text);
// Picoseconds, exactly: units ps, ns, us, ms, s; a value finer than 1 ps is an error.
Picoseconds parse_time(const std::string& text);
// Bytes per second. Decimal prefixes, as datasheets quote bandwidth: 224GB/s = 224e9 B/s.
double parse_bandwidth(const std::string& text);

std::string format_size(std::uint64_t bytes);        // 49152 -> "48KiB"
std::string format_frequency(double hz);             // 7e8 -> "700MHz"
std::string format_time(Picoseconds ps);             // 30000000 -> "30us"
std::string format_bandwidth(double bytes_per_s);    // 2.24e11 -> "224GB/s"

}  // namespace irr::sim
