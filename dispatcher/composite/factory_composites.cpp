// Composite creation ops: empty (core allocation, no kernel) and the *_like family (rand_like
// and randn_like draw from the device's generator like rand and randn).
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/scalar_conversion.hpp"
#include "core_ops.hpp"
#include "dispatch/call_args.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf::composite {

void empty(const CallArgs& a, TensorRef* outs) {
  const IntListView size = a.ints(0);
  outs[0] = TensorRef(new_tensor(size.data, size.len, a.dtype_or(1, KF_FLOAT32),
                                 a.device_or(2, kf_device_cpu())));
}

void empty_like(const CallArgs& a, TensorRef* outs) {
  const TensorImpl& t = a.tensor(0);
  outs[0] = TensorRef(new_tensor(t.shape, t.ndim, a.dtype_or(1, t.dtype), t.device));
}

void zeros_like(const CallArgs& a, TensorRef* outs) {
  const TensorImpl& t = a.tensor(0);
  outs[0] = ops::zeros(IntListView(t.shape, t.ndim), a.dtype_or(1, t.dtype), t.device);
}

void ones_like(const CallArgs& a, TensorRef* outs) {
  const TensorImpl& t = a.tensor(0);
  outs[0] = ops::ones(IntListView(t.shape, t.ndim), a.dtype_or(1, t.dtype), t.device);
}

// full's meta checks the value again; this check names full_like (Note [Scalars to dtypes]).
void full_like(const CallArgs& a, TensorRef* outs) {
  const TensorImpl& t = a.tensor(0);
  const kf_dtype_t d = a.dtype_or(2, t.dtype);
  (void)scalar_to_dtype(a.scalar(1), d, "full_like", "fill_value");
  outs[0] = ops::full(IntListView(t.shape, t.ndim), a.scalar(1), d, t.device);
}

namespace {

kf_dtype_t random_dtype(const CallArgs& a) {
  const kf_dtype_t d = a.dtype_or(1, a.tensor(0).dtype);
  if (!is_floating(d)) {
    fail(KF_INVALID_ARGUMENT, "{}: dtype {} is not supported: random numbers need a floating "
         "dtype (pass dtype= for an integer or bool self)", a.name(), dtype_name(d));
  }
  return d;
}

}  // namespace

void rand_like(const CallArgs& a, TensorRef* outs) {
  const TensorImpl& t = a.tensor(0);
  outs[0] = ops::rand(IntListView(t.shape, t.ndim), random_dtype(a), t.device);
}

void randn_like(const CallArgs& a, TensorRef* outs) {
  const TensorImpl& t = a.tensor(0);
  outs[0] = ops::randn(IntListView(t.shape, t.ndim), random_dtype(a), t.device);
}

}  // namespace kf::composite
