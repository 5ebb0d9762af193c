// guarded.hpp — the one place where what the xpu backend throws becomes a status at the ABI.
//
// guarded(what, body) runs body(); a ZeError becomes its status and message, std::bad_alloc
// KF_OUT_OF_MEMORY (reported without allocating), anything else KF_INTERNAL; the host's error
// message is set (kf::plugin::set_error) in every case. Thread safety: stateless.
#pragma once

#include <exception>
#include <new>

#include "kernforge/plugin.hpp"
#include "ze_result.hpp"

namespace kf::xpu {

template <class F>
kf_status_t guarded(const char* what, F&& body) noexcept {
  try {
    body();
    return KF_OK;
  } catch (const ZeError& e) {
    kf::plugin::set_error(e.what());
    return e.status();
  } catch (const std::bad_alloc&) {
    kf::plugin::set_error_noalloc("xpu", "out of host memory in ", what);
    return KF_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    kf::plugin::set_error_noalloc("xpu", "internal error: ", e.what());
    return KF_INTERNAL;
  } catch (...) {
    kf::plugin::set_error_noalloc("xpu", "unknown exception in ", what);
    return KF_INTERNAL;
  }
}

}  // namespace kf::xpu
