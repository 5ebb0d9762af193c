// Calls into a plugin that return a kf_status_t: what the core makes of the status and message a
// plugin gives back. Every such call site (kernels, boxed fallbacks, meta functions, the device
// slots of device/backend.cpp, init and register_kernels) constructs a PluginCall right before
// the call and hands it the status when that is not KF_OK. Thread safety: all thread-local.
//
// Note [Plugin statuses and messages]
// A plugin reports a failure with a status and, through host->set_error(), a message in this
// thread's last-error slot. Two things go wrong when the core trusts that blindly:
//  - a plugin that fails without calling set_error leaves the slot as it was, holding the
//    message of an earlier, unrelated failure, which the caller then reads as this one's;
//  - a plugin may return a number that kf_status_t does not define (a newer plugin, a bug, an
//    uninitialised variable), which the C ABI would pass on to callers that switch on it.
// So this thread counts the messages set (ErrorSerial, bumped by set_last_error). PluginCall
// takes the count before the call: one thread-local read (initial-exec TLS), no lock and no
// allocation, so the kernel path stays as fast. Only when the call failed does PluginCall look
// again: an unchanged count means the plugin set no message, and the core writes one naming the
// call (the op and backend, the slot) and the status. known_status() is the one conversion of a
// plugin's raw status: an undefined one becomes KF_INTERNAL, its number kept in the message.
#pragma once

#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "core/tls_model.hpp"
#include "kernforge/types.h"


namespace kf {

/// How many error messages this thread has set (set_last_error counts them); see Note [Plugin
/// statuses and messages].
struct ErrorSerial {
  static inline thread_local uint32_t value KF_TLS_INITIAL_EXEC = 0;
};

/// `raw` when kf_status_t defines it, else KF_INTERNAL.
kf_status_t known_status(int32_t raw) noexcept;

/// What a failed plugin call amounts to: the status the core reports and the text describing it.
struct PluginFailure {
  kf_status_t status;
  std::string message;  // "KF_X: the plugin's message" or one the core made up
};

/// One call into a plugin slot: construct it right before the call.
class PluginCall {
 public:
  PluginCall() noexcept : mark_(ErrorSerial::value) {}

  /// Whether a message was set on this thread since construction (the plugin's set_error).
  bool message_set() const noexcept { return ErrorSerial::value != mark_; }
  /// The status (known_status of `raw`) and a message naming it, with the plugin's own message
  /// when it set one during the call. `raw` is not KF_OK.
  PluginFailure failure(int32_t raw) const;
  /// Throws kf::Error: "<what> failed (<status>): <message>" (see failure()).
  [[noreturn]] KF_COLD void fail(int32_t raw, const std::string& what) const;

 private:
  uint32_t mark_;
};

}  // namespace kf
