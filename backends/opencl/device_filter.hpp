// device_filter.hpp — KERNFORGE_OPENCL_PLATFORM and KERNFORGE_OPENCL_DEVICE (discovery.hpp):
// unset or empty takes everything; a value of digits is an index (platforms in the ICD loader's
// order; devices counted over the platforms taken); any other value is a case-insensitive part
// of a name. A value that looks like a number but is not an index ("-1", "+1", "1.5", "0x1"), an
// index past the last one, or a name that matches nothing is not a choice: discovery then makes
// the backend unavailable with a reason naming the variable, the value and the valid choices.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace kf::opencl {

struct Filter {
  enum class Kind { All, Index, Name, Bad };
  std::string variable;
  std::string value;
  Kind kind = Kind::All;
  size_t index = 0;

  /// Whether item `i` called `name` is taken.
  bool takes(size_t i, const std::string& name) const;
  /// "" when the filter chose something among `names` (every item, by index), else why not,
  /// naming the variable, the value and the valid range; `what` is "platform" or "device".
  std::string problem(const std::vector<std::string>& names, const char* what) const;
};

/// The filter `variable` holds now.
Filter read_filter(const char* variable);

}  // namespace kf::opencl
