// The sweep's runner: forked children, their reports and their output (sweep.hpp).
#include "sweep.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "openmp_registration.hpp"
#include "phase_util.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define KF_OOM_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KF_OOM_LSAN 1
#endif
#endif
#if KF_OOM_LSAN
#include <sanitizer/lsan_interface.h>

// A forked child keeps libomp's bookkeeping but not the worker threads whose storage pointed at
// it, so LeakSanitizer would report the OpenMP runtime's own allocations; they are not ours.
extern "C" const char* __lsan_default_suppressions() { return "leak:libomp.so\n"; }
#endif

namespace oomtest {

Attempt attempt(Kind kind, int64_t n, Mode mode, const std::function<kf_status_t()>& action) {
  arm(kind, n, mode);
  const kf_status_t s = action();
  const int64_t count = disarm();
  Attempt a;
  a.status = s;
  a.fired = fired();
  a.count = count;
  a.message = kf_last_error_message();
  return a;
}

std::string clean_outcome(const Attempt& a) {
  if (a.status == KF_OK) return "";
  if (a.status != KF_OUT_OF_MEMORY) {
    return std::string("status ") + kf_status_name(a.status) +
           ", expected KF_OUT_OF_MEMORY (message: \"" + a.message + "\")";
  }
  if (a.message.find("memory") == std::string::npos) {
    return "KF_OUT_OF_MEMORY with a message that does not say memory ran out: \"" + a.message +
           "\"";
  }
  return "";
}

namespace {

// What a child reports, in memory shared with the parent.
struct Report {
  int32_t status;
  int32_t fired;
  int64_t count;
  char problem[1024];
};

#if KF_OOM_LSAN
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

// Exit codes of a child.
constexpr int kChildOk = 0;
constexpr int kChildProblem = 1;
constexpr int kChildLeaked = 2;

// A child that runs longer than this hangs (a dead lock after a failure).
constexpr int kChildTimeoutSeconds = 60;

// One running child: its pid, its N, its report and its output file.
struct Slot {
  pid_t pid = -1;
  int64_t n = 0;
  Report* report = nullptr;
  FILE* output = nullptr;
};

void copy_text(char* dst, size_t cap, const std::string& s) {
  std::snprintf(dst, cap, "%s", s.c_str());
}

// The child's side: run the action armed, verify, release, check for leaks, exit.
[[noreturn]] void child_main(const Phase& phase, int64_t n, Report* report, FILE* output) {
  kftest::remove_stale_openmp_registration();  // thousands of children: pids come round again
  dup2(fileno(output), STDERR_FILENO);
  dup2(fileno(output), STDOUT_FILENO);
  alarm(kChildTimeoutSeconds);
  const Attempt a = attempt(phase.kind, n, phase.mode, phase.action);
  report->status = a.status;
  report->fired = a.fired ? 1 : 0;
  report->count = a.count;
  std::string problem = clean_outcome(a);
  if (problem.empty()) problem = phase.verify(a);
  copy_text(report->problem, sizeof(report->problem), problem);
  std::fflush(nullptr);
  int code = problem.empty() ? kChildOk : kChildProblem;
#if KF_OOM_LSAN
  if (code == kChildOk && __lsan_do_recoverable_leak_check() != 0) code = kChildLeaked;
#endif
  std::fflush(nullptr);
  _exit(code);
}

std::string read_output(FILE* f) {
  std::fflush(f);
  std::string out;
  std::rewind(f);
  char buf[4096];
  size_t got;
  while ((got = std::fread(buf, 1, sizeof(buf), f)) > 0) out.append(buf, got);
  constexpr size_t kKeep = 6000;
  if (out.size() > kKeep) out = "...\n" + out.substr(out.size() - kKeep);
  return out;
}

// The parent's reading of a finished child; "" when it passed.
std::string judge(const Slot& s, int wstatus) {
  std::string why;
  if (WIFSIGNALED(wstatus)) {
    why = "the child died of signal " + std::to_string(WTERMSIG(wstatus)) +
          (WTERMSIG(wstatus) == SIGALRM ? " (it hung)" : "");
  } else if (!WIFEXITED(wstatus)) {
    why = "the child stopped abnormally";
  } else if (WEXITSTATUS(wstatus) == kChildProblem) {
    why = s.report->problem;
  } else if (WEXITSTATUS(wstatus) == kChildLeaked) {
    why = "LeakSanitizer found leaks";
  } else if (WEXITSTATUS(wstatus) != kChildOk) {
    why = "the child exited with " + std::to_string(WEXITSTATUS(wstatus)) + ": " +
          s.report->problem;
  }
  if (why.empty()) return "";
  return "N=" + std::to_string(s.n) + ": " + why + "\n--- its output:\n" + read_output(s.output);
}

int jobs() {
  const char* v = std::getenv("KF_OOM_JOBS");
  const int n = v != nullptr ? std::atoi(v) : 2;
  return n < 1 ? 1 : n;
}

void start(Slot& s, const Phase& phase, int64_t n) {
  std::memset(s.report, 0, sizeof(Report));
  std::rewind(s.output);
  if (ftruncate(fileno(s.output), 0) != 0) std::perror("ftruncate");
  std::fflush(nullptr);  // nothing buffered may be written twice
  s.n = n;
  s.pid = fork();
  if (s.pid == 0) child_main(phase, n, s.report, s.output);
  if (s.pid < 0) {
    std::perror("fork");
    std::abort();
  }
}

// Records the outcome of the finished child in `s`.
void finish(Slot& s, int wstatus, bool dry, SweepResult& r) {
  const std::string failure = judge(s, wstatus);
  if (!failure.empty()) {
    r.failures.push_back((dry ? "dry run " : "") + failure);
  } else if (dry) {
    r.points = s.report->count;
  } else {
    if (s.report->status == KF_OUT_OF_MEMORY) ++r.oom;
    if (s.report->status == KF_OK) {
      ++r.absorbed;
      r.absorbed_at.push_back(s.n);
    }
    if (s.report->fired == 0) ++r.not_fired;
  }
  s.pid = -1;
}

// KF_OOM_ONLY=<n>: runs that one point in this process, for a debugger.
bool run_one_here(const Phase& phase, SweepResult& r) {
  const char* only = std::getenv("KF_OOM_ONLY");
  if (only == nullptr) return false;
  const Attempt a = attempt(phase.kind, std::atoll(only), phase.mode, phase.action);
  std::string problem = clean_outcome(a);
  if (problem.empty()) problem = phase.verify(a);
  std::printf("[sweep] %s: N=%s gave %s (%s), %s\n", phase.name.c_str(), only,
              kf_status_name(a.status), a.message.c_str(), problem.empty() ? "clean" : "NOT CLEAN");
  if (!problem.empty()) r.failures.push_back(problem);
  r.points = a.count;
  return true;
}

}  // namespace

SweepResult sweep(const Phase& phase) {
  const auto t0 = std::chrono::steady_clock::now();
  SweepResult r;
  if (run_one_here(phase, r)) return r;
  std::vector<Slot> slots(static_cast<size_t>(jobs()));
  for (Slot& s : slots) {
    void* mem = mmap(nullptr, sizeof(Report), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                     -1, 0);
    if (mem == MAP_FAILED) std::abort();
    s.report = static_cast<Report*>(mem);
    s.output = std::tmpfile();
    if (s.output == nullptr) std::abort();
  }
  // The dry run: the count, and that the action passes at all.
  int wstatus = 0;
  start(slots[0], phase, 0);
  waitpid(slots[0].pid, &wstatus, 0);
  finish(slots[0], wstatus, true, r);
  const int64_t stride = kSanitized ? std::max<int64_t>(phase.sanitizer_stride, 1) : 1;
  int64_t next = 1;
  size_t running = 0;
  while (r.failures.size() < 20 && (next <= r.points || running > 0)) {
    for (Slot& s : slots) {
      if (s.pid < 0 && next <= r.points) {
        start(s, phase, next);
        ++r.swept;
        ++running;
        next = next == r.points ? next + 1 : std::min(next + stride, r.points);
      }
    }
    const pid_t done = waitpid(-1, &wstatus, 0);
    for (Slot& s : slots) {
      if (s.pid == done && done > 0) {
        finish(s, wstatus, false, r);
        --running;
      }
    }
  }
  for (Slot& s : slots) {
    munmap(s.report, sizeof(Report));
    std::fclose(s.output);
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[sweep] %s: %lld allocation points, %lld swept, %lld KF_OUT_OF_MEMORY, "
              "%lld absorbed, %lld shorter paths, %zu failures, %.2f s\n",
              phase.name.c_str(), static_cast<long long>(r.points),
              static_cast<long long>(r.swept),
              static_cast<long long>(r.oom), static_cast<long long>(r.absorbed),
              static_cast<long long>(r.not_fired), r.failures.size(), r.seconds);
  if (!r.absorbed_at.empty()) {
    std::sort(r.absorbed_at.begin(), r.absorbed_at.end());
    std::printf("[sweep]   absorbed at N =");
    for (size_t i = 0; i < r.absorbed_at.size() && i < 16; ++i) {
      std::printf(" %lld", static_cast<long long>(r.absorbed_at[i]));
    }
    std::printf("%s\n", r.absorbed_at.size() > 16 ? " ..." : "");
  }
  std::fflush(stdout);
  return r;
}

void expect_clean(const SweepResult& r, bool may_allocate_nothing) {
  if (!may_allocate_nothing) {
    EXPECT_GT(r.points, 0) << "the dry run counted no allocation";
  }
  EXPECT_TRUE(r.failures.empty()) << r.failures.size() << " failing allocation point(s)";
  for (size_t i = 0; i < r.failures.size() && i < 3; ++i) ADD_FAILURE() << r.failures[i];
}

Phase one_result(std::string name, Kind kind, Mode mode,
                 std::function<kf_status_t(kf_tensor_t*)> make, std::vector<float> want) {
  // The tensor the action made (each child has its own copy of this variable).
  static kf_tensor_t result = nullptr;
  Phase p;
  p.name = std::move(name);
  p.kind = kind;
  p.mode = mode;
  p.action = [make] { return make(&result); };
  p.verify = [make, want](const Attempt& a) -> std::string {
    if (a.status != KF_OK) {
      result = nullptr;
      if (std::string p = ok_or(make(&result), "the call again"); !p.empty()) return p;
    }
    std::string problem;
    if (result == nullptr) problem = "KF_OK without a tensor";
    if (problem.empty() && !want.empty()) problem = check_values(result, want);
    kf_tensor_release(result);
    return problem;
  };
  return p;
}

}  // namespace oomtest
