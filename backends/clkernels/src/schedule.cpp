#include "schedule.hpp"

#include <cstdlib>
#include <cstring>

namespace kf::clk {

bool items_run_in_sequence(const Capabilities& caps) {
  static const int forced = [] {
    const char* e = std::getenv("KERNFORGE_CLKERNELS_SCHEDULE");
    if (e == nullptr) return -1;
    if (std::strcmp(e, "gpu") == 0) return 0;
    if (std::strcmp(e, "cpu") == 0) return 1;
    return -1;
  }();
  return forced >= 0 ? forced == 1 : caps.items_in_sequence;
}

}  // namespace kf::clk
