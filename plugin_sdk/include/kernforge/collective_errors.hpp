// kernforge/collective_errors.hpp — header-only C++ helpers for collective plugin authors, over
// collective.h: how a slot turns what it throws into a status and the engine's text, so that no
// exception crosses the ABI.
//
//   kf_status_t comm_init(const kf_comm_init_t* in, void** comm) {
//     return kf::collective::guarded(in->error, in->error_cap, [&] { *comm = join(*in); });
//   }
//
// A slot throws kf::collective::PluginError with the status it means (a dtype the engine cannot
// reduce: KF_INVALID_ARGUMENT); std::bad_alloc becomes KF_OUT_OF_MEMORY; any other exception is
// handed to the plugin's own classifier (its engine's exception types: gloo's I/O errors are
// KF_UNAVAILABLE, its timeouts KF_TIMEOUT), and without one it is KF_INTERNAL with its what().
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>

#include "kernforge/types.h"

namespace kf::collective {

/// An error of the plugin's own, with the status it means.
struct PluginError : std::runtime_error {
  PluginError(kf_status_t s, const std::string& text) : std::runtime_error(text), status(s) {}
  kf_status_t status;
};

/// Writes `text` into the host's buffer (truncated, NUL-terminated); nothing when there is none.
inline void write_error(char* error, size_t cap, const std::string& text) noexcept {
  if (error == nullptr || cap == 0) return;
  const size_t n = std::min(cap - 1, text.size());
  std::memcpy(error, text.data(), n);
  error[n] = '\0';
}

/// The status of an exception no rule above names: KF_INTERNAL.
inline kf_status_t internal_status(const std::exception&) noexcept { return KF_INTERNAL; }

/// The status of the exception being handled, its text written to `error`; `classify` maps the
/// std::exceptions that are neither a PluginError nor std::bad_alloc (the engine's own).
template <class Classify>
kf_status_t current_status(char* error, size_t cap, Classify&& classify) noexcept {
  try {
    throw;
  } catch (const PluginError& e) {
    write_error(error, cap, e.what());
    return e.status;
  } catch (const std::bad_alloc&) {
    write_error(error, cap, "out of host memory");
    return KF_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    write_error(error, cap, e.what());
    return classify(e);
  } catch (...) {
    write_error(error, cap, "an unknown exception");
    return KF_INTERNAL;
  }
}

/// Runs `fn`: KF_OK, or what it threw as a status (current_status) and text.
template <class F, class Classify = kf_status_t (*)(const std::exception&) noexcept>
kf_status_t guarded(char* error, size_t cap, F&& fn,
                    Classify&& classify = &internal_status) noexcept {
  try {
    fn();
    return KF_OK;
  } catch (...) {
    return current_status(error, cap, classify);
  }
}

}  // namespace kf::collective
