// doctor_verdict.hpp — what `kernforge doctor` concludes from the load report, and its exit
// codes, defined here and nowhere else:
//   0 all well: at least one backend loaded, nothing rejected. Backends that are unavailable
//     (their hardware, driver or dependency is missing), shadowed or disabled are normal.
//   1 degraded: a backend loaded, but a plugin was rejected (broken file, ABI mismatch,
//     insecure, bad manifest...), the core's global dependencies failed to load, or a device
//     type is served by another plugin than the one shipped with kernforge without
//     KERNFORGE_PREFER_PLUGINS naming it (a replacement the user chose is a warning only).
//   2 no usable backend: nothing loaded at all, or the runtime did not start (no report).
#pragma once

#include <string>

#include "load_report.hpp"

namespace kf::cli {

enum DoctorExit : int { kDoctorAllWell = 0, kDoctorDegraded = 1, kDoctorNoBackend = 2 };

struct DoctorVerdict {
  DoctorExit exit_code = kDoctorAllWell;
  std::string line;  // "kernforge doctor: all well (...)", "kernforge doctor: degraded: ..."
};

DoctorVerdict doctor_verdict(const LoadReport& report);

}  // namespace kf::cli
