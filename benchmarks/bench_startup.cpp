// bench_startup.cpp — how long a process takes to get the C ABI ready (docs/benchmarks.md:
// under 10 ms with every plugin probed). Start-up happens once per process, so it is measured
// by starting processes: this program is both the driver and the child it starts.
//
//   kernforge_bench_startup [--runs N] [--warmup K] [--json out.json]
//       the driver: starts the children below N times each (default 50, round-robin so that a
//       change of machine load hits every kind alike, after K unmeasured warm-up rounds), times
//       each from fork to the parent's waitpid return, and prints median / p90 / min (text, and
//       JSON with --json).
//   kernforge_bench_startup --child MODE
//       one child: prints one line of JSON and exits.
//
// The children, in the order of what they add:
//   bare    kernforge_bench_startup_bare, this same source built without libkernforge: the
//           cost of starting and ending any C++ process (the reference).
//   linked  this program, linked to libkernforge, making no kernforge call: + mapping the core
//           and its dependencies, relocations, static initialisers.
//   core    kf_init with KERNFORGE_AUTOLOAD=0: + initialising the core alone (no plugin).
//   full    kf_init with discovery on: + every plugin found probed and loaded (the budget);
//           a plugin that starts on first use (opencl) is only probed.
//   started full, then kf_backend_count, which starts the plugins waiting for their first use
//           (informative: what a process that uses such a device pays once).
//   listing what a program that lists the backends does (examples/c/hello.c): kf_backend_count,
//           kf_backend_info of each, then one CPU op (two float32 tensors added).
//   listing_off the same with KERNFORGE_DISABLE_PLUGINS naming the plugins `listing` found
//           unavailable: what the unavailable plugins cost (docs/benchmarks.md; issue 31's
//           goal is within 1.15x the time and 8 MiB).
// Every kind also reports its peak memory (the child's ru_maxrss from wait4).
// The core and full children also report, measured inside, the time from main's first line to
// kf_init's return, and the loader's own figure (startup_micros of kf_runtime_report_json).
// POSIX only (fork, execve, pipes); not built for Windows.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#ifndef KF_STARTUP_BARE
#include "kernforge/kernforge.h"
#endif

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;
using Json = nlohmann::ordered_json;

int64_t micros_since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count();
}

// ------------------------------------------------------------------------------ the child --

#ifndef KF_STARTUP_BARE
std::string report_text() {
  size_t needed = 0;
  kf_runtime_report_json(nullptr, 0, &needed);
  std::vector<char> buf(needed + 1024, '\0');
  if (kf_runtime_report_json(buf.data(), buf.size(), &needed) != KF_OK) return "{}";
  return std::string(buf.data());
}

// The loader's own start-up figure: "startup_micros", else the "startup" step.
Json loader_startup_micros(const Json& report) {
  if (report.contains("startup_micros")) return report["startup_micros"];
  for (const Json& s : report.value("steps", Json::array())) {
    if (s.value("what", "") == "startup") return s.value("micros", Json());
  }
  return Json();
}

// The loader's steps, "what plugin" -> microseconds (a key seen twice adds up).
Json loader_steps(const Json& report) {
  Json steps = Json::object();
  for (const Json& s : report.value("steps", Json::array())) {
    const std::string what = s.value("what", "?");
    if (what == "startup") continue;
    const std::string plugin = s.value("plugin", "");
    const std::string key = plugin.empty() ? what : what + " " + plugin;
    steps[key] = steps.value(key, int64_t{0}) + s.value("micros", int64_t{0});
  }
  return steps;
}

