// ze_result.hpp — Level Zero results as names, kernforge statuses and errors.
//
// Every ze_result_t of the header has its name ("ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY") and a
// kf_status_t; a value the header does not know is named by its number and is KF_INTERNAL.
// Inside the backend a failed call throws ZeError (check()); the plugin's slots catch it and
// hand the host its status and message (slots.cpp), so no exception crosses the ABI.
//
// Thread safety: everything here is stateless.
#pragma once

#include <level_zero/ze_api.h>

#include <exception>
#include <string>

#include "kernforge/types.h"

namespace kf::xpu {

/// "ZE_RESULT_SUCCESS", ...; "ze_result_t 0x12345678" for a value the header lacks.
std::string ze_result_name(ze_result_t result);

/// The kernforge status of a failed call returning `result`: out of memory -> KF_OUT_OF_MEMORY;
/// no driver, device lost or unsupported -> KF_UNAVAILABLE; a module that does not build ->
/// KF_INTERNAL; not ready -> KF_FAILED_PRECONDITION; the validation errors (bad handles,
/// arguments, sizes: the backend's own mistakes) and anything unknown -> KF_INTERNAL.
kf_status_t ze_result_status(ze_result_t result) noexcept;

/// A plain-words reason for the results a user can act on ("no Level Zero driver is installed:
/// ..."); "" for the others.
const char* ze_result_hint(ze_result_t result) noexcept;

/// A failure inside the backend: a kernforge status and the message the host gets.
class ZeError : public std::exception {
 public:
  ZeError(kf_status_t status, std::string message)
      : status_(status), message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }
  kf_status_t status() const noexcept { return status_; }

 private:
  kf_status_t status_;
  std::string message_;
};

/// "<call> failed: <name>" and, when there is one, " (<hint>)".
std::string ze_failure(const char* call, ze_result_t result);

/// Throws ZeError(ze_result_status(result), "<context>: <call> failed: <name> ...") unless
/// `result` is ZE_RESULT_SUCCESS. `context` says what was being done ("allocating 4096 bytes on
/// xpu:0"); it may be empty.
void check(ze_result_t result, const char* call, const std::string& context);

}  // namespace kf::xpu
