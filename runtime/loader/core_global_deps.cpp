#include "loader/core_global_deps.hpp"

#include <filesystem>
#include <string>

#include "core/logging.hpp"
#include "loader/os.hpp"
#include "loader/report.hpp"
#include "loader/security.hpp"

namespace kf {
namespace {

#if defined(_WIN32)
constexpr const char* kGlobalDepsFile = "libkernforge_global_deps.dll";
constexpr const char* kLoadedHow = "loaded first; the DLLs it imports are shared by every plugin";
#else
constexpr const char* kGlobalDepsFile = "libkernforge_global_deps.so";
constexpr const char* kLoadedHow = "loaded RTLD_GLOBAL";
#endif

}  // namespace

void load_core_global_deps() {
  StepTimer t;
  const std::string core = os::core_library_path();
  const std::string path =
      (std::filesystem::path(core).parent_path() / kGlobalDepsFile).string();
  const TrustedFile file = trust_file(path, "the core's global dependencies library");
  if (!file.ok()) {
    log().warn("{}", file.why);
    report_step(ReportStep{"global_deps", "", path, "failed", file.why, t.micros()});
    return;
  }
  const os::OpenResult r = os::open_library(file.real, true);
  if (r.library == nullptr) {
    const std::string why = "cannot load " + path + ": " + r.error +
                            "; reinstall kernforge's core (the file ships with libkernforge)";
    log().warn("{}", why);
    report_step(ReportStep{"global_deps", "", path, "failed", why, t.micros()});
    return;
  }
  report_step(ReportStep{"global_deps", "", path, "ok", kLoadedHow, t.micros()});
}

}  // namespace kf
