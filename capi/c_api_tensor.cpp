// The tensor part of the C ABI: creation, copies to the host and between devices, reference
// counting, accessors and kf_tensor_record_stream.
#include "autograd/device_move.hpp"
#include "capi/startup.hpp"
#include "core/device_types.hpp"
#include "core/error.hpp"
#include "device/stream.hpp"
#include "dispatch/tensor_moves.hpp"
#include "tensor/tensor_impl.hpp"

namespace {

using kf::operator!=;

using kf::TensorImpl;

void require_out(const void* out, const char* fn) {
  if (out == nullptr) kf::fail(KF_INVALID_ARGUMENT, "{}: out must not be NULL", fn);
}

/// An accessor of the C ABI: checks the handle and `out`, then stores what `get` reads.
template <class T, class Get>
kf_status_t read_tensor(kf_tensor_t t, T* out, const char* fn, Get get) {
  return kf::guard([&] {
    TensorImpl& x = kf::checked(t, fn);
    require_out(out, fn);
    *out = get(x);
  });
}

}  // namespace

extern "C" {

KF_API kf_status_t kf_tensor_empty(const int64_t* shape, int32_t ndim, kf_dtype_t dtype,
                                   kf_device_t device, kf_tensor_t* out) {
  return kf::guard([&] {
    require_out(out, "kf_tensor_empty");
    kf::ensure_initialized();
    *out = kf::handle_of(kf::new_tensor(shape, ndim, dtype, device));
  });
}

KF_API kf_status_t kf_tensor_from_data(const void* host_data, const int64_t* shape, int32_t ndim,
                                       kf_dtype_t dtype, kf_device_t device, kf_tensor_t* out) {
  return kf::guard([&] {
    require_out(out, "kf_tensor_from_data");
    kf::ensure_initialized();
    *out = kf::handle_of(kf::tensor_from_host(host_data, shape, ndim, dtype, device));
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
    *out = kf::handle_of(kf::new_borrowed(data, shape, strides, ndim, dtype, device, deleter, ctx));
  });
}

KF_API kf_status_t kf_tensor_copy_to_host(kf_tensor_t t, void* dst, size_t bytes) {
  return kf::guard([&] { kf::copy_to_host(kf::checked(t, "kf_tensor_copy_to_host"), dst, bytes); });
}

KF_API kf_status_t kf_tensor_to(kf_tensor_t t, kf_device_t device, kf_dtype_t dtype,
                                kf_tensor_t* out) {
  return kf::guard([&] {
    TensorImpl& x = kf::checked(t, "kf_tensor_to");
    require_out(out, "kf_tensor_to");
    *out = kf::handle_of(kf::autograd::to_recorded(x, device, dtype));
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
  return read_tensor(t, out, "kf_tensor_ndim", [](TensorImpl& x) { return x.ndim; });
}

KF_API kf_status_t kf_tensor_shape(kf_tensor_t t, const int64_t** out) {
  return read_tensor(t, out, "kf_tensor_shape", [](TensorImpl& x) { return x.shape; });
}

KF_API kf_status_t kf_tensor_strides(kf_tensor_t t, const int64_t** out) {
  return read_tensor(t, out, "kf_tensor_strides", [](TensorImpl& x) { return x.strides; });
}

KF_API kf_status_t kf_tensor_dtype(kf_tensor_t t, kf_dtype_t* out) {
  return read_tensor(t, out, "kf_tensor_dtype", [](TensorImpl& x) { return x.dtype; });
}

KF_API kf_status_t kf_tensor_device(kf_tensor_t t, kf_device_t* out) {
  return read_tensor(t, out, "kf_tensor_device", [](TensorImpl& x) { return x.device; });
}

KF_API kf_status_t kf_tensor_numel(kf_tensor_t t, int64_t* out) {
  return read_tensor(t, out, "kf_tensor_numel", [](TensorImpl& x) { return x.numel; });
}

KF_API kf_status_t kf_tensor_data_ptr(kf_tensor_t t, void** out) {
  return read_tensor(t, out, "kf_tensor_data_ptr",
                     [](TensorImpl& x) { return kf::data_ptr(x); });
}

KF_API kf_status_t kf_tensor_is_contiguous(kf_tensor_t t, bool* out) {
  return read_tensor(t, out, "kf_tensor_is_contiguous",
                     [](TensorImpl& x) { return kf::is_contiguous(x); });
}

KF_API kf_status_t kf_tensor_item(kf_tensor_t t, kf_scalar_t* out) {
  return read_tensor(t, out, "kf_tensor_item", [](TensorImpl& x) { return kf::tensor_item(x); });
}

KF_API kf_status_t kf_tensor_record_stream(kf_tensor_t t, kf_stream_t stream) {
  return kf::guard([&] {
    TensorImpl& x = kf::checked(t, "kf_tensor_record_stream");
    kf::Stream* s = nullptr;  // NULL: the device's default stream
    if (stream != nullptr) {
      s = &kf::checked_stream(stream, "kf_tensor_record_stream");
      if (s->device != x.device) {
        kf::fail(KF_INVALID_ARGUMENT, "kf_tensor_record_stream: the tensor is on {} but the "
                                      "stream on {}", kf::device_string(x.device),
                 kf::device_string(s->device));
      }
    }
    kf::record_stream(x, s);
  });
}

}  // extern "C"