int run_kernforge_child(Clock::time_point main_start, bool start_all) {
  const kf_status_t status = kf_init(nullptr);
  if (start_all) (void)kf_backend_count();
  const int64_t inside = micros_since(main_start);
  if (status != KF_OK) {
    std::fprintf(stderr, "kf_init failed: %s: %s\n", kf_status_name(status),
                 kf_last_error_message());
    return 1;
  }
  const Json report = Json::parse(report_text(), nullptr, false);
  Json loaded = Json::array();
  size_t probed = 0;
  if (report.is_object()) {
    for (const Json& b : report.value("backends", Json::array())) {
      ++probed;
      if (b.value("state", "") == "loaded") loaded.push_back(b.value("name", ""));
    }
  }
  const Json out{{"inside_us", inside},
                 {"startup_micros", report.is_object() ? loader_startup_micros(report) : Json()},
                 {"plugins_probed", probed},
                 {"steps", report.is_object() ? loader_steps(report) : Json::object()},
                 {"loaded", loaded},
                 {"version", kf_version()}};
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
#endif

#ifndef KF_STARTUP_BARE
// Lists the backends and adds two CPU tensors; prints the names of the unavailable ones.
int run_listing_child() {
  Json unavailable = Json::array();
  for (int32_t i = 0; i < kf_backend_count(); ++i) {
    kf_backend_info_t info{};
    info.struct_size = sizeof(info);
    if (kf_backend_info(i, &info) == KF_OK && info.state == KF_BACKEND_UNAVAILABLE) {
      unavailable.push_back(info.name);
    }
  }
  const int64_t shape[] = {4};
  const float data[] = {1, 2, 3, 4};
  kf_tensor_t a = nullptr, b = nullptr, c = nullptr;
  if (kf_tensor_from_data(data, shape, 1, KF_FLOAT32, kf_device_cpu(), &a) != KF_OK ||
      kf_tensor_from_data(data, shape, 1, KF_FLOAT32, kf_device_cpu(), &b) != KF_OK ||
      kf_add(a, b, kf_scalar_i64(1), &c) != KF_OK) {
    std::fprintf(stderr, "the CPU op failed: %s\n", kf_last_error_message());
    return 1;
  }
  kf_tensor_release(c);
  kf_tensor_release(b);
  kf_tensor_release(a);
  std::printf("%s\n", Json{{"unavailable", unavailable}}.dump().c_str());
  return 0;
}
#endif

int run_child(const std::string& mode, Clock::time_point main_start) {
  if (mode == "bare" || mode == "linked") {
    std::printf("{}\n");
    return 0;
  }
#ifndef KF_STARTUP_BARE
  if (mode == "listing" || mode == "listing_off") return run_listing_child();
  if (mode == "core" || mode == "full" || mode == "started") {
    return run_kernforge_child(main_start, mode == "started");
  }
#endif
  std::fprintf(stderr, "unknown child mode '%s'\n", mode.c_str());
  return 2;
}

// ----------------------------------------------------------------------------- the driver --

struct Kind {
  std::string name;
  std::string exe;
  std::string what;
  bool autoload = true;
  std::vector<std::string> extra_env;  // NAME=value added to the child's environment
  std::vector<int64_t> outside_us;   // fork -> waitpid, microseconds
  std::vector<int64_t> peak_kib;     // the child's ru_maxrss
  std::vector<int64_t> inside_us;    // main -> kf_init returned (core, full)
  std::vector<int64_t> loader_us;    // startup_micros from the report (core, full)
  std::map<std::string, std::vector<int64_t>> steps_us;  // the loader's steps (core, full)
  Json last;                         // the last child's line
};

// The environment of a child: ours, with KERNFORGE_AUTOLOAD set to 0 or removed.
std::vector<std::string> child_environment(bool autoload) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "KERNFORGE_AUTOLOAD=", 19) != 0) env.emplace_back(*e);
  }
  if (!autoload) env.emplace_back("KERNFORGE_AUTOLOAD=0");
  return env;
}

