// Grad mode: whether this thread records (on by default). Backward formulas run with it off
// unless a double backward asks for their graph (create_graph).
#pragma once

namespace kf::autograd {

bool grad_enabled() noexcept;
void set_grad_enabled(bool enabled) noexcept;

/// Sets grad mode for a scope and restores it.
class GradModeGuard {
 public:
  explicit GradModeGuard(bool enabled) noexcept : previous_(grad_enabled()) {
    set_grad_enabled(enabled);
  }
  ~GradModeGuard() { set_grad_enabled(previous_); }
  GradModeGuard(const GradModeGuard&) = delete;
  GradModeGuard& operator=(const GradModeGuard&) = delete;

 private:
  bool previous_;
};

}  // namespace kf::autograd
