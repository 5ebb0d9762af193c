#include "loader/security.hpp"

#include "core/environment.hpp"
#include "core/logging.hpp"

namespace kf {
namespace {

// " (reached through <path>)" when the real path differs from the one given.
std::string through(const std::string& path, const std::string& real) {
  return real.empty() || real == path ? "" : " (reached through " + path + ")";
}

}  // namespace

TrustedFile trust_file(const std::string& path, const std::string& what) {
  const os::FileFacts f = os::inspect_file(path);
  TrustedFile t;
  t.real = f.real;
  t.identity = f.identity;
  if (f.real.empty()) {
    t.status = KF_NOT_FOUND;
    t.why = what + " " + path + " does not exist: " + f.missing;
    return t;
  }
  if (!f.not_regular.empty()) {
    t.status = KF_INVALID_ARGUMENT;
    t.why = what + " " + f.real + through(path, f.real) + " is " + f.not_regular +
            ", not a regular file; kernforge opens only regular files. Remove it, or put the "
            "file itself in its place";
    return t;
  }
  if (f.insecure.empty()) return t;
  if (env::insecure_plugins_allowed()) {
    log().warn("loading {} {} although {} (KERNFORGE_ALLOW_INSECURE_PLUGINS=1)", what, f.real,
               f.insecure);
    return t;
  }
  t.status = KF_PERMISSION_DENIED;
  t.why = what + " " + f.real + through(path, f.real) + " is not trusted: " + f.insecure +
          "; another user could replace what kernforge loads. Fix the permissions, or set "
          "KERNFORGE_ALLOW_INSECURE_PLUGINS=1 to load it anyway";
  return t;
}

}  // namespace kf
