// Scalar operands of the pointwise ops. A Python number or a C scalar reaches a pointwise op as a
// 0-dim CPU tensor, which result_type ranks below dimensioned tensors (NEP 50's weak scalars,
// PyTorch's wrapped numbers): `int8_tensor + 300` computes in int8. Converting that operand to
// the op's dtype is a scalar becoming a value of a dtype, so it follows the one rule, Note
// [Scalars to dtypes] (core/scalar_conversion.hpp): 300 for int8 is refused, 2.5 beside an
// int8 tensor promotes to float32 instead (result_type). A 0-dim tensor on another device is
// converted like any tensor (a cast): reading its value would wait for its stream.
#include "core/scalar_conversion.hpp"
#include "core/error.hpp"
#include "meta/meta_util.hpp"

namespace kf::meta {
namespace {

// The tensor of ordinal k when it is a scalar operand converted to `to`, else nullptr.
const TensorImpl* scalar_operand(const CallArgs& a, int32_t k, kf_dtype_t to) {
  const TensorImpl* t = a.tensors[a.tensor_index[k]];
  if (t == nullptr || t->ndim != 0 || t->device.type != KF_DEVICE_CPU || t->dtype == to) {
    return nullptr;
  }
  return t;
}

}  // namespace

void check_scalar_operands(const CallArgs& a, uint32_t mask, kf_dtype_t to) {
  for (int32_t k = 0; k < a.def->ntensor_args; ++k) {
    if (((mask >> k) & 1u) == 0) continue;
    const TensorImpl* t = scalar_operand(a, k, to);
    if (t == nullptr) continue;
    const kf_scalar_t v = scalar_of_element(data_ptr(*t), t->dtype);
    (void)scalar_to_dtype(v, to, a.name(), a.def->args[a.tensor_index[k]].name);
  }
}

bool scalar_operands_fit(const CallArgs& a, uint32_t mask, kf_dtype_t to) {
  for (int32_t k = 0; k < a.def->ntensor_args; ++k) {
    if (((mask >> k) & 1u) == 0) continue;
    const TensorImpl* t = scalar_operand(a, k, to);
    if (t == nullptr) continue;
    if (!representable(convert_scalar(scalar_of_element(data_ptr(*t), t->dtype), to).fit)) {
      return false;
    }
  }
  return true;
}

}  // namespace kf::meta
