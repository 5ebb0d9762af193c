#include "dispatch/call_plan.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>

#include "core/error.hpp"
#include "core/tls_model.hpp"
#include "device/stream.hpp"
#include "dispatch/kernel_invoke.hpp"
#include "dispatch/layers.hpp"
#include "dispatch/negative_strides.hpp"
#include "registry/boxing.hpp"
#include "registry/op_registry.hpp"
#include "registry/kernel_table.hpp"

namespace kf {
namespace {

constexpr int32_t kPlans = 64;        // per thread, by op id
constexpr int32_t kPlanTensors = 4;
constexpr int32_t kPlanDims = 8;
constexpr int32_t kPlanArgs = 6;
constexpr int32_t kPlanListValues = 8;

// A tensor's dtype, rank and device as they lie in TensorImpl (ndim, dtype, device: two 64-bit
// words), compared word by word, then its shape.
struct TensorKey {
  int32_t ndim;
  kf_dtype_t dtype;
  kf_device_t device;
  int64_t shape[kPlanDims];
};

// What a call must match, and the plan it gets.
struct Entry {
  uint64_t generation = 0;  // 0: empty
  int32_t op = -1;
  int32_t ntensors = 0;
  int32_t nvalues = 0;
  TensorKey tensors[kPlanTensors];
  kf_value_t values[kPlanArgs];
  int64_t lists[kPlanArgs][kPlanListValues];  // the contents of int-list arguments
  uint32_t tensor_mask = 0;                   // bit i: argument i is a tensor
  CallPlan plan;
};

thread_local Entry* t_plans KF_TLS_INITIAL_EXEC = nullptr;

bool same_value(const kf_value_t& a, const kf_value_t& b, const int64_t* list) {
  if (a.tag != b.tag) return false;
  switch (a.tag) {
    case KF_VALUE_NONE: return true;
    case KF_VALUE_INT_LIST:
      return a.v.ints.len == b.v.ints.len &&
             (a.v.ints.len == 0 ||
              (a.v.ints.data != nullptr &&
               std::memcmp(a.v.ints.data, list, sizeof(int64_t) * a.v.ints.len) == 0));
    case KF_VALUE_SCALAR:
      return a.v.scalar.tag == b.v.scalar.tag &&
             std::memcmp(&a.v.scalar.v, &b.v.scalar.v, sizeof a.v.scalar.v) == 0;
    case KF_VALUE_DEVICE:
      return a.v.device.type == b.v.device.type && a.v.device.index == b.v.device.index;
    default: return a.v.i == b.v.i;  // int, float (bits), bool, dtype
  }
}

uint64_t word(const void* p) {
  uint64_t w;
  std::memcpy(&w, p, sizeof(w));
  return w;
}

static_assert(offsetof(TensorImpl, dtype) == offsetof(TensorImpl, ndim) + 4 &&
                  offsetof(TensorImpl, device) == offsetof(TensorImpl, ndim) + 8 &&
                  offsetof(TensorKey, dtype) == 4 && offsetof(TensorKey, device) == 8,
              "TensorKey mirrors TensorImpl's ndim, dtype, device");

// Same metadata as the key, and no negative stride unless the kernel takes them (`sign`: 0
// when it does, else INT64_MIN, which catches any negative stride).
bool same_tensor(const TensorKey& k, const TensorImpl& t, int64_t sign) {
  if (word(&k.ndim) != word(&t.ndim) || word(&k.device) != word(&t.device)) return false;
  int64_t strides = 0;
  for (int32_t d = 0; d < k.ndim; ++d) {
    if (k.shape[d] != t.shape[d]) return false;
    strides |= t.strides[d];
  }
  return (strides & sign) == 0;
}

// Whether the kernel gets the call's inputs as they are (what a plan's fast path gives it).
bool inputs_pass_through(const CallArgs& a, const MetaResult& m, const KernelChoice& c) {
  if ((c.flags & KF_KERNEL_NEEDS_CONTIGUOUS) != 0) return false;
  const bool any_strides = (c.flags & KF_KERNEL_NEGATIVE_STRIDES) != 0;
  const OutputMeta& o = m.out[0];
  for (int32_t k = 0; k < a.def->ntensor_args; ++k) {
    const TensorImpl* t = a.tensors[a.tensor_index[k]];
    if (t == nullptr || t->device != m.device) return false;
    if (!any_strides && has_negative_stride(*t)) return false;
    if (((m.convert_mask >> k) & 1u) != 0 && t->dtype != m.compute_dtype) return false;
    if (((m.broadcast_mask >> k) & 1u) == 0) continue;
    if (t->ndim != o.ndim) return false;
    for (int32_t d = 0; d < o.ndim; ++d) {
      if (t->shape[d] != o.shape[d]) return false;
    }
  }
  return true;
}

// Whether a call fits an entry's fixed-size key.
bool fits(const CallArgs& a) {
  const OpDef& def = *a.def;
  if (def.ntensor_args > kPlanTensors || def.nargs - def.ntensor_args > kPlanArgs ||
      def.plugin_meta != nullptr || def.id < 0) {
    return false;
  }
  for (int32_t i = 0; i < def.nargs; ++i) {
    if (def.args[i].type == ArgType::Tensor) {
      const TensorImpl* t = a.tensors[i];
      if (t == nullptr || t->ndim > kPlanDims) return false;
    } else if (a.v[i].tag == KF_VALUE_INT_LIST && a.v[i].v.ints.len > kPlanListValues) {
      return false;
    } else if (a.v[i].tag == KF_VALUE_TENSOR_LIST) {
      return false;
    }
  }
  return true;
}

// Allocates the plan's outputs and calls its kernel on the current stream; results get one new
// reference each. On failure nothing is left allocated.
void call_plan_kernel(const CallPlan& p, const OpDef& def, const kf_tensor_view_t* inputs,
                      int32_t ninputs, const kf_arg_t* kargs, int32_t nargs,
                      TensorImpl** results) {
  const MetaResult& m = p.meta;
  Stream* stream = current_stream(m.device);
  kf_tensor_view_t outs[kMaxOutputs];
  int32_t made = 0;
  try {
    for (; made < m.nout; ++made) {
      const OutputMeta& o = m.out[made];
      results[made] = new_output_on(*p.backend, o.shape, o.ndim, o.dtype, m.device, stream);
      outs[made] = kernel_view(*results[made]);
    }
    const kf_kernel_call_t call{sizeof(kf_kernel_call_t), def.id, ninputs, inputs, m.nout,
                                outs, nargs, kargs, native_stream(stream),
                                p.backend->plugin_state()};
    invoke_kernel(p.choice.fn, call, def, *p.backend);
  } catch (...) {
    for (int32_t i = 0; i < made; ++i) release(results[i]);
    throw;
  }
}

// Frees the thread's table when the thread ends; afterwards the thread keeps no plans.
struct TableOwner {
  ~TableOwner() {
    delete[] t_plans;
    t_plans = nullptr;
    t_closed = true;
  }
  static inline thread_local bool t_closed = false;
};

Entry* table() noexcept {
  if (t_plans != nullptr || TableOwner::t_closed) return t_plans;
  static thread_local TableOwner owner;  // constructed here, before the table it frees
  (void)owner;
  t_plans = new (std::nothrow) Entry[kPlans];
  return t_plans;
}

}  // namespace

void keep_plan(const CallArgs& a, const MetaResult& m, const Backend& b,
               const KernelChoice& c) noexcept {
  if (!fits(a) || !inputs_pass_through(a, m, c)) return;
  Entry* plans = table();
  if (plans == nullptr) return;
  const OpDef& def = *a.def;
  Entry& e = plans[def.id % kPlans];
  e.generation = 0;  // incomplete while it is written
  int32_t tk = 0, vk = 0;
  for (int32_t i = 0; i < def.nargs; ++i) {
    if (def.args[i].type == ArgType::Tensor) {
      const TensorImpl& t = *a.tensors[i];
      TensorKey& k = e.tensors[tk++];
      k.ndim = t.ndim;
      k.dtype = t.dtype;
      k.device = t.device;
      for (int32_t d = 0; d < t.ndim; ++d) k.shape[d] = t.shape[d];
    } else {
      e.values[vk] = a.v[i];
      if (a.v[i].tag == KF_VALUE_INT_LIST && a.v[i].v.ints.len > 0) {
        std::memcpy(e.lists[vk], a.v[i].v.ints.data, sizeof(int64_t) * a.v[i].v.ints.len);
      }
      ++vk;
    }
  }
  e.ntensors = tk;
  e.nvalues = vk;
  e.op = def.id;
  e.tensor_mask = 0;
  for (int32_t i = 0; i < def.nargs; ++i) {
    if (def.args[i].type == ArgType::Tensor) e.tensor_mask |= 1u << i;
  }
  e.plan.meta = m;
  e.plan.backend = &b;
  e.plan.choice = c;

  e.generation = registration_generation();
}

bool run_planned(int32_t op, const kf_value_t* args, TensorImpl** results) {
  const Entry* plans = t_plans;
  if (plans == nullptr || g_active_ungated_layers.load(std::memory_order_relaxed) != 0) {
    return false;
  }
  // Only gated layers are active (or none): a tensor with layer data may interest them.
  const bool gated = g_active_layers.load(std::memory_order_relaxed) != 0;
  const Entry& e = plans[op % kPlans];
  if (e.op != op || e.generation != registration_generation()) return false;
  const OpDef& def = op < kBuiltinOpCount ? kBuiltinOps[op] : *op_by_id(op);
  const int64_t sign =
      (e.plan.choice.flags & KF_KERNEL_NEGATIVE_STRIDES) != 0 ? 0 : INT64_MIN;
  kf_tensor_view_t inputs[kPlanTensors];
  kf_arg_t kargs[kPlanArgs];
  int32_t tk = 0, vk = 0;
  for (int32_t i = 0; i < def.nargs; ++i) {
    const kf_value_t& v = args[i];
    if (((e.tensor_mask >> i) & 1u) != 0) {
      const TensorImpl* t = find_tensor(v.v.tensor);  // checks the handle's generation
      if (t == nullptr || !same_tensor(e.tensors[tk], *t, sign) ||
          (gated && t->layer_data != nullptr)) {
        return false;  // a bad handle is reported by the ordinary path
      }
      inputs[tk++] = kernel_view(*t);
    } else {
      if (!same_value(v, e.values[vk], e.lists[vk])) return false;
      put_kernel_arg(&kargs[vk++], v);
    }
  }
  call_plan_kernel(e.plan, def, inputs, tk, kargs, vk, results);
  return true;
}

}  // namespace kf
