#include "device_filter.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace kf::opencl {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool all_digits(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

/// A sign, a digit, or digits with number characters: meant as a number, but not an index.
bool looks_numeric(const std::string& s) {
  const size_t start = s[0] == '-' || s[0] == '+' ? 1 : 0;
  if (start >= s.size() || std::isdigit(static_cast<unsigned char>(s[start])) == 0) return false;
  return std::all_of(s.begin() + static_cast<long>(start), s.end(), [](unsigned char c) {
    return std::isxdigit(c) != 0 || c == '.' || c == 'x' || c == 'X' || c == '-' || c == '+';
  });
}

/// "0 'name', 1 'other'" (the items by index).
std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    out += (i == 0 ? "" : ", ") + std::to_string(i) + " '" + names[i] + "'";
  }
  return out;
}

}  // namespace

Filter read_filter(const char* variable) {
  Filter f;
  f.variable = variable;
  const char* raw = std::getenv(variable);
  if (raw == nullptr || *raw == '\0') return f;
  f.value = raw;
  if (all_digits(f.value)) {
    f.kind = Filter::Kind::Index;
    // An index past every device (or too long to read) is out of range: SIZE_MAX says so.
    f.index = f.value.size() > 9 ? static_cast<size_t>(-1)
                                 : static_cast<size_t>(std::strtoull(raw, nullptr, 10));
  } else {
    f.kind = looks_numeric(f.value) ? Filter::Kind::Bad : Filter::Kind::Name;
  }
  return f;
}

bool Filter::takes(size_t i, const std::string& name) const {
  switch (kind) {
    case Kind::All: return true;
    case Kind::Index: return i == index;
    case Kind::Name: return lower(name).find(lower(value)) != std::string::npos;
    case Kind::Bad: return false;
  }
  return false;
}

std::string Filter::problem(const std::vector<std::string>& names, const char* what) const {
  const std::string range =
      names.empty() ? std::string("there is no ") + what
                    : std::string("the ") + what + "s are " + listed(names) + "; give an index " +
                          "from 0 to " + std::to_string(names.size() - 1) +
                          " or a case-insensitive part of a name";
  const std::string head = variable + "='" + value + "'";
  if (kind == Kind::Bad) return head + " is not a " + what + " index or name: " + range;
  if (kind == Kind::Index && index >= names.size()) {
    return head + " is out of range: " + range;
  }
  if (kind == Kind::Name) {
    for (size_t i = 0; i < names.size(); ++i) {
      if (takes(i, names[i])) return "";
    }
    return head + " matches no " + what + "'s name: " + range;
  }
  return "";
}

}  // namespace kf::opencl
