#include "core/logging.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>

#include <memory>
#include <optional>
#include <string>

#include "core/environment.hpp"
#include "kernforge/types.h"

namespace kf {
namespace {

// The level KERNFORGE_LOG_LEVEL asks for; `bad` gets a value that names no level (the default,
// warn, is used then).
spdlog::level::level_enum level_from_env(std::string* bad = nullptr) {
  const std::optional<std::string> text = env::log_level();
  if (!text || text->empty()) return spdlog::level::warn;
  const spdlog::level::level_enum level = spdlog::level::from_str(*text);
  // from_str answers "off" for unknown names; only accept "off" when it was asked for.
  if (level == spdlog::level::off && *text != "off") {
    if (bad != nullptr) *bad = *text;
    return spdlog::level::warn;
  }
  return level;
}

std::shared_ptr<spdlog::logger> make_logger() {
  auto sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
  auto logger = std::make_shared<spdlog::logger>("kernforge", sink);
  logger->set_pattern("[kernforge %^%l%$] %v");
  std::string bad;
  logger->set_level(level_from_env(&bad));
  if (!bad.empty()) {  // said once, when the logger is made
    logger->warn("KERNFORGE_LOG_LEVEL='{}' is not a log level (trace, debug, info, warn, error, "
                 "critical, off); logging at warn", bad);
  }
  return logger;
}

}  // namespace

spdlog::logger& log() {
  static const std::shared_ptr<spdlog::logger> logger = make_logger();
  return *logger;
}

void set_log_level(int level) {
  if (level == KF_LOG_DEFAULT) {
    log().set_level(level_from_env());
  } else if (level >= KF_LOG_TRACE && level <= KF_LOG_OFF) {
    log().set_level(static_cast<spdlog::level::level_enum>(level));
  }
}

}  // namespace kf
