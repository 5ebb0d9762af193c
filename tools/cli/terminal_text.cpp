// Note [Outside text on a terminal] is in terminal_text.hpp.
#include "terminal_text.hpp"

#include <cstdint>
#include <cstdio>

namespace kf::cli {
namespace {

/// Length of the valid UTF-8 sequence at s[i] and its code point, or 0 when it is not valid
/// (stray continuation byte, overlong form, surrogate, beyond U+10FFFF, cut short).
size_t utf8_sequence(std::string_view s, size_t i, uint32_t& cp) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  size_t len = 0;
  uint32_t min = 0;
  if (b0 < 0x80) {
    cp = b0;
    return 1;
  } else if ((b0 & 0xE0) == 0xC0) {
    len = 2, cp = b0 & 0x1Fu, min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3, cp = b0 & 0x0Fu, min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4, cp = b0 & 0x07u, min = 0x10000;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3Fu);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

/// Whether code point `cp` must not reach a terminal as it is.
bool needs_escape(uint32_t cp) {
  return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 ||
         cp == 0x2029 || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

std::string escape(uint32_t cp) {
  switch (cp) {
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    default: break;
  }
  char buf[12];
  if (cp < 0x80) {
    std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(cp));
  } else {
    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
  }
  return buf;
}

}  // namespace

std::string terminal_safe(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    uint32_t cp = 0;
    const size_t len = utf8_sequence(s, i, cp);
    if (len == 0) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(
                                                    static_cast<unsigned char>(s[i])));
      out += buf;
      ++i;
      continue;
    }
    if (needs_escape(cp)) {
      out += escape(cp);
    } else {
      out.append(s.data() + i, len);
    }
    i += len;
  }
  return out;
}

std::string json_text(const nlohmann::ordered_json& j) {
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace kf::cli
