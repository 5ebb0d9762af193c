#include "distributed/engine_choice.hpp"

#include <algorithm>
#include <cctype>

#include "core/error.hpp"

namespace kf {
namespace {

bool is_name(const std::string& s) {
  if (s.empty()) return false;
  for (const char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_' && c != '-') return false;
  }
  return true;
}

EngineChoice parse_part(const std::string& text, const std::string& part) {
  const size_t colon = part.find(':');
  EngineChoice c;
  c.plugin = colon == std::string::npos ? part : part.substr(colon + 1);
  if (colon != std::string::npos) c.device_type = part.substr(0, colon);
  if (!is_name(c.plugin) || (colon != std::string::npos && !is_name(c.device_type))) {
    fail(KF_INVALID_ARGUMENT, "engine choice '{}': '{}' is not <device type>:<plugin> (such as "
         "cpu:gloo) or a plugin name; names are letters, digits, '_' and '-'", text, part);
  }
  return c;
}

}  // namespace

std::vector<EngineChoice> parse_engine_choice(const std::string& text) {
  std::vector<EngineChoice> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    EngineChoice c = parse_part(text, text.substr(start, comma - start));
    for (const EngineChoice& e : out) {
      if (!c.device_type.empty() && e.device_type == c.device_type) {
        fail(KF_INVALID_ARGUMENT, "engine choice '{}' names device type '{}' twice; give one "
             "engine per device type", text, c.device_type);
      }
    }
    out.push_back(std::move(c));
    start = comma + 1;
  }
  return out;
}

}  // namespace kf
