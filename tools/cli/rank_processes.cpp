#include "rank_processes.hpp"

#if !defined(_WIN32)

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <iostream>

extern char** environ;

namespace kf::cli {
namespace {

using Clock = std::chrono::steady_clock;

int g_signal_pipe[2] = {-1, -1};

// Signal handler: the signal's number into the pipe (the loop reads it); SIGCHLD wakes the loop.
void on_signal(int sig) {
  const int saved = errno;
  const auto byte = static_cast<unsigned char>(sig);
  (void)!write(g_signal_pipe[1], &byte, 1);
  errno = saved;
}

void install_handlers() {
  if (pipe(g_signal_pipe) != 0) return;
  for (int fd : g_signal_pipe) {
    (void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK);
    (void)fcntl(fd, F_SETFD, FD_CLOEXEC);
  }
  struct sigaction sa{};
  sa.sa_handler = &on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  for (int sig : {SIGINT, SIGTERM, SIGCHLD}) sigaction(sig, &sa, nullptr);
}

const char* signal_name(int sig) {
  switch (sig) {
    case SIGHUP: return "SIGHUP";
    case SIGINT: return "SIGINT";
    case SIGQUIT: return "SIGQUIT";
    case SIGILL: return "SIGILL";
    case SIGTRAP: return "SIGTRAP";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGKILL: return "SIGKILL";
    case SIGUSR1: return "SIGUSR1";
    case SIGSEGV: return "SIGSEGV";
    case SIGUSR2: return "SIGUSR2";
    case SIGPIPE: return "SIGPIPE";
    case SIGALRM: return "SIGALRM";
    case SIGTERM: return "SIGTERM";
    default: return "a signal";
  }
}

struct Rank {
  pid_t pid = -1;
  bool running = false;
};

// The signals the launcher handles, blocked around fork: a signal for the child that comes
// before its exec must not run the launcher's handler there.
sigset_t handled_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : {SIGINT, SIGTERM, SIGCHLD}) sigaddset(&set, sig);
  return set;
}

// The child (the handled signals blocked): default signal handling, the rank's environment,
// the program.
[[noreturn]] void exec_rank(const RankPlan& plan, size_t rank) {
  (void)setpgid(0, 0);  // a group of its own: stopping the rank stops what it started too
  struct sigaction sa{};
  sa.sa_handler = SIG_DFL;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGCHLD}) sigaction(sig, &sa, nullptr);
  const sigset_t handled = handled_signals();
  sigprocmask(SIG_UNBLOCK, &handled, nullptr);
  std::vector<char*> env;
  for (const std::string& e : plan.envs[rank]) env.push_back(const_cast<char*>(e.c_str()));
  env.push_back(nullptr);
  std::vector<char*> argv;
  for (const std::string& a : plan.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  environ = env.data();
  execvp(argv[0], argv.data());
  const std::string text = "kernforge run: rank " + std::to_string(rank) + " cannot start '" +
                           plan.argv[0] + "': " + std::strerror(errno) + "\n";
  (void)!write(2, text.data(), text.size());
  _exit(127);
}

// Watches the ranks until none runs.
class Watch {
 public:
  Watch(const RankPlan& plan, std::vector<Rank>& ranks) : plan_(plan), ranks_(ranks) {}
  int run();

 private:
  void reap();
  void on_exit(size_t rank, int status);
  void stop_all(int sig);
  void take_signals();
  bool any_running() const;

  const RankPlan& plan_;
  std::vector<Rank>& ranks_;
  bool stopping_ = false;
  Clock::time_point kill_at_{};
  int exit_code_ = 0;
};

bool Watch::any_running() const {
  for (const Rank& r : ranks_) {
    if (r.running) return true;
  }
  return false;
}

void Watch::stop_all(int sig) {
  for (const Rank& r : ranks_) {
    if (r.running) (void)kill(-r.pid, sig);  // the rank's process group
  }
  if (!stopping_) {
    stopping_ = true;
    kill_at_ = Clock::now() + std::chrono::milliseconds(static_cast<int64_t>(plan_.grace_s * 1000));
  }
}

void Watch::on_exit(size_t rank, int status) {
  ranks_[rank].running = false;
  const bool failed = !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  if (!failed) return;
  const std::string who = "kernforge run: rank " + std::to_string(rank) + " (pid " +
                          std::to_string(ranks_[rank].pid) + ") " + describe_exit(status);
  if (stopping_) {
    std::cerr << who << "\n";
    return;
  }
  std::cerr << who << "; stopping the other ranks (SIGTERM, SIGKILL after " << plan_.grace_s
            << " s)\n";
  exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  stop_all(SIGTERM);
}

void Watch::reap() {
  for (size_t i = 0; i < ranks_.size(); ++i) {
    if (!ranks_[i].running) continue;
    int status = 0;
    if (waitpid(ranks_[i].pid, &status, WNOHANG) == ranks_[i].pid) on_exit(i, status);
  }
}

void Watch::take_signals() {
  unsigned char sig = 0;
  while (read(g_signal_pipe[0], &sig, 1) == 1) {
    if (sig == SIGCHLD) continue;
    std::cerr << "kernforge run: got " << signal_name(sig) << "; passing it to the ranks\n";
    if (exit_code_ == 0) exit_code_ = 128 + sig;
    stop_all(sig);
  }
}

int Watch::run() {
  while (any_running()) {
    pollfd p{g_signal_pipe[0], POLLIN, 0};
    (void)poll(&p, 1, 100);
    take_signals();
    reap();
    if (stopping_ && any_running() && Clock::now() >= kill_at_) {
      std::cerr << "kernforge run: ranks still running after the grace period: SIGKILL\n";
      stop_all(SIGKILL);
      kill_at_ = Clock::time_point::max();
    }
  }
  return exit_code_;
}

}  // namespace

std::string describe_exit(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return "was killed by signal " + std::to_string(sig) + " (" + signal_name(sig) + ")";
  }
  return "ended with wait status " + std::to_string(status);
}

int run_ranks(const RankPlan& plan) {
  install_handlers();
  std::vector<Rank> ranks(plan.envs.size());
  Watch watch(plan, ranks);
  const sigset_t handled = handled_signals();
  for (size_t i = 0; i < ranks.size(); ++i) {
    sigprocmask(SIG_BLOCK, &handled, nullptr);
    const pid_t pid = fork();
    if (pid == 0) exec_rank(plan, i);
    if (pid > 0) (void)setpgid(pid, pid);  // as the child does: whichever runs first
    sigprocmask(SIG_UNBLOCK, &handled, nullptr);
    if (pid < 0) {
      std::cerr << "kernforge run: cannot start rank " << i << ": " << std::strerror(errno) << "\n";
      break;  // the ranks started are stopped below
    }
    ranks[i] = Rank{pid, true};
  }
  for (const Rank& r : ranks) {
    if (r.pid < 0) {
      for (const Rank& s : ranks) {
        if (s.running) (void)kill(-s.pid, SIGTERM);
      }
      (void)watch.run();
      return 1;
    }
  }
  return watch.run();
}

}  // namespace kf::cli

#else

namespace kf::cli {

int run_ranks(const RankPlan&) { return 1; }
std::string describe_exit(int status) { return "ended with status " + std::to_string(status); }

}  // namespace kf::cli

#endif
