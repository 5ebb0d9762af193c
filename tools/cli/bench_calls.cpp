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

kf_value_t tensor(const Tensor& t) {
  kf_value_t v{};
  v.tag = KF_VALUE_TENSOR;
  v.v.tensor = t.get();
  return v;
}
kf_value_t integer(int64_t i) {
  kf_value_t v{};
  v.tag = KF_VALUE_INT;
  v.v.i = i;
  return v;
}
kf_value_t floating(double f) {
  kf_value_t v{};
  v.tag = KF_VALUE_FLOAT;
  v.v.f = f;
  return v;
}
kf_value_t boolean(bool b) {
  kf_value_t v{};
  v.tag = KF_VALUE_BOOL;
  v.v.b = b;
  return v;
}
kf_value_t ints(const std::vector<int64_t>& list) {
  kf_value_t v{};
  v.tag = KF_VALUE_INT_LIST;
  v.v.ints.data = list.data();
  v.v.ints.len = static_cast<int32_t>(list.size());
  return v;
}
kf_value_t none() { return kf_value_t{}; }

Tensor call(const char* name, std::initializer_list<kf_value_t> args) {
  kf_op_t op = nullptr;
  if (kf_op_find(name, &op) != KF_OK) {
    throw Skip(std::string("needs the op '") + name + "', which this kernforge does not have");
  }
  kf_value_t result{};
  const kf_status_t s = kf_op_call(op, args.begin(), static_cast<int32_t>(args.size()), &result, 1);
  if (s != KF_OK) throw Skip(with_op(name, kf_last_error_message()));
  return Tensor(result.v.tensor);
}

Tensor filled(const std::vector<int64_t>& shape, kf_dtype_t dtype, kf_device_t device) {
  kf_op_t rand = nullptr;
  if (kf_op_find("rand", &rand) == KF_OK) {
    kf_value_t dt{};
    dt.tag = KF_VALUE_DTYPE;
    dt.v.dtype = dtype;
    kf_value_t dev{};
    dev.tag = KF_VALUE_DEVICE;
    dev.v.device = device;
    try {
      return call("rand", {ints(shape), dt, dev});
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
