#include "gloo_worker.hpp"

#include <chrono>
#include <utility>

#include "gloo_errors.hpp"

namespace kfgloo {
namespace {

void end(GlooTask& t, kf_status_t status, std::string error) {
  {
    std::lock_guard<std::mutex> lock(t.mutex);
    t.done = true;
    t.status = status;
    t.error = std::move(error);
  }
  t.ended.notify_all();
}

// Runs `run`; its status, its text in `error`.
kf_status_t run_guarded(const std::function<void()>& run, std::string* error) {
  char text[2048] = {0};
  const kf_status_t s = guarded(text, sizeof text, run);
  *error = text;
  return s;
}

bool breaks_the_ranks(kf_status_t s) { return s == KF_TIMEOUT || s == KF_UNAVAILABLE; }

}  // namespace

bool GlooTask::wait_for(int64_t timeout_ms) {
  std::unique_lock<std::mutex> lock(mutex);
  if (timeout_ms <= 0) {
    ended.wait(lock, [&] { return done; });
    return true;
  }
  return ended.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] { return done; });
}

GlooWorker::~GlooWorker() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    if (poisoned_ == KF_OK) {
      poisoned_ = KF_UNAVAILABLE;
      poison_why_ = "the communicator was destroyed before the call ran";
    }
    fail_queued_locked();
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::shared_ptr<GlooTask> GlooWorker::post(std::function<void()> run) {
  auto t = std::make_shared<GlooTask>();
  t->run = std::move(run);
  std::lock_guard<std::mutex> lock(mutex_);
  if (poisoned_ != KF_OK) {
    end(*t, poisoned_, poison_why_);
    return t;
  }
  queue_.push_back(t);
  if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
  changed_.notify_all();
  return t;
}

kf_status_t GlooWorker::run_now(const std::function<void()>& run, std::string* error) {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (poisoned_ == KF_OK && queue_.empty() && !busy_) {
      busy_ = true;
    } else {
      lock.unlock();
      const std::shared_ptr<GlooTask> t = post(run);
      t->wait_for(0);
      *error = t->error;
      return t->status;
    }
  }
  const kf_status_t s = run_guarded(run, error);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    busy_ = false;
    if (breaks_the_ranks(s) && poisoned_ == KF_OK) {
      poisoned_ = s;
      poison_why_ = "an earlier call of this communicator failed (" + *error + "); the ranks "
                    "are out of step: destroy the communicator";
    }
  }
  changed_.notify_all();
  return s;
}

void GlooWorker::poison(kf_status_t status, const std::string& why) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (poisoned_ == KF_OK) {
      poisoned_ = status;
      poison_why_ = why;
    }
    fail_queued_locked();
  }
  changed_.notify_all();
}

void GlooWorker::fail_queued_locked() {
  for (const std::shared_ptr<GlooTask>& t : queue_) end(*t, poisoned_, poison_why_);
  queue_.clear();
}

void GlooWorker::loop() {
  for (;;) {
    std::shared_ptr<GlooTask> t;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return stopping_ || (!queue_.empty() && !busy_); });
      if (queue_.empty()) return;  // stopping, nothing left
      t = queue_.front();
      queue_.pop_front();
      busy_ = true;
    }
    execute(*t);
  }
}

void GlooWorker::execute(GlooTask& t) {
  std::string error;
  const kf_status_t s = run_guarded(t.run, &error);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    busy_ = false;
    if (breaks_the_ranks(s) && poisoned_ == KF_OK) {
      poisoned_ = s;
      poison_why_ = "an earlier call of this communicator failed (" + error + "); the ranks are "
                    "out of step: destroy the communicator";
      fail_queued_locked();
    }
  }
  changed_.notify_all();
  end(t, s, std::move(error));
}

}  // namespace kfgloo
