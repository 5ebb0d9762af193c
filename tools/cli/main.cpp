// main.cpp — the `kernforge` command: parses the command line (CLI11) and runs one subcommand.
// Everything it knows comes from the C ABI. Logging (KERNFORGE_LOG_LEVEL, stderr) is the
// library's; this program prints only its own output. Whatever the command, its exit code goes
// through finish_output() (output_check.hpp), which makes it non-zero when stdout lost anything.
#include <exception>
#include <iostream>

#include <CLI/CLI.hpp>

#include "bench_command.hpp"
#include "check_manifest_command.hpp"
#include "cli_error.hpp"
#include "doctor_command.hpp"
#include "info_command.hpp"
#include "ops_command.hpp"
#include "output_check.hpp"
#include "run_command.hpp"
#include "terminal_text.hpp"

namespace {

// Runs the subcommand and returns its exit code.
int run(CLI::App& app, int argc, char** argv) {
  using namespace kf::cli;
  InfoOptions info_options;
  DoctorOptions doctor_options;
  OpsOptions ops_options;
  BenchOptions bench_options;
  CheckManifestOptions check_manifest_options;
  RunOptions run_options;
  CLI::App* info = add_info_command(app, info_options);
  CLI::App* doctor = add_doctor_command(app, doctor_options);
  CLI::App* ops = add_ops_command(app, ops_options);
  CLI::App* bench = add_bench_command(app, bench_options);
  CLI::App* check_manifest = add_check_manifest_command(app, check_manifest_options);
  CLI::App* run_cmd = add_run_command(app, run_options);
  app.allow_extras();  // what follows `run ... --` lands in the app's extras (run_command.hpp)
  try {
    app.parse(argc, argv);
    if (!run_cmd->parsed() && !app.remaining().empty()) throw CLI::ExtrasError(app.remaining());
  } catch (const CLI::ParseError& e) {
    return app.exit(e);  // --help, --version, or a usage error
  }
  try {
    if (info->parsed()) return run_info(info_options);
    if (doctor->parsed()) return run_doctor(doctor_options);
    if (ops->parsed()) return run_ops(ops_options);
    if (bench->parsed()) return run_bench(bench_options);
    if (check_manifest->parsed()) return run_check_manifest(check_manifest_options);
    if (run_cmd->parsed()) return run_run(run_options, run_command_line(app, *run_cmd));
  } catch (const CliError& e) {
    std::cerr << "kernforge: " << e.what() << "\n";
    return e.exit_code();
  } catch (const std::exception& e) {
    std::cerr << "kernforge: internal error: " << kf::cli::terminal_safe(e.what()) << "\n";
    return kExitFailure;
  }
  std::cerr << app.help() << "\nkernforge: a command is required\n";
  return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  kf::cli::guard_closed_stdout();
  CLI::App app{"kernforge: a microkernel tensor runtime. Every command but run takes --json.", "kernforge"};
  app.set_version_flag("--version", std::string("kernforge ") + kf_version());
  app.require_subcommand(0, 1);
  // Every command ends here: Note [Output that cannot be written].
  return kf::cli::finish_output(run(app, argc, argv));
}
