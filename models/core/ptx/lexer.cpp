// SPDX-License-Identifier: Apache-2.0
#include "models/core/ptx/lexer.h"

#include <cctype>
#include <cstring>

#include "sim/error.h"

namespace irr::core::ptx {
namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.'; }

}  // namespace

std::vector<Token> lex(const std::string& s, const std::string& file) {
  std::vector<Token> out;
  int line = 1;
  std::size_t line_start = 0, i = 0;
  auto fail = [&](std::size_t at, const std::string& why) {
    return Error({file, line, static_cast<int>(at - line_start) + 1}, why, Error::Kind::config);
  };
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') {
      ++line;
      line_start = ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      const std::size_t start = i;
      i += 2;
      while (i + 1 < s.size() && !(s[i] == '*' && s[i + 1] == '/')) {
        if (s[i] == '\n') {
          ++line;
          line_start = i + 1;
        }
        ++i;
      }
      if (i + 1 >= s.size()) throw fail(start, "unterminated comment");
      i += 2;
      continue;
    }
    Token t;
    t.line = line;
    t.col = static_cast<int>(i - line_start) + 1;
    const std::size_t start = i;
    if (c == '.' && i + 1 < s.size() && (std::isalpha(static_cast<unsigned char>(s[i + 1])) || s[i + 1] == '_')) {
      ++i;
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
      t.kind = Token::directive;
      t.text = s.substr(start, i - start);
    } else if (ident_start(c)) {
      ++i;
      // An opcode's qualifiers may carry a sub-qualifier after '::' (ld.global.L1::no_allocate,
      // fence.proxy.async.shared::cta); one ':' ends a label.
      while (i < s.size() && (ident_char(s[i]) || (s[i] == ':' && i + 2 < s.size() && s[i + 1] == ':' && ident_char(s[i + 2]))))
        i += s[i] == ':' ? 2 : 1;
      t.kind = Token::ident;
      t.text = s.substr(start, i - start);
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      if (c == '0' && i + 1 < s.size() && (s[i + 1] == 'f' || s[i + 1] == 'F' || s[i + 1] == 'd' || s[i + 1] == 'D')) {
        const bool dbl = s[i + 1] == 'd' || s[i + 1] == 'D';
        const std::size_t digits = dbl ? 16 : 8;
        i += 2;
        const std::size_t h = i;
        while (i < s.size() && std::isxdigit(static_cast<unsigned char>(s[i]))) ++i;
        if (i - h != digits) throw fail(start, std::string("a ") + (dbl ? "0d" : "0f") + " float needs " + std::to_string(digits) + " hex digits");
        t.kind = Token::floating;
        t.f64 = dbl;
        t.u = std::stoull(s.substr(h, digits), nullptr, 16);
      } else if (c == '0' && i + 1 < s.size() && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        i += 2;
        const std::size_t h = i;
        while (i < s.size() && std::isxdigit(static_cast<unsigned char>(s[i]))) ++i;
        if (i == h) throw fail(start, "hex number without digits");
        if (i - h > 16) throw fail(start, "hex number wider than 64 bits");
        t.kind = Token::integer;
        t.u = std::stoull(s.substr(h, i - h), nullptr, 16);
        if (i < s.size() && s[i] == 'U') ++i;
      } else {
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
        if (i < s.size() && (s[i] == '.' || s[i] == 'e' || s[i] == 'E')) {
          while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.' || s[i] == 'e' ||
                                  s[i] == 'E' || ((s[i] == '+' || s[i] == '-') && (s[i - 1] == 'e' || s[i - 1] == 'E'))))
            ++i;
          double d;
          try {
            d = std::stod(s.substr(start, i - start));
          } catch (const std::exception&) {  // out of a double's range (1e999), or not a number at all
            throw fail(start, "floating-point number '" + s.substr(start, i - start) + "' out of range");
          }
          t.kind = Token::floating;
          t.f64 = true;
          std::memcpy(&t.u, &d, 8);
        } else {
          t.kind = Token::integer;
          try {
            t.u = std::stoull(s.substr(start, i - start));
          } catch (const std::exception&) {
            throw fail(start, "number out of range");
          }
          if (i < s.size() && s[i] == 'U') ++i;
        }
      }
      t.text = s.substr(start, i - start);
    } else if (c == '"') {
      ++i;
      while (i < s.size() && s[i] != '"' && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < s.size()) ++i;
        ++i;
      }
      if (i >= s.size() || s[i] != '"') throw fail(start, "unterminated string");
      ++i;
      t.kind = Token::string;
      t.text = s.substr(start + 1, i - start - 2);
    } else if (std::strchr("{}()[];,:+-!@<>=|", c)) {
      ++i;
      t.kind = Token::punct;
      t.text = std::string(1, c);
    } else {
      throw fail(start, std::string("unexpected character '") + c + "'");
    }
    out.push_back(std::move(t));
  }
  Token e;
  e.line = line;
  e.col = static_cast<int>(i - line_start) + 1;
  out.push_back(e);
  return out;
}

}  // namespace irr::core::ptx
