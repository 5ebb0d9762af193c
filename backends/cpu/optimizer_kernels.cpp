// optimizer_kernels.cpp — the fused optimizer updates adamw_step_ and sgd_step_: one pass over
// the parameter, its gradient and its state, each element read once and written once. The
// outputs are the written tensors (the parameter, then the state); in place they are exactly the
// inputs, and after the CPU fallback they are new tensors, so a row reads every input before
// it writes. 16-bit floats compute in float; a complex number's two parts update each on its
// own (PyTorch's view_as_real). The meta (optimizer_step) gives every operand one dtype and
// shape.
#include <cmath>
#include <complex>
#include <cstdint>

#include "kernels.hpp"
#include "dtype_dispatch.hpp"
#include "strided.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kOptimizerMask = kAllFloatMask | kComplexMask;

// Runs `f(T* out[W], const T* in[N - W], i)` over every element of the N operands, the W
// written outputs first: f reads element i of every input and then writes element i of every
// output.
template <class T, int N, class F>
void for_each_element(const kf_tensor_view_t* const (&views)[N], F f) {
  int64_t sizes[N];
  for (int k = 0; k < N; ++k) sizes[k] = sizeof(T);
  for_each_row(make_plan(views, sizes), [&f](char* const* p, const int64_t* s, int64_t n) {
    bool dense = true;
    for (int k = 0; k < N; ++k) dense = dense && s[k] == static_cast<int64_t>(sizeof(T));
    if (dense) {
      T* ptr[N];
      for (int k = 0; k < N; ++k) ptr[k] = reinterpret_cast<T*>(p[k]);
      for (int64_t i = 0; i < n; ++i) f(ptr, i);
      return;
    }
    for (int64_t i = 0; i < n; ++i) {
      T* ptr[N];
      for (int k = 0; k < N; ++k) ptr[k] = reinterpret_cast<T*>(p[k] + i * s[k]);
      f(ptr, 0);
    }
  });
}

// AdamW's constants for one step, in the compute type M.
template <class M>
struct AdamWStep {
  M decay, beta1, one_minus_beta1, beta2, one_minus_beta2, step_size, inv_sqrt_c2, eps;

  explicit AdamWStep(const ops::adamw_step_::Args& a)
      : decay(M(1.0 - a.lr * a.weight_decay)),
        beta1(M(a.beta1)),
        one_minus_beta1(M(1.0 - a.beta1)),
        beta2(M(a.beta2)),
        one_minus_beta2(M(1.0 - a.beta2)),
        step_size(M(a.lr / (1.0 - std::pow(a.beta1, static_cast<double>(a.step))))),
        inv_sqrt_c2(M(1.0 / std::sqrt(1.0 - std::pow(a.beta2, static_cast<double>(a.step))))),
        eps(M(a.eps)) {}
};

void check_step(const char* op, int64_t step) {
  if (step < 1) {
    throw kf::plugin::KernelError(KF_INVALID_ARGUMENT, std::string(op) + ": step is " +
                                                           std::to_string(step) +
                                                           "; steps count from 1");
  }
}

// The real components of an element: itself, or the two parts of a complex number (updated
// each on its own, as PyTorch's optimizers update a complex parameter through view_as_real).
template <class T>
struct Parts {
  using type = T;
  static constexpr int count = 1;
};
template <class F>
struct Parts<std::complex<F>> {
  using type = F;
  static constexpr int count = 2;
};

// Calls `update(P* const* q)` for each real component of element i of the N operands.
template <class T, int N, class U>
inline void for_each_part(T* const* p, int64_t i, U& update) {
  using P = typename Parts<T>::type;
  for (int j = 0; j < Parts<T>::count; ++j) {
    P* q[N];
    for (int k = 0; k < N; ++k) q[k] = reinterpret_cast<P*>(p[k] + i) + j;
    update(static_cast<P* const*>(q));
  }
}

void adamw_kernel(const ops::adamw_step_::Args& a) {
  check_step("adamw_step_", a.step);
  dispatch<kOptimizerMask>(a.self.dtype, "adamw_step_", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using P = typename Parts<T>::type;
    using M = OpMath<P>;
    const AdamWStep<M> c(a);
    auto update = [&c](P* const* q) {
      const M g = load(*q[4]);
      const M m = c.beta1 * load(*q[5]) + c.one_minus_beta1 * g;
      const M v = c.beta2 * load(*q[6]) + c.one_minus_beta2 * g * g;
      const M param = load(*q[3]) * c.decay;
      const M denom = std::sqrt(v) * c.inv_sqrt_c2 + c.eps;
      *q[0] = convert<P>(param - c.step_size * m / denom);
      *q[1] = convert<P>(m);
      *q[2] = convert<P>(v);
    };
    const kf_tensor_view_t* views[7] = {&a.out, &a.out_exp_avg, &a.out_exp_avg_sq, &a.self,
                                        &a.grad, &a.exp_avg, &a.exp_avg_sq};
    for_each_element<T>(views, [&update](T* const* p, int64_t i) {
      for_each_part<T, 7>(p, i, update);
    });
  });
}

void sgd_kernel(const ops::sgd_step_::Args& a) {
  dispatch<kOptimizerMask>(a.self.dtype, "sgd_step_", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using P = typename Parts<T>::type;
    using M = OpMath<P>;
    const M lr(a.lr), mu(a.momentum), keep(1.0 - a.dampening), wd(a.weight_decay);
    const bool first = a.first_step, nesterov = a.nesterov;
    auto update = [=](P* const* q) {
      const M param = load(*q[2]);
      const M g = load(*q[3]) + wd * param;
      const M buf = first ? g : mu * load(*q[4]) + keep * g;
      const M d = nesterov ? g + mu * buf : buf;
      *q[0] = convert<P>(param - lr * d);
      *q[1] = convert<P>(buf);
    };
    const kf_tensor_view_t* views[5] = {&a.out, &a.out_momentum_buffer, &a.self, &a.grad,
                                        &a.momentum_buffer};
    for_each_element<T>(views, [&update](T* const* p, int64_t i) {
      for_each_part<T, 5>(p, i, update);
    });
  });
}

}  // namespace

kf_status_t register_optimizer_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, adamw_step_, adamw_kernel, kOptimizerMask);
  KF_CPU_KERNEL(reg, sgd_step_, sgd_kernel, kOptimizerMask);
  return KF_OK;
}

}  // namespace kf::cpu
