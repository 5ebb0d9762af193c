#include "bench_calls.hpp"

#include <utility>

namespace kf::cli::bench {
namespace {

// "<op>: <message>", unless the runtime's message names the op first already.
std::string with_op(const std::string& op, const std::string& message) {
  return message.rfind(op + ":", 0) == 0 ? message : op + ": " + message;
}

}  // namespace

Tensor& Tensor::operator=(Tensor&& o) noexcept {
  if (this != &o) {
    kf_tensor_release(t_);
    t_ = std::exchange(o.t_, nullptr);
  }
  return *this;
}

kf_value_t tensor(const Tensor& t) { return kf_value_tensor(t.get()); }
kf_value_t integer(int64_t i) { return kf_value_int(i); }
kf_value_t floating(double f) { return kf_value_float(f); }
kf_value_t boolean(bool b) { return kf_value_bool(b); }
kf_value_t ints(const std::vector<int64_t>& list) {
  return kf_value_int_list(list.data(), static_cast<int32_t>(list.size()));
}
kf_value_t none() { return kf_value_none(); }

Tensor call(const char* name, std::initializer_list<kf_value_t> args) {
  kf_op_t op = nullptr;
  if (kf_op_find(name, &op) != KF_OK) {
    throw Skip(std::string("needs the op '") + name + "', which this kernforge does not have");
  }
  kf_value_t result = kf_value_none();
  const kf_status_t s = kf_op_call(op, args.begin(), static_cast<int32_t>(args.size()), &result, 1);
  if (s != KF_OK) throw Skip(with_op(name, kf_last_error_message()));
  return Tensor(result.v.tensor);
}

Tensor filled(const std::vector<int64_t>& shape, kf_dtype_t dtype, kf_device_t device) {
  kf_op_t rand = nullptr;
  if (kf_op_find("rand", &rand) == KF_OK) {
    try {
      return call("rand", {ints(shape), kf_value_dtype(dtype), kf_value_device(device)});
    } catch (const Skip&) {
      // A backend without rand for this dtype: the constant below serves as well.
    }
  }
  kf_tensor_t t = nullptr;
  const kf_status_t s = kf_full(shape.data(), static_cast<int32_t>(shape.size()),
                                kf_scalar_f64(0.01), dtype, device, &t);
  if (s != KF_OK) throw Skip(with_op("full", kf_last_error_message()));
  return Tensor(t);
}

void synchronize(kf_device_t device) {
  if (kf_synchronize(device) != KF_OK) {
    throw Skip(std::string("synchronize: ") + kf_last_error_message());
  }
}

}  // namespace kf::cli::bench
