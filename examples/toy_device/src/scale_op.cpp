// scale_op.cpp — toy::scale, an op the toy plugin brings itself (plugin ABI 1.2, define_op),
// with its backward (2.1).
//
//   toy::scale(Tensor self, float factor) -> Tensor        self * factor, float32
//
// An op a plugin defines is as much an op as the core's own: kf_op_find("toy::scale") finds
// it, kf_op_call calls it, `kernforge ops` lists it, and any plugin loaded later may register a
// kernel for it on its device. Defining it takes three parts:
//  1. the schema, in the grammar of the core's op list, with a namespace ("toy::");
//  2. the meta function, which gives the output's shape and dtype from the inputs' (the core
//     then allocates the output); for a plain argument list a rule of the core may be named
//     instead (meta_rule, docs/ops.md lists them);
//  3. a kernel, registered like any other, by the op's full name. There is no generated Args
//     struct for a plugin's op, so the kernel reads kf_kernel_call_t itself: inputs, outputs
//     and the non-tensor arguments in schema order (here args[0] is `factor`, a double).
// And, for autograd (plugin ABI 2.1), its backward: a formula per differentiable tensor
// argument in the grammar of the core's derivatives.yaml. d(self * factor)/d self is factor,
// so the gradient of self is the output's gradient scaled by factor: toy::scale itself, which
// keeps the backward on the toy device. Without a backward, a call with an input that requires
// grad would be refused, naming the op.
#include <cstddef>
#include <cstdint>

#include "kernforge/plugin.hpp"
#include "strided.hpp"
#include "toy.hpp"

namespace toy {
namespace {

constexpr const char* kSchema = "toy::scale(Tensor self, float factor) -> Tensor";
constexpr kf_backward_formula_t kBackward[] = {{"self", "toy::scale(grad, factor)"}};

// The output has self's shape and dtype. Integers are refused here, before anything is
// allocated, with a message that says what to do.
kf_status_t scale_meta(const kf_meta_call_t* call) {
  const kf_tensor_view_t& self = call->inputs[0];
  if (kf_dtype_kind(self.dtype) != 'f') {
    return fail(KF_INVALID_ARGUMENT,
                "scale: self must be a floating-point tensor, got %s; convert it first "
                "(kf_to_dtype)", kf_dtype_string(self.dtype));
  }
  kf_output_spec_t& out = call->outputs[0];
  out.dtype = self.dtype;
  out.ndim = self.ndim;
  for (int32_t d = 0; d < self.ndim; ++d) out.shape[d] = self.shape[d];
  return KF_OK;
}

// out = self * factor. Computed in float: a float32 op rounds the factor to float32 first.
kf_status_t scale_f32(const kf_kernel_call_t* call) noexcept {
  const kf_tensor_view_t& self = call->inputs[0];
  const kf_tensor_view_t& out = call->outputs[0];
  const float factor = static_cast<float>(call->args[0].v.f);
  const kf_tensor_view_t* views[] = {&out, &self};
  for_each_element(views, [&](const int64_t* at) {
    element<float>(out, at[0]) = element<float>(self, at[1]) * factor;
  });
  return KF_OK;  // nothing above can throw: no try/catch needed at this C boundary
}

}  // namespace

kf_status_t define_scale_op(const kf_registrar_t* reg) {
  // define_op exists from plugin ABI 1.2: a host that hands a shorter registrar lacks it.
  const size_t needed = offsetof(kf_registrar_t, define_op) + sizeof reg->define_op;
  if (reg->struct_size < needed || reg->define_op == nullptr) {
    return fail(KF_ABI_MISMATCH, "toy::scale needs a host with plugin ABI 1.2 (define_op)");
  }
  kf_op_definition_t def{};
  def.struct_size = sizeof def;
  def.schema = kSchema;
  def.doc = "self * factor on the toy device (an op the toy plugin defines), float32.";
  def.meta = scale_meta;
  def.file = __FILE__;
  def.line = __LINE__;
  def.backward_formulas = kBackward;  // plugin ABI 2.1: a 2.0 host reads none of it
  def.nbackward_formulas = 1;
  if (const kf_status_t s = reg->define_op(reg->ctx, &def); s != KF_OK) return s;

  kf_kernel_desc_t kernel{};
  kernel.struct_size = sizeof kernel;
  kernel.op_name = "toy::scale";
  kernel.schema_hash = 0;  // no generated hash for a plugin's own op
  kernel.dtype_mask = kf::plugin::dtypes({KF_FLOAT32});
  kernel.fn = scale_f32;
  kernel.file = __FILE__;
  kernel.line = __LINE__;
  return reg->register_kernel(reg->ctx, &kernel);
}

}  // namespace toy
