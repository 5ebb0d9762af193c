// The sweep through the load report (kf_runtime_report_json) after start-up: a JSON document
// built and printed on each call. It must fail cleanly like everything else: nlohmann::json's
// destructor allocates, so a document must be emptied before it is destroyed
// (runtime/loader/include/loader/json_document.hpp).
#include <gtest/gtest.h>

#include "phase_util.hpp"
#include "sweep.hpp"

namespace oomtest {
namespace {

char g_report[1 << 16];

kf_status_t report() { return kf_runtime_report_json(g_report, sizeof(g_report), nullptr); }

TEST(Report, EveryAllocationOnce) {
  g_runtime_started_here = true;
  map_cpu_plugin_libraries();
  ASSERT_EQ(kf_init(nullptr), KF_OK) << kf_last_error_message();
  for (Mode mode : {Mode::Once, Mode::FromThenOn}) {
    Phase p;
    p.name = mode == Mode::Once ? "kf_runtime_report_json" : "kf_runtime_report_json, from N on";
    p.mode = mode;
    p.action = report;
    p.verify = [](const Attempt& a) -> std::string {
      if (a.status != KF_OK) {
        if (std::string p = ok_or(report(), "kf_runtime_report_json again"); !p.empty()) return p;
      }
      return g_report[0] == '{' ? "" : "the report is not a JSON object";
    };
    expect_clean(sweep(p));
  }
}

}  // namespace
}  // namespace oomtest
