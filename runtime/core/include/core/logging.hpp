// The core's logger (spdlog, to stderr). Level from KERNFORGE_LOG_LEVEL (trace, debug, info,
// warn, error, off; default warn) or kf_init_options_t.log_level. The libraries print nothing
// except through it.
#pragma once

#include <spdlog/spdlog.h>

namespace kf {

/// The "kernforge" logger; created on first use, thread-safe.
spdlog::logger& log();

/// Sets the level (a kf_log_level_t value); KF_LOG_DEFAULT re-reads KERNFORGE_LOG_LEVEL.
void set_log_level(int level);

}  // namespace kf
