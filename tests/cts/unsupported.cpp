#include "unsupported.hpp"

#include <cctype>
#include <cstring>
#include <initializer_list>

#include <nlohmann/json.hpp>

#include "kernforge/types.h"
#include "regular_file.hpp"

namespace cts {
namespace {

using nlohmann::json;

#if defined(_WIN32)
constexpr char kPathSeparator = ';';
#else
constexpr char kPathSeparator = ':';
#endif

[[noreturn]] void bad(const std::string& path, const std::string& what) {
  throw UnsupportedFileError(path + ": " + what);
}

std::string dtype_names() {
  std::string out;
  for (int32_t d = 0; d < KF_DTYPE_COUNT; ++d) {
    out += (d > 0 ? ", " : "") + std::string(kf_dtype_string(d));
  }
  return out;
}

bool is_dtype_name(const std::string& name) {
  for (int32_t d = 0; d < KF_DTYPE_COUNT; ++d) {
    if (name == kf_dtype_string(d)) return true;
  }
  return false;
}

bool is_identifier(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

// "Suite.Test": two identifiers around one dot (gtest's names, without "Cts/" or "/<param>"),
// or "*": every case (of the row's dtype, when it names one).
bool is_test_key(const std::string& s) {
  if (s == "*") return true;
  const size_t dot = s.find('.');
  return dot != std::string::npos && is_identifier(s.substr(0, dot)) &&
         is_identifier(s.substr(dot + 1));
}

// The string member `key` of `object`; "" when absent and optional.
std::string string_member(const std::string& path, const std::string& where, const json& object,
                          const char* key, bool required) {
  const auto it = object.find(key);
  if (it == object.end()) {
    if (required) bad(path, where + " has no \"" + key + "\"");
    return "";
  }
  if (!it->is_string()) bad(path, where + ": \"" + key + "\" must be a string, not " + it->dump());
  const std::string value = it->get<std::string>();
  if (required && value.empty()) bad(path, where + ": \"" + key + "\" is empty");
  return value;
}

void only_keys(const std::string& path, const std::string& where, const json& object,
               std::initializer_list<const char*> allowed, const char* allowed_text) {
  for (const auto& item : object.items()) {
    bool known = false;
    for (const char* k : allowed) known = known || item.key() == k;
    if (!known) {
      bad(path, where + " has the unknown key \"" + item.key() + "\" (the keys are " +
                    allowed_text + ")");
    }
  }
}

UnsupportedRow parse_row(const std::string& path, const json& row, size_t index) {
  std::string where = "unsupported[" + std::to_string(index) + "]";
  if (!row.is_object()) bad(path, where + " must be an object, not " + row.dump());
  if (row.contains("test") && row["test"].is_string()) {
    where += " (\"" + row["test"].get<std::string>() + "\")";
  }
  only_keys(path, where, row, {"test", "dtype", "reason"}, "test, dtype, reason");
  UnsupportedRow r;
  r.test = string_member(path, where, row, "test", true);
  r.dtype = string_member(path, where, row, "dtype", false);
  r.reason = string_member(path, where, row, "reason", true);
  if (!is_test_key(r.test)) {
    bad(path, where + ": \"test\" must be \"Suite.Test\" (e.g. \"Linalg.MmLarge\"), without "
                      "the \"Cts/\" prefix or the \"/<backend>_<dtype>\" parameter, or \"*\" "
                      "for every case");
  }
  if (!r.dtype.empty() && !is_dtype_name(r.dtype)) {
    bad(path, where + ": \"dtype\" \"" + r.dtype + "\" is not a dtype (" + dtype_names() +
                      ", or \"\" for every dtype)");
  }
  return r;
}

}  // namespace

UnsupportedFile parse_unsupported(const std::string& path, const std::string& text) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {
    bad(path, std::string("not valid JSON: ") + e.what());
  }
  if (!doc.is_object()) {
    bad(path, "the file must hold one object, {\"backend\": ..., \"unsupported\": [...]}");
  }
  only_keys(path, "the file", doc, {"backend", "unsupported"}, "backend, unsupported");
  UnsupportedFile file;
  file.path = path;
  file.backend = string_member(path, "the file", doc, "backend", true);
  const auto rows = doc.find("unsupported");
  if (rows == doc.end()) bad(path, "the file has no \"unsupported\" (a list of rows)");
  if (!rows->is_array()) bad(path, "\"unsupported\" must be a list of rows, not " + rows->dump());
  for (size_t i = 0; i < rows->size(); ++i) file.rows.push_back(parse_row(path, (*rows)[i], i));
  return file;
}

UnsupportedFile read_unsupported(const std::string& path) {
  std::string text;
  try {
    text = read_regular_file(path);
  } catch (const std::runtime_error& e) {
    throw UnsupportedFileError(std::string(e.what()) +
                               "; KERNFORGE_CTS_UNSUPPORTED names regular JSON files, separated "
                               "by '" + kPathSeparator + "'");
  }
  return parse_unsupported(path, text);
}

std::vector<std::string> split_path_list(const std::string& value) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= value.size()) {
    size_t end = value.find(kPathSeparator, start);
    if (end == std::string::npos) end = value.size();
    if (end > start) out.push_back(value.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

UnsupportedMatch UnsupportedTable::find(const std::string& backend, const std::string& test,
                                        const std::string& dtype) const {
  for (const UnsupportedFile& f : files_) {
    if (f.backend != backend) continue;
    for (const UnsupportedRow& r : f.rows) {
      if ((r.test == "*" || r.test == test) && (r.dtype.empty() || r.dtype == dtype)) {
        return {&f, &r};
      }
    }
  }
  return {};
}

std::string case_key(const std::string& suite, const std::string& name) {
  const size_t slash = suite.rfind('/');
  const std::string s = slash == std::string::npos ? suite : suite.substr(slash + 1);
  return s + "." + name.substr(0, name.find('/'));
}

UnsupportedTable& unsupported_table() {
  static UnsupportedTable table;
  return table;
}

}  // namespace cts
