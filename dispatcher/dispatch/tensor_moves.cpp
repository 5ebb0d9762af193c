#include "dispatch/tensor_moves.hpp"

#include <cstring>

#include "core/device_types.hpp"
#include "core/error.hpp"
#include "core_ops.hpp"
#include "device/backend_registry.hpp"
#include "device/stream.hpp"

namespace kf {
namespace {

size_t nbytes(const TensorImpl& t) {
  return static_cast<size_t>(t.numel) * itemsize(t.dtype);
}

// A copy by `device`'s backend that is done when it returns: on an asynchronous backend it is
// queued on the current stream, which is then waited for.
void copy_now(kf_device_t device, void* dst, const void* src, size_t bytes, int32_t kind) {
  if (bytes == 0) return;
  const Backend& b = require_device(device);
  if (!b.asynchronous()) return b.copy(device.index, dst, src, bytes, kind);
  void* stream = native_stream(current_stream(device));
  b.copy_async(device.index, dst, src, bytes, kind, stream);
  b.stream_synchronize(device.index, stream);
}

// A contiguous version of t (t itself, retained, when it already is).
TensorRef contiguous_of(TensorImpl& t) {
  if (is_contiguous(t)) {
    retain(&t);
    return TensorRef(&t);
  }
  return ops::contiguous(t);
}

// Host memory for staging a copy between two devices, pinned by `b` where it can.
class Staging {
 public:
  Staging(const Backend& b, size_t bytes) : b_(b), bytes_(bytes), p_(b.host_allocate(bytes)) {}
  ~Staging() { b_.host_deallocate(p_, bytes_); }
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;
  void* get() const noexcept { return p_; }

 private:
  const Backend& b_;
  size_t bytes_;
  void* p_;
};

TensorImpl* move_to_device(TensorImpl& t, kf_device_t device) {
  TensorRef src = contiguous_of(t);
  TensorRef dst(new_tensor(t.shape, t.ndim, t.dtype, device));
  const size_t bytes = nbytes(t);
  if (t.device.type == KF_DEVICE_CPU) {
    copy_now(device, data_ptr(*dst), data_ptr(*src), bytes, KF_COPY_HOST_TO_DEVICE);
  } else if (device.type == KF_DEVICE_CPU) {
    copy_now(t.device, data_ptr(*dst), data_ptr(*src), bytes, KF_COPY_DEVICE_TO_HOST);
  } else if (bytes > 0) {
    Staging staging(require_device(t.device), bytes);
    copy_now(t.device, staging.get(), data_ptr(*src), bytes, KF_COPY_DEVICE_TO_HOST);
    copy_now(device, data_ptr(*dst), staging.get(), bytes, KF_COPY_HOST_TO_DEVICE);
  }
  return dst.take();
}

template <class T>
T read_one(TensorImpl& t, kf_dtype_t as) {
  TensorRef c = t.dtype == as ? (retain(&t), TensorRef(&t)) : ops::to_dtype(t, as);
  T value{};
  copy_to_host(*c, &value, sizeof(T));
  return value;
}

}  // namespace

TensorImpl* tensor_to(TensorImpl& t, kf_device_t device, kf_dtype_t dtype) {
  if (dtype == KF_DTYPE_UNDEFINED) dtype = t.dtype;
  if (!is_valid_dtype(dtype)) {
    fail(KF_INVALID_ARGUMENT, "kf_tensor_to: invalid dtype {}", static_cast<int>(dtype));
  }
  require_device(device);
  TensorRef moved(device == t.device ? nullptr : move_to_device(t, device));
  TensorImpl& src = moved ? *moved : t;
  if (src.dtype != dtype) return ops::to_dtype(src, dtype).take();
  if (moved) return moved.take();
  return ops::clone(t).take();
}

void copy_to_host(TensorImpl& t, void* dst, size_t bytes) {
  if (bytes != nbytes(t)) {
    fail(KF_INVALID_ARGUMENT,
         "kf_tensor_copy_to_host: bytes is {} but the tensor of shape {} and dtype {} has {} "
         "bytes", bytes, shape_string(t.shape, t.ndim), dtype_name(t.dtype), nbytes(t));
  }
  if (dst == nullptr && bytes > 0) fail(KF_INVALID_ARGUMENT, "kf_tensor_copy_to_host: dst is NULL");
  TensorRef c = contiguous_of(t);
  const bool cpu = t.device.type == KF_DEVICE_CPU;
  copy_now(t.device, dst, data_ptr(*c), bytes,
           cpu ? KF_COPY_DEVICE_TO_DEVICE : KF_COPY_DEVICE_TO_HOST);
}

TensorImpl* tensor_from_host(const void* host_data, const int64_t* shape, int32_t ndim,
                             kf_dtype_t dtype, kf_device_t device) {
  TensorRef t(new_tensor(shape, ndim, dtype, device));
  if (host_data == nullptr && t->numel > 0) {
    fail(KF_INVALID_ARGUMENT, "kf_tensor_from_data: host_data is NULL for {} elements", t->numel);
  }
  copy_now(device, data_ptr(*t), host_data, nbytes(*t), KF_COPY_HOST_TO_DEVICE);
  return t.take();
}

kf_scalar_t tensor_item(TensorImpl& t) {
  if (t.numel != 1) {
    fail(KF_INVALID_ARGUMENT, "kf_tensor_item: the tensor of shape {} has {} elements; item "
                              "needs exactly one", shape_string(t.shape, t.ndim), t.numel);
  }
  if (is_floating(t.dtype)) return kf_scalar_f64(read_one<double>(t, KF_FLOAT64));
  if (t.dtype == KF_BOOL) return kf_scalar_bool(read_one<uint8_t>(t, KF_BOOL) != 0);
  return kf_scalar_i64(read_one<int64_t>(t, KF_INT64));
}

}  // namespace kf
