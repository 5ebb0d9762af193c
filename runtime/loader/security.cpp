#include "loader/security.hpp"

#include "core/environment.hpp"
#include "core/logging.hpp"

namespace kf {
namespace {

// " (reached through <path>)" when the real path differs from the one given.
std::string through(const std::string& path, const std::string& real) {
  return real.empty() || real == path ? "" : " (reached through " + path + ")";
}

// Whether the rule "nothing another user could replace" may be waived for this check, and how a
// file that fails it is described.
enum class Kind { PluginFile, OwnFile, OwnFolder };

// The verdict on what inspect_file or inspect_folder found.
TrustedFile decide(const os::FileFacts& f, const std::string& path, const std::string& what,
                   Kind kind) {
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
            (kind == Kind::OwnFolder  ? ", not a folder"
             : kind == Kind::OwnFile ? ", not a regular file"
                                     : ", not a regular file; kernforge opens only regular "
                                       "files. Remove it, or put the file itself in its place");
    return t;
  }
  if (f.insecure.empty()) return t;
  if (kind == Kind::PluginFile && env::insecure_plugins_allowed()) {
    log().warn("loading {} {} although {} (KERNFORGE_ALLOW_INSECURE_PLUGINS=1)", what, f.real,
               f.insecure);
    return t;
  }
  t.status = KF_PERMISSION_DENIED;
  t.why = what + " " + f.real + through(path, f.real) + " is not trusted: " + f.insecure;
  t.why += kind == Kind::PluginFile
               ? "; another user could replace what kernforge loads. Fix the permissions, or set "
                 "KERNFORGE_ALLOW_INSECURE_PLUGINS=1 to load it anyway"
               : "; another user could have written what kernforge would read";
  return t;
}

}  // namespace

TrustedFile trust_file(const std::string& path, const std::string& what) {
  return decide(os::inspect_file(path), path, what, Kind::PluginFile);
}

TrustedFile trust_own_file(const std::string& path, const std::string& what) {
  return decide(os::inspect_file(path), path, what, Kind::OwnFile);
}

TrustedFile trust_own_folder(const std::string& path, const std::string& what) {
  return decide(os::inspect_folder(path), path, what, Kind::OwnFolder);
}

}  // namespace kf
