// An engine choice: which collective plugin serves which device type, as c10d spells it:
// "cpu:gloo", "cpu:gloo,cuda:nccl", or a bare plugin name ("gloo") for the device type its
// plugin names. Thread safety: no state.
#pragma once

#include <string>
#include <vector>

namespace kf {

struct EngineChoice {
  std::string device_type;  // "" for a bare plugin name: the plugin's own
  std::string plugin;       // "gloo"
};

/// Parses `text`; throws KF_INVALID_ARGUMENT naming the text and the part that is wrong (an
/// empty part, a device type named twice, a character outside letters, digits, '_' and '-').
std::vector<EngineChoice> parse_engine_choice(const std::string& text);

}  // namespace kf
