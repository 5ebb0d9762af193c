#include "core/logging.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>

#include <memory>
#include <optional>
#include <string>

#include "core/environment.hpp"
#include "kernforge/types.h"

namespace kf {
namespace {

spdlog::level::level_enum level_from_env() {
  const std::optional<std::string> text = env::log_level();
  if (!text || text->empty()) return spdlog::level::warn;
  const spdlog::level::level_enum level = spdlog::level::from_str(*text);
  // from_str answers "off" for unknown names; only accept "off" when it was asked for.
  if (level == spdlog::level::off && *text != "off") return spdlog::level::warn;
  return level;
}

std::shared_ptr<spdlog::logger> make_logger() {
  auto sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
  auto logger = std::make_shared<spdlog::logger>("kernforge", sink);
  logger->set_pattern("[kernforge %^%l%$] %v");
  logger->set_level(level_from_env());
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
