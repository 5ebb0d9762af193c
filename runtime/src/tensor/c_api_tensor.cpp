// The tensor part of the C ABI: creation, copies to the host and between devices, reference
// counting and accessors.
#include <cstring>
#include <vector>

#include "core/device_types.hpp"
#include "core/error.hpp"
#include "dispatch/internal_ops.hpp"
#include "loader/backend.hpp"
#include "runtime_state.hpp"
#include "tensor/tensor_impl.hpp"

namespace {

using kf::TensorImpl;
using kf::TensorRef;

void require_out(const void* out, const char* fn) {
  if (out == nullptr) kf::fail(KF_INVALID_ARGUMENT, "{}: out must not be NULL", fn);
}

size_t nbytes(const TensorImpl& t) {
  return static_cast<size_t>(t.numel) * kf::itemsize(t.dtype);
}

void plugin_copy(kf_device_t device, void* dst, const void* src, size_t bytes, int32_t kind) {
  if (bytes == 0) return;
  kf::Backend& b = kf::require_backend(device);
  const kf_status_t s = b.plugin->copy(b.plugin_state, device.index, dst, src, bytes, kind);
  if (s != KF_OK) {
    kf::fail(s, "copying {} bytes on {} failed: {}", bytes, kf::device_string(device),
             kf::last_error());
  }
}

// A contiguous version of t (t itself, retained, when it already is).
TensorRef contiguous_of(TensorImpl& t) {
  if (kf::is_contiguous(t)) {
    kf::retain(&t);
    return TensorRef(&t);
  }
  return TensorRef(kf::op_contiguous(t));
}

TensorImpl* move_to_device(TensorImpl& t, kf_device_t device) {
  TensorRef src = contiguous_of(t);
  TensorRef dst(kf::new_tensor(t.shape, t.ndim, t.dtype, device));
  const size_t bytes = nbytes(t);
  if (t.device.type == KF_DEVICE_CPU) {
    plugin_copy(device, kf::data_ptr(*dst), kf::data_ptr(*src), bytes, KF_COPY_HOST_TO_DEVICE);
  } else if (device.type == KF_DEVICE_CPU) {
    plugin_copy(t.device, kf::data_ptr(*dst), kf::data_ptr(*src), bytes, KF_COPY_DEVICE_TO_HOST);
  } else {
    std::vector<char> staging(bytes);
    plugin_copy(t.device, staging.data(), kf::data_ptr(*src), bytes, KF_COPY_DEVICE_TO_HOST);
    plugin_copy(device, kf::data_ptr(*dst), staging.data(), bytes, KF_COPY_HOST_TO_DEVICE);
  }
  return dst.take();
}

template <class T>
T read_one(TensorImpl& t, kf_dtype_t as) {
  TensorRef c(t.dtype == as ? (kf::retain(&t), &t) : kf::op_to_dtype(t, as));
  T value{};
  plugin_copy(c->device, &value, kf::data_ptr(*c), sizeof(T),
              c->device.type == KF_DEVICE_CPU ? KF_COPY_DEVICE_TO_DEVICE : KF_COPY_DEVICE_TO_HOST);
  return value;
}

}  // namespace

namespace kf {

TensorImpl* tensor_to(TensorImpl& t, kf_device_t device, kf_dtype_t dtype) {
  if (dtype == KF_DTYPE_UNDEFINED) dtype = t.dtype;
  if (!is_valid_dtype(dtype)) fail(KF_INVALID_ARGUMENT, "kf_tensor_to: invalid dtype {}", static_cast<int>(dtype));
  require_backend(device);
  TensorRef moved(device == t.device ? nullptr : move_to_device(t, device));
  TensorImpl& src = moved ? *moved : t;
  if (src.dtype != dtype) return op_to_dtype(src, dtype);
  if (moved) return moved.take();
  kf_tensor_t out = nullptr;
  check_status(kf_clone(&t, &out), "kf_tensor_to");
  return out;
}

}  // namespace kf