std::vector<char*> c_strings(std::vector<std::string>& v) {
  std::vector<char*> out;
  for (std::string& s : v) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// Starts `kind` once; returns its stdout and adds the time from fork to waitpid.
std::string spawn(Kind& kind, bool record) {
  std::vector<std::string> args{kind.exe, "--child", kind.name};
  std::vector<std::string> env = child_environment(kind.autoload);
  env.insert(env.end(), kind.extra_env.begin(), kind.extra_env.end());
  std::vector<char*> argv = c_strings(args), envp = c_strings(env);
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  const Clock::time_point start = Clock::now();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  close(pipe_fds[1]);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = read(pipe_fds[0], buf, sizeof buf)) != 0;) {
    if (n > 0) out.append(buf, static_cast<size_t>(n));
    else if (errno != EINTR) break;
  }
  close(pipe_fds[0]);
  int status = 0;
  struct rusage usage {};
  while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {}
  const int64_t elapsed = micros_since(start);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error("child '" + kind.name + "' (" + kind.exe + ") failed, status " +
                             std::to_string(status));
  }
  if (record) {
    kind.outside_us.push_back(elapsed);
    kind.peak_kib.push_back(usage.ru_maxrss);
  }
  return out;
}

void record_child_line(Kind& kind, const std::string& line) {
  const Json j = Json::parse(line, nullptr, false);
  if (!j.is_object()) throw std::runtime_error("child '" + kind.name + "' printed: " + line);
  kind.last = j;
  if (j.contains("inside_us") && j["inside_us"].is_number()) {
    kind.inside_us.push_back(j["inside_us"].get<int64_t>());
  }
  if (j.contains("startup_micros") && j["startup_micros"].is_number()) {
    kind.loader_us.push_back(j["startup_micros"].get<int64_t>());
  }
  if (j.contains("steps") && j["steps"].is_object()) {
    for (const auto& [key, micros] : j["steps"].items()) {
      if (micros.is_number()) kind.steps_us[key].push_back(micros.get<int64_t>());
    }
  }
}

Json stats(std::vector<int64_t> v) {
  if (v.empty()) return Json();
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  const double median = n % 2 ? v[n / 2] : 0.5 * static_cast<double>(v[n / 2 - 1] + v[n / 2]);
  const size_t p90 = static_cast<size_t>(std::ceil(0.9 * static_cast<double>(n))) - 1;
  return Json{{"median", median}, {"p90", v[p90]}, {"min", v.front()}, {"n", n}};
}

std::string self_dir() {
  std::vector<char> buf(4096, '\0');
  const ssize_t n = readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n <= 0) throw std::runtime_error("cannot read /proc/self/exe");
  std::string path(buf.data(), static_cast<size_t>(n));
  return path.substr(0, path.find_last_of('/'));
}

std::vector<Kind> kinds() {
  const std::string dir = self_dir();
  const std::string self = dir + "/kernforge_bench_startup";
  const std::string bare = dir + "/kernforge_bench_startup_bare";
  if (access(bare.c_str(), X_OK) != 0) {
    throw std::runtime_error(bare + " is missing: build the target kernforge_bench_startup");
  }
  const auto kind = [](const char* name, const std::string& exe, const char* what,
                       bool autoload) {
    Kind k;
    k.name = name;
    k.exe = exe;
    k.what = what;
    k.autoload = autoload;
    return k;
  };
  return {kind("bare", bare, "a C++ process that does not link kernforge (the reference)", true),
          kind("linked", self, "linked to libkernforge, no kernforge call", true),
          kind("core", self, "kf_init with KERNFORGE_AUTOLOAD=0 (the core alone)", false),
          kind("full", self, "kf_init with every plugin probed (the budget)", true),
          kind("started", self,
               "kf_init, then kf_backend_count starting the plugins deferred to first use",
               true),
          kind("listing", self, "lists the backends (kf_backend_count, kf_backend_info), one "
               "CPU op", true),
          kind("listing_off", self, "listing with KERNFORGE_DISABLE_PLUGINS naming the "
               "plugins listing found unavailable", true)};
}

