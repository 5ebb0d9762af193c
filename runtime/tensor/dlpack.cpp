#include "tensor/dlpack.hpp"

#include <cstdint>
#include <limits>
#include <new>
#include <string>

#include "core/checked_math.hpp"
#include "core/device_types.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "device/backend_registry.hpp"

namespace kf {
namespace {

constexpr const char* kFrom = "kf_tensor_from_dlpack";
constexpr const char* kFromLegacy = "kf_tensor_from_dlpack_legacy";

// ------------------------------------------------------------------------ dtypes --

// The DLPack type of a kernforge dtype, derived from its kind and size (KF_DTYPE_LIST), so a
// dtype added there is exchanged without a change here. bfloat16 is the one floating type with
// a code of its own in DLPack.
DLDataType dl_dtype_of(kf_dtype_t d) noexcept {
  DLDataType t;
  switch (dtype_kind(d)) {
    case 'i': t.code = kDLInt; break;
    case 'u': t.code = kDLUInt; break;
    case 'b': t.code = kDLBool; break;
    case 'c': t.code = kDLComplex; break;
    default: t.code = is_brain_float(d) ? kDLBfloat : kDLFloat; break;
  }
  t.bits = static_cast<uint8_t>(itemsize(d) * 8);
  t.lanes = 1;
  return t;
}

// The DLPack specification's name of a type code, for messages.
const char* dl_code_name(uint8_t code) noexcept {
  static const char* const names[] = {
      "int",           "uint",           "float",         "opaque handle",  "bfloat",
      "complex",       "bool",           "float8_e3m4",   "float8_e4m3",    "float8_e4m3b11fnuz",
      "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2",  "float8_e5m2fnuz", "float8_e8m0fnu",
      "float6_e2m3fn", "float6_e3m2fn",  "float4_e2m1fn"};
  return code < sizeof names / sizeof names[0] ? names[code] : "unknown";
}

// The kernforge dtype of a DLPack type; throws naming code, bits and lanes when there is none.
kf_dtype_t dtype_of(DLDataType t, const char* what) {
  const std::string type = fmt::format("code {} ({}), bits {}, lanes {}", t.code,
                                       dl_code_name(t.code), t.bits, t.lanes);
  if (t.lanes != 1) {
    fail(KF_INVALID_ARGUMENT, "{}: DLPack dtype {} is a vector type; kernforge reads only lanes "
         "1 (one value per element): convert it to a plain dtype first", what, type);
  }
  if (t.bits < 8) {
    fail(KF_INVALID_ARGUMENT, "{}: DLPack dtype {} is narrower than a byte; kernforge has no "
         "sub-byte dtypes (it has {}): convert it first", what, type, dtype_names());
  }
  for (int32_t i = 0; i < KF_DTYPE_COUNT; ++i) {
    const kf_dtype_t d = static_cast<kf_dtype_t>(i);
    const DLDataType k = dl_dtype_of(d);
    if (k.code == t.code && k.bits == t.bits) return d;
  }
  fail(KF_INVALID_ARGUMENT, "{}: DLPack dtype {} is not one of kernforge's dtypes ({}): "
       "convert it to one of them first", what, type, dtype_names());
}

// ----------------------------------------------------------------------- devices --

// The DLPack specification's name of a device type, for messages.
std::string dl_device_name(int32_t type) {
  static const char* const names[] = {
      nullptr,   "kDLCPU",    "kDLCUDA",     "kDLCUDAHost", "kDLOpenCL",      nullptr,
      nullptr,   "kDLVulkan", "kDLMetal",    "kDLVPI",      "kDLROCM",        "kDLROCMHost",
      "kDLExtDev", "kDLCUDAManaged", "kDLOneAPI", "kDLWebGPU", "kDLHexagon", "kDLMAIA",
      "kDLTrn"};
  const char* n = type >= 0 && type < static_cast<int32_t>(sizeof names / sizeof names[0])
                      ? names[type] : nullptr;
  return fmt::format("{} ({})", n != nullptr ? n : "unknown to kernforge", type);
}

// The kernforge device of a DLPack device. kernforge's built-in device types use DLPack's
// numbers; the numbers from KF_DEVICE_DYNAMIC_BASE on are kernforge's own (plugins' device
// types) and mean something else in DLPack, so only the numbers below it are looked up.
kf_device_t device_of(DLDevice dl, const char* what) {
  const kf_device_t device{static_cast<int32_t>(dl.device_type), dl.device_id};
  const std::string name = dl_device_name(device.type);
  Backend* b = nullptr;
  if (device.type > 0 && device.type < KF_DEVICE_DYNAMIC_BASE) {
    try {
      b = &require_backend(device);
    } catch (const Error& e) {
      throw Error(e.status(), fmt::format("{}: DLPack device type {}: {}; copy the tensor to "
                                          "a device kernforge serves first", what, name,
                                          e.what()));
    }
  }
  if (b == nullptr) {
    fail(KF_UNAVAILABLE, "{}: DLPack device type {} is not a device kernforge serves; copy "
         "the tensor to one it serves (kDLCPU, or the device of a loaded backend) first", what,
         name);
  }
  if (device.index < 0 || device.index >= b->device_count) {
    fail(KF_UNAVAILABLE, "{}: DLPack device {} index {} does not exist here: backend '{}' has "
         "{} device(s)", what, name, device.index, b->name, b->device_count);
  }
  return device;
}

// ------------------------------------------------------------------------ import --

// The address of element [0, ..., 0]: data + byte_offset, checked to stay in the address
// space and aligned to the element size (kernels read whole elements). NULL stays NULL (no
// elements; new_borrowed refuses it otherwise).
void* first_element(const DLTensor& dl, size_t item, const char* what) {
  if (dl.data == nullptr) return nullptr;
  uintptr_t at = 0;
  if (dl.byte_offset > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) ||
      !checked_add(reinterpret_cast<uintptr_t>(dl.data),
                   static_cast<uintptr_t>(dl.byte_offset), &at)) {
    fail(KF_INVALID_ARGUMENT, "{}: byte_offset {} from data {} is past the end of the address "
         "space", what, dl.byte_offset, dl.data);
  }
  if (at % item != 0) {
    fail(KF_INVALID_ARGUMENT, "{}: the first element (data {} + byte_offset {}) is not aligned "
         "to the element size of {} bytes; copy the tensor to aligned memory first", what,
         dl.data, dl.byte_offset, item);
  }
  return reinterpret_cast<void*>(at);
}

// A borrowed tensor over `dl` whose storage calls deleter(data, owner) when it goes.
TensorImpl* import_tensor(const DLTensor& dl, kf_deleter_t deleter, void* owner,
                          const char* what) {
  const kf_dtype_t dtype = dtype_of(dl.dtype, what);
  const kf_device_t device = device_of(dl.device, what);
  void* data = first_element(dl, itemsize(dtype), what);
  // Shape, strides (NULL: row-major; negative ones reach below data), sizes that fit, the
  // span's wrap: the producer vouches for every element (Note [Memory of kf_tensor_from_blob]).
  return new_borrowed(data, dl.shape, dl.strides, dl.ndim, dtype, device, deleter, owner, what,
                      Borrow::Elements);
}

void delete_versioned(void* /*data*/, void* owner) {
  auto* src = static_cast<DLManagedTensorVersioned*>(owner);
  if (src->deleter != nullptr) src->deleter(src);
}

void delete_legacy(void* /*data*/, void* owner) {
  auto* src = static_cast<DLManagedTensor*>(owner);
  if (src->deleter != nullptr) src->deleter(src);
}

// ------------------------------------------------------------------------ export --

// A managed tensor and the arrays its DLTensor points to, in one allocation.
template <class Managed>
struct Export {
  Managed managed;
  int64_t shape[KF_MAX_NDIM];
  int64_t strides[KF_MAX_NDIM];
};

// Fills `dl` with the view of `t` (Note [DLPack ownership]; layout: kernforge.h).
void describe(const TensorImpl& t, DLTensor& dl, int64_t* shape, int64_t* strides) {
  if (t.device.type >= KF_DEVICE_DYNAMIC_BASE) {
    fail(KF_UNIMPLEMENTED, "kf_tensor_to_dlpack: the tensor is on {}, a device type a plugin "
         "brought, which has no DLPack device type; copy it to the CPU (kf_tensor_to) first",
         device_string(t.device));
  }
  for (int32_t i = 0; i < t.ndim; ++i) {
    shape[i] = t.shape[i];
    strides[i] = t.strides[i];
  }
  dl.data = data_ptr(t);
  dl.device.device_type = static_cast<DLDeviceType>(t.device.type);
  dl.device.device_id = t.device.index;
  dl.ndim = t.ndim;
  dl.dtype = dl_dtype_of(t.dtype);
  dl.shape = shape;
  dl.strides = strides;
  dl.byte_offset = 0;
}

template <class Managed>
void delete_export(Managed* self) noexcept {
  if (self == nullptr) return;
  release(static_cast<TensorImpl*>(self->manager_ctx));
  delete reinterpret_cast<Export<Managed>*>(self);  // `managed` is its first member
}

template <class Managed>
Managed* export_tensor(TensorImpl& t) {
  auto* e = new Export<Managed>();  // std::bad_alloc: KF_OUT_OF_MEMORY at the boundary
  try {
    describe(t, e->managed.dl_tensor, e->shape, e->strides);
  } catch (...) {
    delete e;
    throw;
  }
  retain(&t);
  e->managed.manager_ctx = &t;
  e->managed.deleter = &delete_export<Managed>;
  return &e->managed;
}

}  // namespace

