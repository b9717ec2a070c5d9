// SPDX-License-Identifier: Apache-2.0
// PTX tokens. Identifiers keep their dots (`ld.global.u32`, `%tid.x`), directives start with a dot
// (`.reg`), numbers include PTX's bit-pattern floats (`0f3F800000`, `0d...`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace irr::core::ptx {

struct Token {
  enum Kind { ident, directive, integer, floating, string, punct, end } kind = end;
  std::string text;
  std::uint64_t u = 0;  // integer value, or a float's bits
  bool f64 = false;     // floating: 0d / double literal
  int line = 0, col = 0;
};

// Throws irr::Error "file:line:col: why" on a malformed token.
std::vector<Token> lex(const std::string& text, const std::string& file);

}  // namespace irr::core::ptx
