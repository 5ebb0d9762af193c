// Note [CPU fallback]
// When a backend has no kernel for (op, dtype), the call runs on the CPU backend: tensor
// arguments are copied to the CPU, the op runs there, and results are copied back to the
// device (or into the given out/self). It is on by default and warns once per op and backend;
// KERNFORGE_CPU_FALLBACK=0 turns it off. Otherwise the call fails with KF_UNIMPLEMENTED naming
// the op, the dtype and the backends that do have a kernel.
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "core/device_types.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/logging.hpp"
#include "dispatch/internal_ops.hpp"
#include "dispatch/kernel_call.hpp"
#include "dispatch/kernel_table.hpp"

namespace kf {

bool cpu_fallback_enabled() {
  static const bool enabled = [] {
    const char* v = std::getenv("KERNFORGE_CPU_FALLBACK");
    return v == nullptr || std::strcmp(v, "0") != 0;
  }();
  return enabled;
}

namespace {

void warn_once(const OpDef& def, const Backend& backend) {
  static std::mutex mutex;
  static std::set<std::pair<int32_t, int32_t>> warned;
  std::lock_guard<std::mutex> lock(mutex);
  if (!warned.insert({def.id, backend.slot}).second) return;
  log().warn("{}: backend '{}' has no kernel; running it on the CPU (copies to and from the "
             "device). Set KERNFORGE_CPU_FALLBACK=0 to make this an error.", def.name,
             backend.name);
}

std::string dtypes_of(uint32_t mask) {
  std::string s;
  for (int32_t d = 0; d < KF_DTYPE_COUNT; ++d) {
    if ((mask & (1u << d)) != 0) {
      s += (s.empty() ? "" : ", ") + std::string(dtype_name(static_cast<kf_dtype_t>(d)));
    }
  }
  return s.empty() ? "none" : s;
}

[[noreturn]] void unimplemented(const OpDef& def, kf_dtype_t dtype, const Backend& backend) {
  std::string with;
  for (int32_t s = 0; s < kMaxBackendSlots; ++s) {
    const Backend* b = backend_at_slot(s);
    const KernelEntry* e = b != nullptr ? lookup_kernels(def.id, s) : nullptr;
    if (e != nullptr && e->fn[dtype] != nullptr) with += (with.empty() ? "" : ", ") + b->name;
  }
  const KernelEntry* own = lookup_kernels(def.id, backend.slot);
  fail(KF_UNIMPLEMENTED,
       "{}: backend '{}' has no kernel for dtype {} (it has: {}); backends with a {} kernel: "
       "{}", def.name, backend.name, dtype_name(dtype),
       dtypes_of(own != nullptr ? own->dtype_mask : 0), dtype_name(dtype),
       with.empty() ? "none" : with);
}

void move_args_to_cpu(CallArgs& c, TensorRef* moved) {
  const kf_device_t cpu = kf_device_cpu();
  for (int32_t k = 0; k < c.def->ntensor_args; ++k) {
    const int32_t i = c.tensor_index[k];
    TensorImpl* t = c.tensors[i];
    if (t == nullptr || t->device.type == KF_DEVICE_CPU) continue;
    moved[k] = TensorRef(op_to_device(*t, cpu));
    c.tensors[i] = moved[k].get();
    c.owned[i].v.tensor = moved[k].get();
  }
  for (int32_t i = 0; i < c.def->nargs; ++i) {
    if (c.def->args[i].type == ArgType::Device && c.v[i].tag == KF_VALUE_DEVICE) {
      c.owned[i].v.device = cpu;
    }
  }
}

}  // namespace

void run_fallback(const CallArgs& a, CallMode mode, TensorImpl* const* given,
                  TensorImpl** results, const MetaResult& m, const Backend& backend) {
  const OpDef& def = *a.def;
  const Backend* cpu = backend_for_device_type(KF_DEVICE_CPU);
  const KernelEntry* ce = cpu != nullptr && cpu != &backend ? lookup_kernels(def.id, cpu->slot)
                                                            : nullptr;
  if (ce == nullptr || ce->fn[m.compute_dtype] == nullptr || !cpu_fallback_enabled()) {
    unimplemented(def, m.compute_dtype, backend);
  }
  warn_once(def, backend);
  CallArgs c = a;
  own_args(c);
  TensorRef moved[kMaxTensorArgs];
  move_args_to_cpu(c, moved);
  TensorImpl* r[kMaxOutputs] = {};
  run_kernel(c, CallMode::Functional, nullptr, r);
  TensorRef held[kMaxOutputs];
  for (int32_t i = 0; i < def.nreturns; ++i) held[i] = TensorRef(r[i]);
  for (int32_t i = 0; i < def.nreturns; ++i) {
    TensorRef back(op_to_device(*held[i], m.device));
    if (mode == CallMode::Functional) {
      results[i] = back.take();
    } else {
      op_copy_into(*given[i], *back);
    }
  }
}

}  // namespace kf
