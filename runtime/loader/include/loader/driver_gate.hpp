// The availability gate (docs/loader.md, "The driver gate"): whether what a plugin's device needs
// to exist is on this machine, the manifest's "requires": {"driver": ...}, checked at step 4 with
// the loader's own search rules and without opening or mapping anything, so that a plugin whose
// driver is missing costs nothing. Thread safety: no state.
#pragma once

#include <string>

#include "loader/manifest.hpp"

namespace kf {

struct GateResult {
  bool met = true;
  std::string found;   // met: what was found and where ("" when the manifest has no gate)
  std::string reason;  // not met: what was looked for, where, and what to install
};

/// Met when the manifest has no gate or when any of its probes holds: a library found in the
/// plugin's search roots (search_roots.hpp) or by the system search (os::find_system_library), a
/// path that exists (a file, a device node, a folder), a folder holding an entry whose name ends
/// with the probe's suffix. A path naming an unset variable is left out and said so.
GateResult check_driver_gate(const Manifest& m);

}  // namespace kf
