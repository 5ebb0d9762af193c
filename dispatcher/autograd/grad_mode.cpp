#include "autograd/grad_mode.hpp"

namespace kf::autograd {
namespace {
thread_local bool t_grad_enabled = true;
}  // namespace

bool grad_enabled() noexcept { return t_grad_enabled; }
void set_grad_enabled(bool enabled) noexcept { t_grad_enabled = enabled; }

}  // namespace kf::autograd