Json result_json(const std::vector<Kind>& all, int runs) {
  Json j{{"schema_version", 1}, {"runs", runs}, {"unit", "us"}, {"kinds", Json::object()}};
  for (const Kind& k : all) {
    j["kinds"][k.name] = Json{{"what", k.what},
                              {"outside_us", stats(k.outside_us)},
                              {"peak_kib", stats(k.peak_kib)},
                              {"inside_us", stats(k.inside_us)},
                              {"loader_startup_us", stats(k.loader_us)},
                              {"loader_steps_us", Json::object()}};
    for (const auto& [key, values] : k.steps_us) {
      j["kinds"][k.name]["loader_steps_us"][key] = stats(values);
    }
    if (k.name == "full") j["full_child"] = k.last;
  }
  const Json& bare = j["kinds"]["bare"]["outside_us"];
  const Json& full = j["kinds"]["full"]["outside_us"];
  j["kernforge_us"] = Json{{"median", full["median"].get<double>() - bare["median"].get<double>()},
                           {"min", full["min"].get<int64_t>() - bare["min"].get<int64_t>()}};
  return j;
}

// "1234" for a stats entry's median, "-" when the kind has no such figure.
std::string median_text(const Json& s) {
  if (s.is_null()) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", s["median"].get<double>());
  return buf;
}

void print_text(const Json& j) {
  std::printf("%-11s %10s %10s %10s %14s %14s %13s\n", "child", "median us", "p90 us",
              "min us", "inside med us", "loader med us", "peak med KiB");
  for (const auto& [name, k] : j["kinds"].items()) {
    const Json& out = k["outside_us"];
    std::printf("%-11s %10s %10lld %10lld %14s %14s %13s\n", name.c_str(),
                median_text(out).c_str(), static_cast<long long>(out["p90"].get<int64_t>()),
                static_cast<long long>(out["min"].get<int64_t>()),
                median_text(k["inside_us"]).c_str(), median_text(k["loader_startup_us"]).c_str(),
                median_text(k["peak_kib"]).c_str());
  }
  std::printf("kernforge's share (full - bare, medians): %.0f us\n",
              j["kernforge_us"]["median"].get<double>());
}

// listing_off disables what one listing child found unavailable (plus what the caller disabled).
void set_listing_off(std::vector<Kind>& all) {
  Kind* listing = nullptr;
  for (Kind& k : all) listing = k.name == "listing" ? &k : listing;
  const Json found = Json::parse(spawn(*listing, false), nullptr, false);
  std::string names;
  if (const char* given = std::getenv("KERNFORGE_DISABLE_PLUGINS")) names = given;
  for (const Json& n : found.value("unavailable", Json::array())) {
    names += (names.empty() ? "" : ",") + n.get<std::string>();
  }
  for (Kind& k : all) {
    if (k.name == "listing_off") k.extra_env = {"KERNFORGE_DISABLE_PLUGINS=" + names};
  }
}

int run_driver(int runs, int warmup, const std::string& json_path) {
  std::vector<Kind> all = kinds();
  set_listing_off(all);
  for (int round = 0; round < warmup + runs; ++round) {
    for (Kind& k : all) {
      const std::string out = spawn(k, round >= warmup);
      if (round >= warmup) record_child_line(k, out);
    }
  }
  const Json j = result_json(all, runs);
  print_text(j);
  if (!json_path.empty()) {
    std::ofstream(json_path) << j.dump(2) << "\n";
    std::printf("wrote %s\n", json_path.c_str());
  }
  return 0;
}

int usage() {
  std::fprintf(stderr, "usage: kernforge_bench_startup [--runs N] [--warmup K] [--json FILE]\n"
                       "       kernforge_bench_startup --child bare|linked|core|full\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const Clock::time_point main_start = Clock::now();
  int runs = 50, warmup = 3;
  std::string json_path;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) return usage();
    const std::string value = argv[++i];
    if (arg == "--child") return run_child(value, main_start);
    if (arg == "--runs") runs = std::max(1, std::atoi(value.c_str()));
    else if (arg == "--warmup") warmup = std::max(0, std::atoi(value.c_str()));
    else if (arg == "--json") json_path = value;
    else return usage();
  }
  try {
    return run_driver(runs, warmup, json_path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kernforge_bench_startup: %s\n", e.what());
    return 1;
  }
}
