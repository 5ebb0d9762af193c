#include "bench_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "abi_names.hpp"
#include "bench_calls.hpp"
#include "bench_workloads.hpp"
#include "cli_error.hpp"
#include "text_table.hpp"

namespace kf::cli {
namespace {

using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

struct Target {
  std::string backend;
  kf_device_t device;
};

struct Result {
  std::string backend, workload, unit;
  double seconds = 0;  // median time of one run
  double rate = 0;     // in unit
  int64_t runs = 0;
  std::string skipped;  // why, when it did not run
};

// Device 0 of every loaded backend with a device, or of the ones named.
std::vector<Target> targets(const std::vector<std::string>& names) {
  std::vector<Target> out;
  std::vector<std::string> loaded;
  for (int32_t i = 0; i < kf_backend_count(); ++i) {
    kf_backend_info_t info{};
    info.struct_size = sizeof info;
    check(kf_backend_info(i, &info), "kf_backend_info");
    if (info.state != KF_BACKEND_LOADED || info.device_count < 1) continue;
    loaded.push_back(str(info.name));
    if (names.empty() || std::count(names.begin(), names.end(), loaded.back()) > 0) {
      out.push_back({loaded.back(), kf_device_t{info.device_type, 0}});
    }
  }
  for (const std::string& n : names) {
    if (std::count(loaded.begin(), loaded.end(), n) == 0) {
      std::ostringstream os;
      for (const std::string& l : loaded) os << (os.tellp() > 0 ? ", " : "") << l;
      throw CliError("no loaded backend '" + n + "' with a device; loaded: " + os.str() +
                     " (kernforge doctor says why others are not)", kExitUsage);
    }
  }
  return out;
}

// Seconds of `runs` runs, the device synchronized at the end.
double time_runs(const std::function<void()>& run, kf_device_t device, int64_t runs) {
  const Clock::time_point start = Clock::now();
  for (int64_t i = 0; i < runs; ++i) run();
  bench::synchronize(device);
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Note [How bench times]: one warm-up run; then a batch size that takes >= 10 ms (doubling from
// 1), and up to 5 batches within the budget (at least 1); the median batch's time per run.
void measure(const bench::Workload& w, const Target& t, double budget, Result& r) {
  const std::function<void()> run = w.prepare(t.device);
  double first = time_runs(run, t.device, 1);
  int64_t batch = 1;
  while (first < 0.01 && batch < (int64_t{1} << 20)) {
    batch *= 2;
    first = time_runs(run, t.device, batch);
  }
  const int64_t samples = std::clamp<int64_t>(static_cast<int64_t>(budget / first), 1, 5);
  std::vector<double> per_run;
  for (int64_t i = 0; i < samples; ++i) {
    per_run.push_back(time_runs(run, t.device, batch) / static_cast<double>(batch));
  }
  std::sort(per_run.begin(), per_run.end());
  r.seconds = per_run[per_run.size() / 2];
  r.runs = samples * batch;
  r.rate = w.unit == "us/op" ? r.seconds * 1e6 : w.work / r.seconds * 1e-9;
}

void progress(bool on, size_t done, size_t total, const std::string& what) {
  if (!on) return;
  std::fprintf(stderr, "\r\033[K[%zu/%zu] %s", done, total, what.c_str());
  std::fflush(stderr);
}

std::string rate_text(const Result& r) {
  if (!r.skipped.empty()) return "skipped: " + r.skipped;
  char buf[64];
  std::snprintf(buf, sizeof buf, r.rate >= 100 ? "%.0f %s" : "%.2f %s", r.rate, r.unit.c_str());
  return buf;
}

std::string time_text(const Result& r) {
  if (!r.skipped.empty()) return "-";
  char buf[32];
  if (r.seconds >= 1e-3) {
    std::snprintf(buf, sizeof buf, "%.2f ms", r.seconds * 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%.2f us", r.seconds * 1e6);
  }
  return buf;
}

void print_table(const std::vector<Result>& results) {
  TextTable table({"backend", "workload", "time/run", "rate", "runs"});
  for (const Result& r : results) {
    table.add_row({r.backend, r.workload, time_text(r), rate_text(r),
                   r.skipped.empty() ? std::to_string(r.runs) : "-"});
  }
  table.print(std::cout);
}

void print_json(const std::vector<Result>& results) {
  Json rows = Json::array();
  for (const Result& r : results) {
    Json row{{"backend", r.backend}, {"workload", r.workload}, {"unit", r.unit}};
    if (r.skipped.empty()) {
      row["seconds_per_run"] = r.seconds;
      row["rate"] = r.rate;
      row["runs"] = r.runs;
    } else {
      row["skipped"] = r.skipped;
    }
    rows.push_back(row);
  }
  std::cout << Json{{"schema_version", 1}, {"kernforge_version", kf_version()},
                    {"results", rows}}.dump(2) << "\n";
}

// A time budget: a finite number of seconds above 0 and at most an hour. (CLI11's
// PositiveNumber lets nan through: nan <= 0 is false.)
CLI::Validator seconds_budget() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double v = 0;
        if (!CLI::detail::lexical_cast(text, v) || !std::isfinite(v) || !(v > 0) || v > 3600) {
          return "--seconds takes a number of seconds above 0 and at most 3600, not '" + text +
                 "'";
        }
        return "";
      },
      "SECONDS in (0, 3600]");
}

}  // namespace

CLI::App* add_bench_command(CLI::App& app, BenchOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "bench", "Run the standard workloads (tiny op, matmul f32/bf16, add/exp/sum over 16M "
               "floats, softmax, an MLP, a transformer block) on every loaded backend");
  cmd->add_flag("--json", options.json, "Print JSON (schema_version 1)");
  cmd->add_flag("--quick", options.quick, "Small sizes and short timing (seconds in all)");
  cmd->add_option("--backend", options.backends, "Only this backend (repeatable)");
  cmd->add_option("--seconds", options.seconds, "Time budget per workload and backend")
      ->check(seconds_budget());
  return cmd;
}

int run_bench(const BenchOptions& options) {
  const std::vector<Target> devices = targets(options.backends);
  const std::vector<bench::Workload> list = bench::workloads(options.quick);
  const double budget = options.quick ? std::min(options.seconds, 0.1) : options.seconds;
  const bool show = !options.json && isatty(STDERR_FILENO) == 1;
  std::vector<Result> results;
  const size_t total = devices.size() * list.size();
  for (const Target& t : devices) {
    for (const bench::Workload& w : list) {
      Result r;
      r.backend = t.backend;
      r.workload = w.name;
      r.unit = w.unit;
      progress(show, results.size() + 1, total, t.backend + "  " + w.name);
      try {
        measure(w, t, budget, r);
      } catch (const bench::Skip& e) {
        r.skipped = e.what();
      }
      results.push_back(r);
    }
  }
  if (show) std::fprintf(stderr, "\r\033[K");
  if (options.json) {
    print_json(results);
  } else {
    print_table(results);
  }
  return kExitOk;
}

}  // namespace kf::cli
