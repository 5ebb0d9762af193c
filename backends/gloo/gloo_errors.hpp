// How the gloo plugin turns what gloo throws into a status and the engine's text
// (kernforge/collective.h): gloo's timeouts ("Timed out waiting ...", "Wait timeout for
// key(s)", "Connect timeout") are KF_TIMEOUT, its other I/O errors (a peer gone) KF_UNAVAILABLE,
// anything else KF_INTERNAL; a PluginError carries its own status.
#pragma once

#include <cstddef>
#include <exception>
#include <utility>

#include "kernforge/collective_errors.hpp"
#include "kernforge/types.h"

namespace kfgloo {

using kf::collective::PluginError;  // an error of the plugin's own (a dtype, a rendezvous)
using kf::collective::write_error;

/// The status of one of gloo's exceptions (and any other std::exception): a timeout's text
/// KF_TIMEOUT, gloo's other I/O errors KF_UNAVAILABLE, anything else KF_INTERNAL.
kf_status_t gloo_status(const std::exception& e) noexcept;

/// Runs `fn`; KF_OK, or what it threw as a status and text (kernforge/collective_errors.hpp).
template <class F>
kf_status_t guarded(char* error, size_t cap, F&& fn) noexcept {
  return kf::collective::guarded(error, cap, std::forward<F>(fn), &gloo_status);
}

}  // namespace kfgloo
