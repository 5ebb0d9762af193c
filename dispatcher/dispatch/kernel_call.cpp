#include "dispatch/kernel_call.hpp"

#include "core/device_types.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core_ops.hpp"
#include "device/backend_registry.hpp"
#include "device/stream.hpp"
#include "dispatch/call_plan.hpp"
#include "dispatch/cpu_fallback.hpp"
#include "dispatch/dispatch.hpp"
#include "dispatch/kernel_choice.hpp"
#include "dispatch/kernel_invoke.hpp"
#include "dispatch/meta_call.hpp"
#include "dispatch/negative_strides.hpp"
#include "dispatch/tensor_moves.hpp"
#include "registry/boxing.hpp"

namespace kf {
namespace {

// Inputs as the kernel sees them. Temporaries (conversions, copies) are rare, so they are
// held in a counted array that costs nothing when empty.
struct Prepared {
  kf_tensor_view_t views[kMaxTensorArgs];
  int64_t strides[kMaxTensorArgs][KF_MAX_NDIM];
  TensorImpl* temps[3 * kMaxTensorArgs];  // device move, conversion, flip or contiguous copy
  int32_t ntemps = 0;

  Prepared() = default;
  Prepared(const Prepared&) = delete;
  Prepared& operator=(const Prepared&) = delete;
  ~Prepared() {
    for (int32_t i = 0; i < ntemps; ++i) release(temps[i]);
  }
  TensorImpl* keep(TensorImpl* t) {
    temps[ntemps++] = t;
    return t;
  }
};

bool same_shape(const int64_t* a, int32_t na, const int64_t* b, int32_t nb) {
  if (na != nb) return false;
  for (int32_t i = 0; i < na; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

// Makes `v` (already valid for `t`) look like `t` expanded to the output's shape.
void broadcast_view(kf_tensor_view_t& v, const OutputMeta& o, int64_t* strides) {
  const int32_t lead = o.ndim - v.ndim;
  for (int32_t i = 0; i < o.ndim; ++i) {
    const int32_t j = i - lead;
    strides[i] = (j < 0 || v.shape[j] == 1) ? 0 : v.strides[j];
  }
  v.ndim = o.ndim;
  v.shape = o.shape;
  v.strides = strides;
  v.numel = 1;
  for (int32_t i = 0; i < o.ndim; ++i) v.numel *= o.shape[i];
}

kf_tensor_view_t undefined_view() {
  kf_tensor_view_t v{};
  v.ndim = -1;
  return v;
}

void prepare_inputs(const CallArgs& a, const MetaResult& m, kf_dtype_t compute, uint32_t flags,
                    Prepared& p) {
  const OutputMeta& o = m.out[0];
  for (int32_t k = 0; k < a.def->ntensor_args; ++k) {
    TensorImpl* t = a.tensors[a.tensor_index[k]];
    if (t == nullptr) {
      p.views[k] = undefined_view();
      continue;
    }
    if (t->device != m.device) t = p.keep(tensor_to(*t, m.device, t->dtype));
    if (((m.convert_mask >> k) & 1u) != 0 && t->dtype != compute) {
      t = p.keep(ops::to_dtype(*t, compute).take());
    }
    if ((flags & KF_KERNEL_NEGATIVE_STRIDES) == 0 && has_negative_stride(*t)) {
      t = p.keep(without_negative_strides(*t));  // Note [Views of negative stride]
    }
    const bool bcast = ((m.broadcast_mask >> k) & 1u) != 0 &&
                       !same_shape(t->shape, t->ndim, o.shape, o.ndim);
    if ((flags & KF_KERNEL_NEEDS_CONTIGUOUS) != 0 && (bcast || !is_contiguous(*t))) {
      TensorRef expanded = bcast ? ops::expand(*t, IntListView(o.shape, o.ndim)) : TensorRef();
      t = p.keep(ops::contiguous(expanded ? *expanded : *t).take());
      p.views[k] = kernel_view(*t);
      continue;
    }
    p.views[k] = kernel_view(*t);
    if (bcast) broadcast_view(p.views[k], o, p.strides[k]);
  }
}

/// The dtypes the tensor inputs reach the kernel in: their own, or the compute dtype for those
/// the meta converts.
uint32_t input_dtypes(const CallArgs& a, const MetaResult& m) {
  uint32_t mask = is_valid_dtype(m.compute_dtype) ? dtype_bit(m.compute_dtype) : 0u;
  for (int32_t k = 0; k < a.def->ntensor_args; ++k) {
    const TensorImpl* t = a.tensors[a.tensor_index[k]];
    if (t != nullptr && ((m.convert_mask >> k) & 1u) == 0 && is_valid_dtype(t->dtype)) {
      mask |= dtype_bit(t->dtype);
    }
  }
  return mask;
}

// Decides how Out/Inplace outputs are written; returns false when a temporary is needed.
bool outputs_direct(const CallArgs& a, CallMode mode, TensorImpl* const* given, MetaResult& m) {
  if (mode == CallMode::Functional) return true;
  bool direct = true;
  for (int32_t i = 0; i < m.nout; ++i) {
    const TensorImpl& g = *given[i];
    const OutputMeta& o = m.out[i];
    if (!same_shape(o.shape, o.ndim, g.shape, g.ndim)) {
      fail(KF_INVALID_ARGUMENT, "{}: the result has shape {} but {} has shape {}{}", a.name(),
           shape_string(o.shape, o.ndim), mode == CallMode::Out ? "out" : "self (in place)",
           shape_string(g.shape, g.ndim),
           mode == CallMode::Out ? "; pass an out of the result's shape" : "");
    }
    // Written tensors that share memory were refused or handled before (check_written).
    if (g.device != m.device) {
      fail(KF_INVALID_ARGUMENT, "{}: out is on {} but the inputs are on {}", a.name(),
           device_string(g.device), device_string(m.device));
    }
    if (g.dtype == o.dtype) continue;
    if (!can_cast(o.dtype, g.dtype)) {
      fail(KF_INVALID_ARGUMENT, "{}: the result type {} can't be cast to the output's dtype {}",
           a.name(), dtype_name(o.dtype), dtype_name(g.dtype));
    }
    if (m.compute_in_out_dtype && m.nout == 1) {
      m.compute_dtype = g.dtype;
      m.out[0].dtype = g.dtype;
    } else {
      direct = false;
    }
  }
  return direct;
}

void run_through_temporary(const CallArgs& a, TensorImpl* const* given) {
  TensorImpl* results[kMaxOutputs] = {};
  run_op(a, CallMode::Functional, nullptr, results);
  TensorRef held[kMaxOutputs];
  for (int32_t i = 0; i < a.def->nreturns; ++i) held[i] = TensorRef(results[i]);
  for (int32_t i = 0; i < a.def->nreturns; ++i) ops::copy_(*given[i], *held[i]);
}

// Allocates the outputs, prepares the inputs and calls the chosen kernel or fallback.
void call_kernel(const CallArgs& a, CallMode mode, TensorImpl* const* given,
                 TensorImpl** results, const MetaResult& m, const Backend& b,
                 const KernelChoice& choice) {
  const OpDef& def = *a.def;
  Prepared p;
  prepare_inputs(a, m, m.compute_dtype, choice.flags, p);
  TensorRef owned[kMaxOutputs];
  kf_tensor_view_t outs[kMaxOutputs];
  for (int32_t i = 0; i < m.nout; ++i) {
    const OutputMeta& o = m.out[i];
    TensorImpl* t = given != nullptr && mode != CallMode::Functional ? given[i] : nullptr;
    if (t == nullptr) {
      t = (owned[i] = TensorRef(new_output(b, o.shape, o.ndim, o.dtype, m.device))).get();
    }
    outs[i] = kernel_view(*t);
  }
  kf_arg_t kargs[kMaxArgs];
  int32_t nk = 0;
  for (int32_t i = 0; i < def.nargs; ++i) {
    if (def.args[i].type != ArgType::Tensor) put_kernel_arg(&kargs[nk++], a.v[i]);
  }
  const kf_kernel_call_t call{sizeof(kf_kernel_call_t), def.id, def.ntensor_args, p.views,
                              m.nout, outs, nk, kargs,
                              native_stream(current_stream(m.device)), b.plugin_state()};
  invoke_kernel(choice.fn, call, def, b);
  if (mode == CallMode::Functional) {
    for (int32_t i = 0; i < m.nout; ++i) results[i] = owned[i].take();
  }
}

// run_kernel again, for a call whose written tensors were replaced (run_into_temporaries).
void rerun_kernel(const CallArgs& a, CallMode mode, TensorImpl* const* given,
                  TensorImpl** results) {
  run_kernel(a, mode, given, results);
}

}  // namespace

void check_output_fits(const OpDef& def, const TensorImpl& r, const TensorImpl& g,
                       CallMode mode) {
  if (!same_shape(r.shape, r.ndim, g.shape, g.ndim)) {
    fail(KF_INVALID_ARGUMENT, "{}: the result has shape {} but {} has shape {}", def.name,
         shape_string(r.shape, r.ndim), mode == CallMode::Out ? "out" : "self (in place)",
         shape_string(g.shape, g.ndim));
  }
  if (!can_cast(r.dtype, g.dtype)) {
    fail(KF_INVALID_ARGUMENT, "{}: the result type {} can't be cast to the output's dtype {}",
         def.name, dtype_name(r.dtype), dtype_name(g.dtype));
  }
}

bool run_kernel(const CallArgs& a, CallMode mode, TensorImpl* const* given,
                TensorImpl** results) {
  const OpDef& def = *a.def;
  MetaResult m;
  compute_meta(a, m);
  if (!outputs_direct(a, mode, given, m)) {
    run_through_temporary(a, given);
    return true;
  }
  const Backend& b = require_device(m.device);
  const KernelChoice choice = choose_kernel_for_inputs(def, b, m.compute_dtype, input_dtypes(a, m));
  switch (choice.kind) {
    case KF_KERNEL_BACKEND:
    case KF_KERNEL_BACKEND_FALLBACK:
      if ((choice.flags & KF_KERNEL_NEGATIVE_STRIDES) == 0 &&
          writes_negative_strides(a, mode, given)) {
        run_into_temporaries(a, mode, given, results, rerun_kernel);
        return true;
      }
      call_kernel(a, mode, given, results, m, b, choice);
      if (mode == CallMode::Functional) keep_plan(a, m, b, choice);
      return true;
    case KF_KERNEL_COMPOSITE:
      return false;
    case KF_KERNEL_FALLBACK:
      run_cpu_fallback(a, mode, given, results, m, b);
      return true;
    default:
      fail_unimplemented(def, m.compute_dtype, b);
  }
}

}  // namespace kf
