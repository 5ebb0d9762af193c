// The CTS cases a backend does not support, each with its reason.
//
// Keyed by (backend name as kf_backend_info reports it, "Suite.Test", dtype name or "" for all
// dtypes). CtsTest::SetUp checks this table at the start of every test and skips a listed case
// with its reason. Add a row only for a real limitation of a device, never to hide a bug: a
// wrong result is a bug to report, not an unsupported case.
#pragma once

#include <cstring>

namespace cts {

struct UnsupportedCase {
  const char* backend;  // "cpu", "cuda", ...
  const char* test;     // "Suite.Test", e.g. "Linalg.MmLarge"
  const char* dtype;    // "float64", ... or "" for every dtype
  const char* reason;
};

inline constexpr UnsupportedCase kUnsupported[] = {
    // Example of the form (a backend that is not in this repository):
    {"example_npu", "Linalg.MmLarge", "float64", "the device has no float64 units"},
    // The asynchronous test device (tests/dispatch) claims int16 with a boxed fallback of its own
    // that serves neg and mul only, to test that path: other int16 ops there are
    // KF_UNIMPLEMENTED by design.
    {"testasync", "ReduceAny.HalfFloatsSmallIntsAndBool", "",
     "its own int16 fallback serves neg and mul only (a test device)"},
    {"testasync", "ReduceAny.IntegerSumsWrapInTheirDtype", "",
     "its own int16 fallback serves neg and mul only (a test device)"},
};

/** The reason the case is unsupported, or nullptr when it must run. */
inline const char* unsupported_reason(const char* backend, const char* test, const char* dtype) {
  for (const UnsupportedCase& c : kUnsupported) {
    if (std::strcmp(c.backend, backend) != 0 || std::strcmp(c.test, test) != 0) continue;
    if (c.dtype[0] == '\0' || std::strcmp(c.dtype, dtype) == 0) return c.reason;
  }
  return nullptr;
}

}  // namespace cts
