// bench_calls.hpp — the calls `kernforge bench` makes: ops found by name and called boxed
// (kf_op_find / kf_op_call), so a workload whose op this kernforge lacks is skipped with the
// op's name instead of failing to build, and tensors released by RAII.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernforge/kernforge.h"

namespace kf::cli::bench {

/// Thrown when a workload cannot run on a device: an op this kernforge does not have, or a call
/// the backend refuses (a dtype it lacks). The workload is reported as skipped with what().
class Skip : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An owned tensor handle.
class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(kf_tensor_t t) : t_(t) {}
  ~Tensor() { kf_tensor_release(t_); }
  Tensor(Tensor&& o) noexcept : t_(o.t_) { o.t_ = nullptr; }
  Tensor& operator=(Tensor&& o) noexcept;
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;
  kf_tensor_t get() const { return t_; }

 private:
  kf_tensor_t t_ = nullptr;
};

kf_value_t tensor(const Tensor& t);
kf_value_t integer(int64_t i);
kf_value_t floating(double f);
kf_value_t boolean(bool b);
kf_value_t ints(const std::vector<int64_t>& v);  // borrows v for the call
kf_value_t none();

/// Calls op `name` with `args` and returns its one tensor result. Throws Skip when the op does
/// not exist or the call fails (with the runtime's message).
Tensor call(const char* name, std::initializer_list<kf_value_t> args);

/// A tensor of `shape` on `device` with values in [0, 1) that keep every workload finite
/// (uniform from rand where this kernforge has it, else a constant 0.01).
Tensor filled(const std::vector<int64_t>& shape, kf_dtype_t dtype, kf_device_t device);

/// Waits for the device's queued work (asynchronous backends); throws Skip on failure.
void synchronize(kf_device_t device);

}  // namespace kf::cli::bench
