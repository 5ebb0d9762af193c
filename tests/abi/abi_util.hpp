// Bad input at the C ABI: helpers. Every case asserts the exact status and that
// kf_last_error_message() names the problem.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <random>
#include <string>
#include <system_error>
#include <vector>

#include "kernforge/kernforge.h"

namespace kfabi {

using Shape = std::vector<int64_t>;

inline std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
inline std::string strip_spaces(const std::string& s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  return out;
}
inline bool contains_ci(const std::string& hay, const std::string& needle) {
  return lower(hay).find(lower(needle)) != std::string::npos;
}
/** The message shows `s` as [2, 3], (2, 3), {2, 3} or 2x3 (spacing ignored). */
inline bool names_shape(const std::string& msg, const Shape& s) {
  std::string inner, x;
  for (size_t i = 0; i < s.size(); ++i) {
    inner += (i ? "," : "") + std::to_string(s[i]);
    x += (i ? "x" : "") + std::to_string(s[i]);
  }
  const std::string m = strip_spaces(msg);
  for (const std::string& form : {"[" + inner + "]", "(" + inner + ")", "{" + inner + "}"})
    if (m.find(form) != std::string::npos) return true;
  return s.size() > 1 && m.find(x) != std::string::npos;
}

struct Words {
  std::vector<std::string> all;      // each must appear (case-insensitive)
  std::vector<Shape> shapes;         // each must appear as a shape
  std::vector<std::string> any = {}; // at least one must appear, when not empty
};

/**
 * `got` is one of `allowed`, and the thread's last error message (read right away) names
 * every word and shape of `w`.
 */
inline ::testing::AssertionResult fails_with(kf_status_t got,
                                             std::initializer_list<kf_status_t> allowed,
                                             const Words& w) {
  const std::string msg = kf_last_error_message();
  std::string want_status;
  bool ok = false;
  for (kf_status_t a : allowed) {
    ok = ok || got == a;
    want_status += (want_status.empty() ? "" : " or ") + std::string(kf_status_name(a));
  }
  if (!ok)
    return ::testing::AssertionFailure() << "status " << kf_status_name(got) << ", expected "
                                         << want_status << " (message: \"" << msg << "\")";
  if (got == KF_OK) return ::testing::AssertionSuccess();
  if (msg.empty()) return ::testing::AssertionFailure() << "empty kf_last_error_message()";
  std::string missing;
  for (const std::string& word : w.all)
    if (!contains_ci(msg, word)) missing += " '" + word + "'";
  for (const Shape& s : w.shapes)
    if (!names_shape(msg, s)) {
      missing += " shape [";
      for (size_t i = 0; i < s.size(); ++i) missing += (i ? "," : "") + std::to_string(s[i]);
      missing += "]";
    }
  if (!w.any.empty() && std::none_of(w.any.begin(), w.any.end(), [&](const std::string& a) {
        return contains_ci(msg, a);
      })) {
    missing += " one of {";
    for (const std::string& a : w.any) missing += " '" + a + "'";
    missing += " }";
  }
  if (!missing.empty())
    return ::testing::AssertionFailure() << kf_status_name(got) << " is right, but the message \""
                                         << msg << "\" does not name:" << missing;
  return ::testing::AssertionSuccess();
}
inline ::testing::AssertionResult fails_with(kf_status_t got, kf_status_t want, const Words& w) {
  return fails_with(got, {want}, w);
}

/** An owning handle. */
class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(kf_tensor_t t) : t_(t) {}
  ~Tensor() { reset(); }
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;
  Tensor(Tensor&& o) noexcept : t_(o.t_) { o.t_ = nullptr; }
  Tensor& operator=(Tensor&& o) noexcept {
    if (this != &o) { reset(); t_ = o.t_; o.t_ = nullptr; }
    return *this;
  }
  kf_tensor_t get() const { return t_; }
  kf_tensor_t* put() { reset(); return &t_; }
  void reset() {
    if (t_) kf_tensor_release(t_);
    t_ = nullptr;
  }
  kf_tensor_t release() { kf_tensor_t t = t_; t_ = nullptr; return t; }
  explicit operator bool() const { return t_ != nullptr; }

 private:
  kf_tensor_t t_ = nullptr;
};

/** A CPU tensor of `shape` filled with `value` (fails the test on error). */
inline Tensor full(const Shape& shape, double value, kf_dtype_t dtype = KF_FLOAT32) {
  Tensor t;
  const kf_status_t s = kf_full(shape.empty() ? nullptr : shape.data(),
                                static_cast<int32_t>(shape.size()), kf_scalar_f64(value), dtype,
                                kf_device_cpu(), t.put());
  if (s != KF_OK)
    ADD_FAILURE() << "kf_full -> " << kf_status_name(s) << ": " << kf_last_error_message();
  return t;
}

inline kf_value_t vtensor(kf_tensor_t t) { return kf_value_tensor(t); }
inline kf_value_t vint(int64_t i) { return kf_value_int(i); }

/// A new, empty folder under the system's temporary folder, named `prefix` and a random number;
/// "" when none could be made. The caller removes it (std::filesystem::remove_all).
inline std::string make_temp_dir(const std::string& prefix) {
  namespace fs = std::filesystem;
  std::random_device random;
  std::error_code ec;
  const fs::path base = fs::temp_directory_path(ec);
  if (ec) return "";
  for (int attempt = 0; attempt < 100; ++attempt) {
    const fs::path p = base / (prefix + std::to_string(random()));
    if (fs::create_directory(p, ec)) return p.string();
  }
  return "";
}

}  // namespace kfabi