extern "C" {

KF_API kf_status_t kf_tensor_empty(const int64_t* shape, int32_t ndim, kf_dtype_t dtype,
                                   kf_device_t device, kf_tensor_t* out) {
  return kf::guard([&] {
    require_out(out, "kf_tensor_empty");
    kf::ensure_initialized();
    *out = kf::new_tensor(shape, ndim, dtype, device);
  });
}

KF_API kf_status_t kf_tensor_from_data(const void* host_data, const int64_t* shape, int32_t ndim,
                                       kf_dtype_t dtype, kf_device_t device, kf_tensor_t* out) {
  return kf::guard([&] {
    require_out(out, "kf_tensor_from_data");
    kf::ensure_initialized();
    TensorRef t(kf::new_tensor(shape, ndim, dtype, device));
    if (host_data == nullptr && t->numel > 0) {
      kf::fail(KF_INVALID_ARGUMENT, "kf_tensor_from_data: host_data is NULL for {} elements",
               t->numel);
    }
    plugin_copy(device, kf::data_ptr(*t), host_data, nbytes(*t), KF_COPY_HOST_TO_DEVICE);
    *out = t.take();
  });
}

KF_API kf_status_t kf_tensor_from_blob(void* data, const int64_t* shape, const int64_t* strides,
                                       int32_t ndim, kf_dtype_t dtype, kf_device_t device,
                                       kf_deleter_t deleter, void* ctx, kf_tensor_t* out) {
  return kf::guard([&] {
    require_out(out, "kf_tensor_from_blob");
    if (device.type <= 0 || device.index < 0) {
      kf::fail(KF_INVALID_ARGUMENT, "kf_tensor_from_blob: invalid device {}",
               kf::device_string(device));
    }
    kf::ensure_initialized();
    *out = kf::new_borrowed(data, shape, strides, ndim, dtype, device, deleter, ctx);
  });
}

KF_API kf_status_t kf_tensor_copy_to_host(kf_tensor_t t, void* dst, size_t bytes) {
  return kf::guard([&] {
    TensorImpl& x = kf::checked(t, "kf_tensor_copy_to_host");
    if (bytes != nbytes(x)) {
      kf::fail(KF_INVALID_ARGUMENT,
               "kf_tensor_copy_to_host: bytes is {} but the tensor of shape {} and dtype {} has "
               "{} bytes", bytes, kf::shape_string(x.shape, x.ndim), kf::dtype_name(x.dtype),
               nbytes(x));
    }
    if (dst == nullptr && bytes > 0) kf::fail(KF_INVALID_ARGUMENT, "kf_tensor_copy_to_host: dst is NULL");
    TensorRef c = contiguous_of(x);
    const bool cpu = x.device.type == KF_DEVICE_CPU;
    plugin_copy(x.device, dst, kf::data_ptr(*c), bytes,
                cpu ? KF_COPY_DEVICE_TO_DEVICE : KF_COPY_DEVICE_TO_HOST);
  });
}

KF_API kf_status_t kf_tensor_to(kf_tensor_t t, kf_device_t device, kf_dtype_t dtype,
                                kf_tensor_t* out) {
  return kf::guard([&] {
    TensorImpl& x = kf::checked(t, "kf_tensor_to");
    require_out(out, "kf_tensor_to");
    *out = kf::tensor_to(x, device, dtype);
  });
}

KF_API kf_status_t kf_tensor_retain(kf_tensor_t t) {
  return kf::guard([&] { kf::retain(&kf::checked(t, "kf_tensor_retain")); });
}

KF_API kf_status_t kf_tensor_release(kf_tensor_t t) {
  if (t == nullptr) return KF_OK;
  return kf::guard([&] { kf::release(&kf::checked(t, "kf_tensor_release")); });
}

KF_API kf_status_t kf_tensor_ndim(kf_tensor_t t, int32_t* out) {
  return kf::guard([&] {
    const TensorImpl& x = kf::checked(t, "kf_tensor_ndim");
    require_out(out, "kf_tensor_ndim");
    *out = x.ndim;
  });
}

KF_API kf_status_t kf_tensor_shape(kf_tensor_t t, const int64_t** out) {
  return kf::guard([&] {
    const TensorImpl& x = kf::checked(t, "kf_tensor_shape");
    require_out(out, "kf_tensor_shape");
    *out = x.shape;
  });
}

KF_API kf_status_t kf_tensor_strides(kf_tensor_t t, const int64_t** out) {
  return kf::guard([&] {
    const TensorImpl& x = kf::checked(t, "kf_tensor_strides");
    require_out(out, "kf_tensor_strides");
    *out = x.strides;
  });
}

KF_API kf_status_t kf_tensor_dtype(kf_tensor_t t, kf_dtype_t* out) {
  return kf::guard([&] {
    const TensorImpl& x = kf::checked(t, "kf_tensor_dtype");
    require_out(out, "kf_tensor_dtype");
    *out = x.dtype;
  });
}

KF_API kf_status_t kf_tensor_device(kf_tensor_t t, kf_device_t* out) {
  return kf::guard([&] {
    const TensorImpl& x = kf::checked(t, "kf_tensor_device");
    require_out(out, "kf_tensor_device");
    *out = x.device;
  });
}

KF_API kf_status_t kf_tensor_numel(kf_tensor_t t, int64_t* out) {
  return kf::guard([&] {
    const TensorImpl& x = kf::checked(t, "kf_tensor_numel");
    require_out(out, "kf_tensor_numel");
    *out = x.numel;
  });
}

KF_API kf_status_t kf_tensor_data_ptr(kf_tensor_t t, void** out) {
  return kf::guard([&] {
    const TensorImpl& x = kf::checked(t, "kf_tensor_data_ptr");
    require_out(out, "kf_tensor_data_ptr");
    *out = kf::data_ptr(x);
  });
}

KF_API kf_status_t kf_tensor_is_contiguous(kf_tensor_t t, bool* out) {
  return kf::guard([&] {
    const TensorImpl& x = kf::checked(t, "kf_tensor_is_contiguous");
    require_out(out, "kf_tensor_is_contiguous");
    *out = kf::is_contiguous(x);
  });
}

KF_API kf_status_t kf_tensor_item(kf_tensor_t t, kf_scalar_t* out) {
  return kf::guard([&] {
    TensorImpl& x = kf::checked(t, "kf_tensor_item");
    require_out(out, "kf_tensor_item");
    if (x.numel != 1) {
      kf::fail(KF_INVALID_ARGUMENT, "kf_tensor_item: the tensor of shape {} has {} elements; "
                                    "item needs exactly one", kf::shape_string(x.shape, x.ndim),
               x.numel);
    }
    if (kf::is_floating(x.dtype)) {
      *out = kf_scalar_f64(read_one<double>(x, KF_FLOAT64));
    } else if (x.dtype == KF_BOOL) {
      *out = kf_scalar_bool(read_one<uint8_t>(x, KF_BOOL) != 0);
    } else {
      *out = kf_scalar_i64(read_one<int64_t>(x, KF_INT64));
    }
  });
}

}  // extern "C"
