// check_manifest_command.hpp — `kernforge check-manifest FILE...`: each plugin manifest read by
// the loader's own parser and rules (kf_plugin_manifest_check), without starting the runtime.
// The SDK's kernforge_add_plugin runs it on every manifest it writes, as a build step.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace kf::cli {

struct CheckManifestOptions {
  bool json = false;
  std::vector<std::string> files;
};

/// Adds the `check-manifest` subcommand to `app`; its options land in `options`.
CLI::App* add_check_manifest_command(CLI::App& app, CheckManifestOptions& options);
/// Checks every file; exit 0 when the loader would take them all, 2 when one is refused.
int run_check_manifest(const CheckManifestOptions& options);

}  // namespace kf::cli
