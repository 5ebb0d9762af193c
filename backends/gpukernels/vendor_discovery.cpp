// vendor_discovery.cpp — the end of a GPU backend's discovery (vendor_discovery.hpp).
#include "vendor_discovery.hpp"

#include <utility>

namespace kf::cuda {

void settle(Discovery& out, std::string problem) {
  if (problem.empty() && out.devices.empty()) {
    problem = "no device can run this build's kernels: ";
    for (size_t i = 0; i < out.skipped.size(); ++i) problem += (i ? "; " : "") + out.skipped[i];
  }
  if (!problem.empty()) {
    out.status = KF_UNAVAILABLE;
    out.error = std::move(problem);
  }
}

}  // namespace kf::cuda
