// How the gloo plugin turns what gloo throws into a status and the engine's text
// (kernforge/collective.h): gloo's timeouts ("Timed out waiting ...", "Wait timeout for
// key(s)", "Connect timeout") are KF_TIMEOUT, its other I/O errors (a peer gone) KF_UNAVAILABLE,
// anything else KF_INTERNAL; a PluginError carries its own status.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include "kernforge/types.h"

namespace kfgloo {

/// An error of the plugin's own (a dtype or rendezvous gloo does not take).
struct PluginError : std::runtime_error {
  PluginError(kf_status_t s, const std::string& text) : std::runtime_error(text), status(s) {}
  kf_status_t status;
};

/// Writes `text` into the caller's buffer (truncated, NUL-terminated).
void write_error(char* error, size_t cap, const std::string& text) noexcept;
/// The status of the exception being handled, its text written to `error`.
kf_status_t current_status(char* error, size_t cap) noexcept;

/// Runs `fn`; KF_OK, or what it threw as a status and text.
template <class F>
kf_status_t guarded(char* error, size_t cap, F&& fn) noexcept {
  try {
    fn();
    return KF_OK;
  } catch (...) {
    return current_status(error, cap);
  }
}

}  // namespace kfgloo
