#include "testdev_kernels.hpp"

#include <string>

#include "kernforge/plugin.hpp"
#include "testdev_elements.hpp"
#include "testdev_hooks.hpp"
#include "testdev_queues.hpp"

namespace kf::testdev {
namespace {

namespace ops = kf::plugin::ops;

int32_t g_neg_op = -1, g_mul_op = -1;  // the ops the fallback serves (find_fallback_ops)

float scalar_f32(const kf_scalar_t& s) {
  switch (s.tag) {
    case KF_SCALAR_FLOAT64: return static_cast<float>(s.v.f64);
    case KF_SCALAR_INT64: return static_cast<float>(s.v.i64);
    default: return s.v.b ? 1.0f : 0.0f;
  }
}

void add_f32(const ops::add::Args& a) {
  hooks().add_calls->fetch_add(1, std::memory_order_relaxed);
  const float alpha = scalar_f32(a.alpha);
  for_each(a.out, [alpha](char* o, const char* x, const char* y) {
    store(o, load<float>(x) + alpha * load<float>(y));
  }, a.self, a.other);
}

void copy__kernel(const ops::copy_::Args& a) { convert_into(a.out, a.src); }

void to_dtype_kernel(const ops::to_dtype::Args& a) {
  if (a.out.dtype != a.dtype) {
    throw kf::plugin::KernelError(KF_INTERNAL, "testdev: to_dtype output has dtype " +
                                                   std::to_string(a.out.dtype) + ", expected " +
                                                   std::to_string(a.dtype));
  }
  convert_into(a.out, a.self);
}

#if KF_TESTDEV_ASYNC
// Element (batch..., k) of `v`, whose last dim is the reduction's.
float at(const kf_tensor_view_t& v, const int64_t* batch, int32_t nbatch, int64_t k) {
  int64_t off = k * v.strides[v.ndim - 1];
  for (int32_t d = 0; d < nbatch; ++d) off += batch[d] * v.strides[d];
  return load<float>(static_cast<const char*>(v.data) + off * 4);
}

// linear overridden: out[..., o] = sum_k input[..., k] * weight[o, k] + bias (weight 1-D: no o).
void linear_f32(const ops::linear::Args& a) {
  hooks().linear_calls->fetch_add(1, std::memory_order_relaxed);
  const kf_tensor_view_t &x = a.input, &w = a.weight, &out = a.out;
  const int64_t inner = x.shape[x.ndim - 1];
  const int32_t nbatch = x.ndim - 1;
  int64_t idx[KF_MAX_NDIM] = {};
  for (int64_t n = 0; n < out.numel; ++n) {
    float acc = a.bias != nullptr ? load<float>(address(*a.bias, out, idx)) : 0.0f;
    for (int64_t k = 0; k < inner; ++k) {
      const float wk = w.ndim == 2 ? at(w, &idx[out.ndim - 1], 1, k) : at(w, nullptr, 0, k);
      acc += at(x, idx, nbatch, k) * wk;
    }
    store(address(out, out, idx), acc);
    for (int32_t d = out.ndim - 1; d >= 0; --d) {
      if (++idx[d] < out.shape[d]) break;
      idx[d] = 0;
    }
  }
}

// cdev::scale (an op of the cdev plugin): out = factor * self, float32.
kf_status_t scale_f32(const kf_kernel_call_t* call) {
  hooks().scale_calls->fetch_add(1, std::memory_order_relaxed);
  const float factor = static_cast<float>(call->args[0].v.f);
  for_each(call->outputs[0], [factor](char* o, const char* x) {
    store(o, factor * load<float>(x));
  }, call->inputs[0]);
  return KF_OK;
}

// The fallback's work: int16 neg and mul, by op id.
kf_status_t fallback_compute(const kf_kernel_call_t* call) {
  hooks().fallback_calls->fetch_add(1, std::memory_order_relaxed);
  const kf_tensor_view_t& out = call->outputs[0];
  if (call->op == g_neg_op) {
    for_each(out, [](char* o, const char* x) {
      store(o, static_cast<int16_t>(-load<int16_t>(x)));
    }, call->inputs[0]);
  } else {
    for_each(out, [](char* o, const char* x, const char* y) {
      store(o, static_cast<int16_t>(load<int16_t>(x) * load<int16_t>(y)));
    }, call->inputs[0], call->inputs[1]);
  }
  return KF_OK;
}

// The backend's own boxed fallback: decides at once whether it serves the op, then queues.
kf_status_t fallback(const kf_kernel_call_t* call) {
  if (call->op != g_neg_op && call->op != g_mul_op) {
    kf::plugin::set_error("testasync's fallback serves neg and mul only, not op " +
                          std::to_string(call->op));
    return KF_UNIMPLEMENTED;
  }
  return maybe_queued<fallback_compute>(call);
}

#endif  // KF_TESTDEV_ASYNC

/// Registers typed kernel `fn` of op `Op`, queued in the async build.
template <class Op, void (*Fn)(const typename Op::Args&)>
kf_status_t register_typed(const kf_registrar_t* reg, uint32_t mask, int32_t line) {
  kf_kernel_desc_t desc{};
  desc.struct_size = sizeof(desc);
  desc.op_name = Op::kName;
  desc.schema_hash = Op::kSchemaHash;
  desc.dtype_mask = mask;
  desc.fn = &maybe_queued<&kf::plugin::trampoline<Op, Fn>>;
  desc.file = __FILE__;
  desc.line = line;
  return reg->register_kernel(reg->ctx, &desc);
}

#if KF_TESTDEV_ASYNC
kf_status_t register_async_extras(const kf_registrar_t* reg) {
  const uint32_t f32 = kf::plugin::dtypes({KF_FLOAT32});
  if (kf_status_t s = register_typed<ops::linear, linear_f32>(reg, f32, __LINE__); s != KF_OK) {
    return s;
  }
  kf_kernel_desc_t desc{};
  desc.struct_size = sizeof(desc);
  desc.op_name = "cdev::scale";  // defined by the cdev plugin: skipped with a warning without it
  desc.dtype_mask = f32;
  desc.fn = &maybe_queued<scale_f32>;
  desc.file = __FILE__;
  desc.line = __LINE__;
  if (kf_status_t s = reg->register_kernel(reg->ctx, &desc); s != KF_OK) return s;
  return reg->register_fallback(reg->ctx, fallback, kf::plugin::dtypes({KF_INT16}));
}
#endif

}  // namespace

void find_fallback_ops(const kf_host_api_t* host) {
  host->op_find("neg", &g_neg_op);
  host->op_find("mul", &g_mul_op);
}

kf_status_t register_testdev_kernels(const kf_registrar_t* reg) {
  if (reg == nullptr || reg->register_kernel == nullptr) return KF_INVALID_ARGUMENT;
  // Every dtype but the complex ones, which element access here does not read (they go to the
  // CPU fallback).
  const uint32_t all = kf::plugin::kAllDtypes & ~kf::kComplexDtypes;
  if (kf_status_t s = register_typed<ops::add, add_f32>(reg, kf::plugin::dtypes({KF_FLOAT32}),
                                                        __LINE__);
      s != KF_OK) {
    return s;
  }
  if (kf_status_t s = register_typed<ops::copy_, copy__kernel>(reg, all, __LINE__); s != KF_OK) {
    return s;
  }
  if (kf_status_t s = register_typed<ops::to_dtype, to_dtype_kernel>(reg, all, __LINE__);
      s != KF_OK) {
    return s;
  }
#if KF_TESTDEV_ASYNC
  return register_async_extras(reg);
#else
  return KF_OK;
#endif
}

}  // namespace kf::testdev