DLManagedTensorVersioned* to_dlpack(TensorImpl& t) {
  DLManagedTensorVersioned* m = export_tensor<DLManagedTensorVersioned>(t);
  m->version.major = DLPACK_MAJOR_VERSION;
  m->version.minor = DLPACK_MINOR_VERSION;
  m->flags = 0;
  return m;
}

DLManagedTensor* to_dlpack_legacy(TensorImpl& t) { return export_tensor<DLManagedTensor>(t); }

TensorImpl* from_dlpack(DLManagedTensorVersioned* src) {
  // The major decides the layout of everything after `deleter`: read nothing else before it.
  if (src->version.major != 1) {
    fail(KF_ABI_MISMATCH, "{}: the tensor is DLPack {}.{} but kernforge reads DLPack 1.x "
         "(it implements {}.{}); ask the producer for DLPack 1.x, or for the unversioned struct "
         "(kf_tensor_from_dlpack_legacy). The caller still owns the tensor and should call its "
         "deleter", kFrom, src->version.major, src->version.minor, DLPACK_MAJOR_VERSION,
         DLPACK_MINOR_VERSION);
  }
  if ((src->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0) {
    fail(KF_INVALID_ARGUMENT, "{}: the tensor is marked READ_ONLY (flags {:#x}) but kernforge "
         "tensors are writable; import a copy instead (ask the producer for one, e.g. "
         "__dlpack__(copy=True), or copy it first)", kFrom, src->flags);
  }
  return import_tensor(src->dl_tensor, &delete_versioned, src, kFrom);
}

TensorImpl* from_dlpack_legacy(DLManagedTensor* src) {
  return import_tensor(src->dl_tensor, &delete_legacy, src, kFromLegacy);
}

}  // namespace kf
