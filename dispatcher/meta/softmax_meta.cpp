// Meta function of softmax: the output has self's shape; its dtype is dtype= when given, else
// self's, and must be floating point (PyTorch refuses an integer or bool softmax without one).
// The core converts self to that dtype before the kernel (convert_mask), so a kernel sees input
// and output of one floating dtype.
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "meta/meta_util.hpp"

namespace kf::meta {

void softmax(const CallArgs& a, MetaResult& m) {
  const TensorImpl& self = a.tensor(0);
  wrap_dim(a.name(), a.int_arg(1), self.ndim);  // throws naming the dim and the valid range
  const kf_dtype_t d = a.dtype_or(2, self.dtype);
  if (!is_floating(d)) {
    if (a.none(2)) {
      fail(KF_INVALID_ARGUMENT,
           "{}: the input is {}; softmax needs a floating-point input, or pass a floating-point "
           "dtype= (e.g. float32) to convert it first", a.name(), dtype_name(d));
    }
    fail(KF_INVALID_ARGUMENT, "{}: dtype={} is not a floating-point dtype (use float32, float64, "
         "float16 or bfloat16)", a.name(), dtype_name(d));
  }
  same_shape(self, m.out[0]);
  m.out[0].dtype = d;
  m.compute_dtype = d;
  m.convert_mask = 0x1;
}

}  // namespace kf::meta
