// Note [CPU fallback] is in cpu_fallback.hpp.
#include "dispatch/cpu_fallback.hpp"

#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "core/device_types.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/logging.hpp"
#include "core_ops.hpp"
#include "device/backend_registry.hpp"
#include "dispatch/dispatch.hpp"
#include "dispatch/tensor_moves.hpp"
#include "registry/kernel_table.hpp"

namespace kf {
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

void move_args_to_cpu(CallArgs& c, TensorRef* moved) {
  const kf_device_t cpu = kf_device_cpu();
  for (int32_t k = 0; k < c.def->ntensor_args; ++k) {
    const int32_t i = c.tensor_index[k];
    TensorImpl* t = c.tensors[i];
    if (t == nullptr || t->device.type == KF_DEVICE_CPU) continue;
    moved[k] = TensorRef(tensor_to(*t, cpu, t->dtype));
    c.tensors[i] = moved[k].get();
    c.owned[i].v.tensor = handle_of(moved[k].get());
  }
  for (int32_t i = 0; i < c.def->nargs; ++i) {
    if (c.def->args[i].type == ArgType::Device && c.v[i].tag == KF_VALUE_DEVICE) {
      c.owned[i].v.device = cpu;
    }
  }
}

}  // namespace

[[noreturn]] void fail_unimplemented(const OpDef& def, kf_dtype_t dtype, const Backend& backend) {
  std::string with;
  for_each_backend([&](const Backend& b) {
    const KernelEntry* e = lookup_kernels(def.id, b.slot);
    if (e != nullptr && is_valid_dtype(dtype) && e->fn[dtype] != nullptr) {
      with += (with.empty() ? "" : ", ") + b.name;
    }
  });
  const KernelEntry* own = lookup_kernels(def.id, backend.slot);
  fail(KF_UNIMPLEMENTED,
       "{}: backend '{}' has no kernel for dtype {} (it has: {}); backends with a {} kernel: "
       "{}", def.name, backend.name, dtype_name(dtype),
       dtypes_of(own != nullptr ? own->dtype_mask : 0), dtype_name(dtype),
       with.empty() ? "none" : with);
}

void run_cpu_fallback(const CallArgs& a, CallMode mode, TensorImpl* const* given,
                      TensorImpl** results, const MetaResult& m, const Backend& backend) {
  const OpDef& def = *a.def;
  warn_once(def, backend);
  CallArgs c = a;
  own_args(c);
  TensorRef moved[kMaxTensorArgs];
  move_args_to_cpu(c, moved);
  TensorImpl* r[kMaxOutputs] = {};
  run_op(c, CallMode::Functional, nullptr, r);
  TensorRef held[kMaxOutputs];
  for (int32_t i = 0; i < def.nreturns; ++i) held[i] = TensorRef(r[i]);
  for (int32_t i = 0; i < def.nreturns; ++i) {
    if (mode == CallMode::Functional) {
      results[i] = tensor_to(*held[i], m.device, held[i]->dtype);
    } else {
      write_from_cpu(*given[i], *held[i]);
    }
  }
}

}  // namespace kf
