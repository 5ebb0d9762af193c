// Start-up step 1 (docs/loader.md): libkernforge_global_deps, shipped next to the core, is
// opened with RTLD_NOW | RTLD_GLOBAL before any plugin, so the libraries in its DT_NEEDED list
// (the OpenMP runtime) are loaded once for the whole process. Its absence is reported (kernforge
// doctor calls that degraded); plugins still load.
#pragma once

namespace kf {

void load_core_global_deps();

}  // namespace kf
