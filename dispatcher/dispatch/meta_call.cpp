#include "dispatch/meta_call.hpp"

#include "core/device_types.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/plugin_call.hpp"
#include "registry/boxing.hpp"

namespace kf {
namespace {

// Checks what a plugin's meta wrote and copies it into `m`.
void take_outputs(const CallArgs& a, const kf_output_spec_t* specs, MetaResult& m) {
  m.nout = a.def->nreturns;
  for (int32_t i = 0; i < m.nout; ++i) {
    const kf_output_spec_t& s = specs[i];
    if (!is_valid_dtype(static_cast<kf_dtype_t>(s.dtype)) || s.ndim < 0 ||
        s.ndim > KF_MAX_NDIM) {
      fail(KF_INTERNAL, "{}: the meta function of {} returned output {} with dtype {} and {} "
                        "dims; a plugin bug", a.name(), a.def->provenance, i, s.dtype, s.ndim);
    }
    checked_numel(s.shape, s.ndim, a.name());
    m.out[i].ndim = s.ndim;
    m.out[i].dtype = static_cast<kf_dtype_t>(s.dtype);
    for (int32_t d = 0; d < s.ndim; ++d) m.out[i].shape[d] = s.shape[d];
  }
}

// Note [Meta of defined ops]
// The kernel of an op a plugin defines is chosen by the dtype of its first tensor argument (of
// its first output when it has none); inputs reach the kernel as they are (no conversion or
// broadcasting), on the call's device.
void plugin_meta(const CallArgs& a, MetaResult& m) {
  const OpDef& def = *a.def;
  kf_tensor_view_t inputs[kMaxTensorArgs];
  kf_arg_t args[kMaxArgs];
  int32_t nargs = 0;
  kf_dtype_t first = KF_DTYPE_UNDEFINED;
  for (int32_t k = 0; k < def.ntensor_args; ++k) {
    const TensorImpl* t = a.tensors[a.tensor_index[k]];
    inputs[k] = t != nullptr ? kernel_view(*t) : kf_tensor_view_t{nullptr, -1, -1, nullptr,
                                                                  nullptr, {0, 0}, 0};
    inputs[k].data = nullptr;
    if (t != nullptr && first == KF_DTYPE_UNDEFINED) first = t->dtype;
  }
  for (int32_t i = 0; i < def.nargs; ++i) {
    if (def.args[i].type != ArgType::Tensor) put_kernel_arg(&args[nargs++], a.v[i]);
  }
  kf_output_spec_t specs[kMaxOutputs] = {};
  const kf_meta_call_t call{sizeof(kf_meta_call_t), def.id, def.ntensor_args, inputs, nargs,
                            args, def.nreturns, specs, def.plugin_state};
  const PluginCall mark;
  const kf_status_t s = def.plugin_meta(&call);
  if (s != KF_OK) mark.fail(s, fmt::format("{}: the meta function of its plugin", a.name()));
  take_outputs(a, specs, m);
  m.compute_dtype = first != KF_DTYPE_UNDEFINED ? first : m.out[0].dtype;
}

}  // namespace

kf_device_t common_device(const CallArgs& a) {
  // The common case: every tensor on one device.
  const TensorImpl* first = nullptr;
  bool same = true;
  for (int32_t k = 0; k < a.def->ntensor_args && same; ++k) {
    const TensorImpl* t = a.tensors[a.tensor_index[k]];
    if (t == nullptr) continue;
    if (first == nullptr) first = t;
    same = t->device == first->device;
  }
  if (same) return first != nullptr ? first->device : kf_device_cpu();
  int32_t chosen = -1;  // schema index of the tensor that decides the device
  for (int32_t k = 0; k < a.def->ntensor_args; ++k) {
    const int32_t i = a.tensor_index[k];
    const TensorImpl* t = a.tensors[i];
    if (t == nullptr) continue;
    if (chosen < 0) {
      chosen = i;
      continue;
    }
    const TensorImpl* c = a.tensors[chosen];
    if (t->device == c->device || (t->ndim == 0 && t->device.type == KF_DEVICE_CPU)) continue;
    if (c->ndim == 0 && c->device.type == KF_DEVICE_CPU) {
      chosen = i;
      continue;
    }
    fail(KF_INVALID_ARGUMENT,
         "{}: expected all tensors on one device, but argument '{}' is on {} and argument '{}' "
         "is on {}; move one with kf_tensor_to", a.name(), a.def->args[chosen].name,
         device_string(c->device), a.def->args[i].name, device_string(t->device));
  }
  return chosen < 0 ? kf_device_cpu() : a.tensors[chosen]->device;
}

void compute_meta(const CallArgs& a, MetaResult& m) {
  m.device = common_device(a);
  m.nout = a.def->nreturns;  // the schema's count: a meta function fills out[0..nout)
  if (a.def->plugin_meta != nullptr) {
    plugin_meta(a, m);
  } else {
    a.def->meta(a, m);
  }
  // Broadcasting, matmul and the factories multiply sizes: nothing is computed from an output
  // shape that does not fit (Note [Layout rules]).
  for (int32_t i = 0; i < m.nout; ++i) {
    check_shape(m.out[i].shape, m.out[i].ndim, itemsize(m.out[i].dtype), a.name());
  }
}

}  // namespace kf
