#include "loader/selection.hpp"

#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "core/environment.hpp"
#include "loader/discovery.hpp"
#include "loader/os.hpp"

namespace kf {
namespace {

namespace fs = std::filesystem;

// The real folder of `path` ("" when the file does not exist).
std::string real_folder(const std::string& path) {
  const std::string real = os::real_path(path);
  return real.empty() ? "" : fs::u8path(real).parent_path().u8string();
}

}  // namespace

void classify_for_selection(PluginRecord& r) {
  const std::optional<std::string> preferred = env::preferred_plugin(r.device_type_name);
  r.preferred = preferred && *preferred == r.name;
  const std::string core = os::real_path(core_plugin_folder());
  r.shipped = !core.empty() && real_folder(r.library_path) == core &&
              (r.manifest_path.empty() || real_folder(r.manifest_path) == core);
}

bool serves_before(const PluginRecord* a, const PluginRecord* b) {
  if (a->preferred != b->preferred) return a->preferred;
  if (a->shipped != b->shipped) return a->shipped;
  if (a->score != b->score) return a->score > b->score;
  return a->priority > b->priority;
}

std::string shadow_reason(const PluginRecord& r, const PluginRecord& winner) {
  std::string why = fmt::format(
      "{} is shadowed by plugin '{}' ({}) for device type {} (score {} vs {}, priority {} vs {})",
      r.library_path, winner.name, winner.library_path, r.device_type_name, winner.score, r.score,
      winner.priority, r.priority);
  if (winner.preferred) {
    return why + "; KERNFORGE_PREFER_PLUGINS chose '" + winner.name + "'";
  }
  if (winner.shipped && !r.shipped) {
    why += fmt::format("; '{}' is shipped with kernforge, and a plugin from elsewhere replaces it "
                       "only by the user's choice: set KERNFORGE_PREFER_PLUGINS={}={} to use "
                       "this one", winner.name, r.device_type_name, r.name);
  }
  return why;
}

}  // namespace kf
