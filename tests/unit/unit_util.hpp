// Helpers of the unit tests: TensorImpl values built on the stack (metadata only, no storage),
// and a way to catch kf::Error with its status and message.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <initializer_list>
#include <random>
#include <string>
#include <system_error>
#include <vector>

#include "core/error.hpp"
#include "tensor/tensor_impl.hpp"

namespace kfunit {

using Shape = std::vector<int64_t>;

/// Metadata of a tensor: shape, strides (contiguous when empty), dtype. No storage.
inline void set_meta(kf::TensorImpl& t, const Shape& shape, const Shape& strides = {},
                     kf_dtype_t dtype = KF_FLOAT32) {
  t.ndim = static_cast<int32_t>(shape.size());
  t.dtype = dtype;
  t.numel = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    t.shape[i] = shape[i];
    t.numel *= shape[i];
  }
  if (strides.empty()) {
    kf::contiguous_strides(t.shape, t.ndim, t.strides);
  } else {
    for (size_t i = 0; i < strides.size(); ++i) t.strides[i] = strides[i];
  }
}

inline Shape shape_of(const int64_t* p, int32_t n) { return Shape(p, p + n); }

/// The kf::Error thrown by `fn` (status KF_OK and "" when nothing was thrown).
template <class F>
kf::Error thrown_by(F&& fn) {
  try {
    fn();
  } catch (const kf::Error& e) {
    return e;
  }
  return kf::Error(KF_OK, "");
}

/// The message contains every part.
inline ::testing::AssertionResult mentions(const std::string& msg,
                                           std::initializer_list<std::string> parts) {
  for (const std::string& p : parts) {
    if (msg.find(p) == std::string::npos) {
      return ::testing::AssertionFailure() << "message '" << msg << "' lacks '" << p << "'";
    }
  }
  return ::testing::AssertionSuccess();
}

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

}  // namespace kfunit
