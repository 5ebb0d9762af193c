#include "loader/security.hpp"

#include <filesystem>

#include "core/environment.hpp"
#include "loader/os.hpp"

namespace kf {

std::string untrusted_files(const std::vector<std::string>& files) {
  if (env::insecure_plugins_allowed()) return "";
  for (const std::string& f : files) {
    const std::string folder = std::filesystem::path(f).parent_path().string();
    for (const std::string& p : {f, folder}) {
      std::string why = os::insecure_reason(p);
      if (!why.empty()) {
        return why + "; another user could replace what kernforge loads. Fix the permissions, "
                     "or set KERNFORGE_ALLOW_INSECURE_PLUGINS=1 to load it anyway";
      }
    }
  }
  return "";
}

}  // namespace kf
