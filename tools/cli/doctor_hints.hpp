// doctor_hints.hpp — the one-line "what to do" that `kernforge doctor` prints under every
// backend that did not load, chosen from its state, status and reason.
#pragma once

#include <string>

#include "load_report.hpp"

namespace kf::cli {

/// What to do about backend `b` ("" when it is loaded). `report` supplies the versions.
std::string doctor_hint(const ReportBackend& b, const LoadReport& report);
/// What to do about a failed "global_deps" step.
std::string global_deps_hint(const ReportStep& step);

}  // namespace kf::cli
