// SPDX-License-Identifier: Apache-2.0
#include "models/core/exec/values.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace irr::core {

using ptx::Cmp;
using ptx::Round;
using ptx::Type;

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  float v;
  if (exp == 0) v = std::ldexp(static_cast<float>(man), -24);
  else if (exp == 31) v = man ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  else v = std::ldexp(static_cast<float>(man | 0x400), static_cast<int>(exp) - 25);
  return sign ? -v : v;
}

std::uint16_t float_to_half(float f) {
  const std::uint32_t x = static_cast<std::uint32_t>(bits(f));
  const std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000);
  if (std::isnan(f)) return sign | 0x7e00;
  const float a = std::fabs(f);
  if (a >= 65520.0f) return sign | 0x7c00;  // rounds to infinity
  if (a < std::ldexp(1.0f, -25)) return sign;
  int e;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  if (e < -13) {      // subnormal half: units of 2^-24
    return sign | static_cast<std::uint16_t>(std::nearbyint(std::ldexp(a, 24)));
  }
  const float scaled = std::nearbyint(std::ldexp(a, 11 - e));  // 11 significant bits
  std::uint32_t man = static_cast<std::uint32_t>(scaled);
  int exp = e + 14;
  if (man == 0x800) {
    man = 0x400;
    ++exp;
  }
  if (exp >= 31) return sign | 0x7c00;
  return sign | static_cast<std::uint16_t>(exp << 10) | static_cast<std::uint16_t>(man & 0x3ff);
}



namespace {
double fval(std::uint64_t b, Type t) { return t == Type::f64 ? f64(b) : static_cast<double>(f32(b)); }
}  // namespace

bool compare(Cmp c, std::uint64_t a, std::uint64_t b, Type t) {
  if (ptx::is_float(t)) {
    const double x = fval(a, t), y = fval(b, t);
    const bool un = std::isnan(x) || std::isnan(y);
    switch (c) {
      case Cmp::eq: return !un && x == y;
      case Cmp::ne: return !un && x != y;
      case Cmp::lt: return !un && x < y;
      case Cmp::le: return !un && x <= y;
      case Cmp::gt: return !un && x > y;
      case Cmp::ge: return !un && x >= y;
      case Cmp::equ: return un || x == y;
      case Cmp::neu: return un || x != y;
      case Cmp::ltu: return un || x < y;
      case Cmp::leu: return un || x <= y;
      case Cmp::gtu: return un || x > y;
      case Cmp::geu: return un || x >= y;
      case Cmp::num: return !un;
      case Cmp::nan: return un;
      default: break;
    }
    throw std::invalid_argument("comparison not defined on floats");
  }
  const unsigned n = ptx::type_bits(t);
  if (ptx::is_signed(t)) {
    const std::int64_t x = sext(a, n), y = sext(b, n);
    switch (c) {
      case Cmp::eq: return x == y;
      case Cmp::ne: return x != y;
      case Cmp::lt: return x < y;
      case Cmp::le: return x <= y;
      case Cmp::gt: return x > y;
      case Cmp::ge: return x >= y;
      default: break;
    }
    throw std::invalid_argument("comparison not defined on signed integers");
  }
  const std::uint64_t x = zext(a, n), y = zext(b, n);
  switch (c) {
    case Cmp::eq: return x == y;
    case Cmp::ne: return x != y;
    case Cmp::lt: case Cmp::lo: return x < y;
    case Cmp::le: case Cmp::ls: return x <= y;
    case Cmp::gt: case Cmp::hi: return x > y;
    case Cmp::ge: case Cmp::hs: return x >= y;
    default: break;
  }
  throw std::invalid_argument("comparison not defined on unsigned integers");
}

// Float to integer with PTX's saturation: NaN -> 0, out of range -> the nearest bound.
std::uint64_t f2i(double v, Type to, Round r) {
  const unsigned n = ptx::type_bits(to);
  if (std::isnan(v)) return 0;
  double rv;
  switch (r) {
    case Round::rni: case Round::rn: rv = std::nearbyint(v); break;  // ties to even (default env)
    case Round::rmi: case Round::rm: rv = std::floor(v); break;
    case Round::rpi: case Round::rp: rv = std::ceil(v); break;
    default: rv = std::trunc(v); break;
  }
  if (ptx::is_signed(to)) {
    const double lo = -std::ldexp(1.0, static_cast<int>(n) - 1), hi = std::ldexp(1.0, static_cast<int>(n) - 1);
    if (rv < lo) return zext(static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::min() >> (64 - n)), n);
    if (rv >= hi) return low_bits(n - 1);
    return zext(static_cast<std::uint64_t>(static_cast<std::int64_t>(rv)), n);
  }
  if (rv <= 0) return 0;
  if (rv >= std::ldexp(1.0, static_cast<int>(n))) return low_bits(n);
  return static_cast<std::uint64_t>(rv);
}

std::uint64_t saturate_int(std::int64_t v, Type to) {
  const unsigned n = ptx::type_bits(to);
  if (ptx::is_signed(to)) {
    const std::int64_t hi = static_cast<std::int64_t>(low_bits(n - 1)), lo = -hi - 1;
    return zext(static_cast<std::uint64_t>(std::clamp(v, lo, hi)), n);
  }
  return v < 0 ? 0 : std::min<std::uint64_t>(static_cast<std::uint64_t>(v), low_bits(n));
}

}  // namespace irr::core
