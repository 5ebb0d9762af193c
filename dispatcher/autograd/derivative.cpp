#include "autograd/derivative.hpp"

#include <vector>

namespace kf::autograd {
namespace {

// The generated tables, indexed by op id once (ops.yaml's ids are dense and small).
template <typename T>
std::vector<const T*> by_op(const T* rows, int32_t count) {
  std::vector<const T*> out;
  for (int32_t i = 0; i < count; ++i) {
    const auto id = static_cast<size_t>(rows[i].op);
    if (out.size() <= id) out.resize(id + 1, nullptr);
    out[id] = &rows[i];
  }
  return out;
}

template <typename T>
const T* find(const std::vector<const T*>& table, int32_t op) noexcept {
  return op >= 0 && static_cast<size_t>(op) < table.size() ? table[static_cast<size_t>(op)]
                                                            : nullptr;
}

}  // namespace

const Derivative* derivative_of(int32_t op) noexcept {
  static const std::vector<const Derivative*> table = by_op(kDerivatives, kDerivativeCount);
  return find(table, op);
}

const NotDifferentiable* not_differentiable(int32_t op) noexcept {
  static const std::vector<const NotDifferentiable*> table =
      by_op(kNotDifferentiable, kNotDifferentiableCount);
  return find(table, op);
}

}  // namespace kf::autograd
