// SPDX-License-Identifier: Apache-2.0
// Raw register bits as PTX types: truncation, sign extension, floats, halves, rounding modes.
#pragma once

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "models/core/ptx/module.h"

namespace irr::core {

inline std::uint64_t low_bits(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }
inline std::uint64_t zext(std::uint64_t v, unsigned n) { return v & low_bits(n); }
inline std::int64_t sext(std::uint64_t v, unsigned n) {
  if (n >= 64) return static_cast<std::int64_t>(v);
  const std::uint64_t m = 1ull << (n - 1);
  v &= low_bits(n);
  return static_cast<std::int64_t>((v ^ m) - m);
}
inline float f32(std::uint64_t b) {
  float f;
  const auto u = static_cast<std::uint32_t>(b);
  std::memcpy(&f, &u, 4);
  return f;
}
inline double f64(std::uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}
inline std::uint64_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline std::uint64_t bits(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
// IEEE half <-> float (round to nearest even).
float half_to_float(std::uint16_t h);
std::uint16_t float_to_half(float f);

// setp/set comparison of two raw values as type t (floats: ordered and unordered forms).
bool compare(ptx::Cmp c, std::uint64_t a, std::uint64_t b, ptx::Type t);
// Float to integer as cvt does it: rounding mode, saturation to the range, NaN -> 0.
std::uint64_t f2i(double v, ptx::Type to, ptx::Round r);
// A signed value clamped to the range of an integer type.
std::uint64_t saturate_int(std::int64_t v, ptx::Type to);

// Runs f under a PTX rounding mode (rn is the default environment).
template <typename F>
auto rounded(ptx::Round r, F f) {
  int mode = FE_TONEAREST;
  if (r == ptx::Round::rz || r == ptx::Round::rzi) mode = FE_TOWARDZERO;
  else if (r == ptx::Round::rm || r == ptx::Round::rmi) mode = FE_DOWNWARD;
  else if (r == ptx::Round::rp || r == ptx::Round::rpi) mode = FE_UPWARD;
  if (mode == FE_TONEAREST) return f();
  std::fesetround(mode);
  auto v = f();
  std::fesetround(FE_TONEAREST);
  return v;
}

}  // namespace irr::core
