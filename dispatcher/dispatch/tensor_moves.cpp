#include "dispatch/tensor_moves.hpp"

#include <cstring>

#include "core/device_types.hpp"
#include "core/error.hpp"
#include "core/scalar_conversion.hpp"
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

// The elements of storage a strided view covers: `below` of them before its element
// [0, ..., 0] (negative strides reach down), `count` in all (the layout rules keep both in int64).
struct Extent {
  int64_t below = 0, count = 0;
};

Extent extent_of(const TensorImpl& t) {
  if (t.numel == 0) return {};
  Extent e{0, 1};
  for (int32_t d = 0; d < t.ndim; ++d) {
    const int64_t reach = (t.shape[d] - 1) * t.strides[d];
    e.count += reach < 0 ? -reach : reach;
    if (reach < 0) e.below -= reach;
  }
  return e;
}

// The address of the lowest element a view covers.
char* lowest(const TensorImpl& t, const Extent& e) {
  return static_cast<char*>(data_ptr(t)) - e.below * static_cast<int64_t>(itemsize(t.dtype));
}

// A contiguous CPU copy of `t`, which lives on another device. A strided view is copied as the
// span of storage it covers and laid out on the CPU, so no kernel of t's backend is needed (a
// backend without copy_ reaches its CPU fallback through here).
TensorRef to_cpu_contiguous(TensorImpl& t) {
  const kf_device_t cpu = kf_device_cpu();
  const bool dense = is_contiguous(t);
  const Extent e = dense ? Extent{0, t.numel} : extent_of(t);
  TensorRef extent(new_tensor(&e.count, 1, t.dtype, cpu));
  copy_now(t.device, data_ptr(*extent), lowest(t, e),
           static_cast<size_t>(e.count) * itemsize(t.dtype), KF_COPY_DEVICE_TO_HOST);
  if (dense) return ops::reshape(*extent, IntListView(t.shape, t.ndim));
  TensorRef view(new_view(*extent, t.shape, t.strides, t.ndim, e.below));
  return ops::contiguous(*view);
}

// From one device to another (neither the CPU): a dense tensor through pinned host memory of the
// source's backend, a strided view through a contiguous CPU copy.
void device_to_device(TensorImpl& t, TensorImpl& dst) {
  if (!is_contiguous(t)) {
    TensorRef src = to_cpu_contiguous(t);
    return copy_now(dst.device, data_ptr(dst), data_ptr(*src), nbytes(t), KF_COPY_HOST_TO_DEVICE);
  }
  if (nbytes(t) == 0) return;
  Staging staging(require_device(t.device), nbytes(t));
  copy_now(t.device, staging.get(), data_ptr(t), nbytes(t), KF_COPY_DEVICE_TO_HOST);
  copy_now(dst.device, data_ptr(dst), staging.get(), nbytes(t), KF_COPY_HOST_TO_DEVICE);
}

TensorImpl* move_to_device(TensorImpl& t, kf_device_t device) {
  if (device.type == KF_DEVICE_CPU) return to_cpu_contiguous(t).take();
  TensorRef dst(new_tensor(t.shape, t.ndim, t.dtype, device));
  if (t.device.type != KF_DEVICE_CPU) {
    device_to_device(t, *dst);
  } else {
    TensorRef src = contiguous_of(t);
    copy_now(device, data_ptr(*dst), data_ptr(*src), nbytes(t), KF_COPY_HOST_TO_DEVICE);
  }
  return dst.take();
}

}  // namespace

void write_from_cpu(TensorImpl& dst, TensorImpl& src) {
  const size_t item = itemsize(dst.dtype);
  const bool dense = is_contiguous(dst);
  const Extent e = dense ? Extent{0, dst.numel} : extent_of(dst);
  TensorRef extent(new_tensor(&e.count, 1, dst.dtype, kf_device_cpu()));
  int64_t strides[KF_MAX_NDIM];
  if (dense) {
    contiguous_strides(dst.shape, dst.ndim, strides);
  } else {  // the elements between dst's own keep their values
    for (int32_t d = 0; d < dst.ndim; ++d) strides[d] = dst.strides[d];
    copy_now(dst.device, data_ptr(*extent), lowest(dst, e), static_cast<size_t>(e.count) * item,
             KF_COPY_DEVICE_TO_HOST);
  }
  TensorRef view(new_view(*extent, dst.shape, strides, dst.ndim, e.below));
  ops::copy_(*view, src);
  copy_now(dst.device, lowest(dst, e), data_ptr(*extent), static_cast<size_t>(e.count) * item,
           KF_COPY_HOST_TO_DEVICE);
}

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

// Note [Bool bytes]: a bool copied in is normalised while it is copied, each byte to 0 or 1 (any
// nonzero byte is true), so memory kernforge makes from data holds only those; borrowed memory
// (from_blob, DLPack) may hold any byte, which every kernel reads as != 0.
TensorImpl* tensor_from_host(const void* host_data, const int64_t* shape, int32_t ndim,
                             kf_dtype_t dtype, kf_device_t device) {
  TensorRef t(new_tensor(shape, ndim, dtype, device));
  if (host_data == nullptr && t->numel > 0) {
    fail(KF_INVALID_ARGUMENT, "kf_tensor_from_data: host_data is NULL for {} elements", t->numel);
  }
  if (dtype != KF_BOOL || t->numel == 0) {
    copy_now(device, data_ptr(*t), host_data, nbytes(*t), KF_COPY_HOST_TO_DEVICE);
    return t.take();
  }
  const bool cpu = device.type == KF_DEVICE_CPU;
  TensorRef staging(cpu ? nullptr : new_tensor(shape, ndim, KF_BOOL, kf_device_cpu()));
  const auto* in = static_cast<const unsigned char*>(host_data);
  auto* bytes = static_cast<unsigned char*>(data_ptr(cpu ? *t : *staging));
  for (int64_t i = 0; i < t->numel; ++i) bytes[i] = in[i] != 0 ? 1 : 0;
  if (!cpu) copy_now(device, data_ptr(*t), bytes, nbytes(*t), KF_COPY_HOST_TO_DEVICE);
  return t.take();
}

kf_scalar_t tensor_item(TensorImpl& t) {
  if (t.numel != 1) {
    fail(KF_INVALID_ARGUMENT, "kf_tensor_item: the tensor of shape {} has {} elements; item "
                              "needs exactly one", shape_string(t.shape, t.ndim), t.numel);
  }
  return element_item(t, data_ptr(t));
}

kf_scalar_t element_item(const TensorImpl& t, const void* element) {
  // The one element's bytes, wherever its strides put it, copied after the work queued before
  // (copy_now); scalar_of_element reads them exactly, as the widest scalar of their kind.
  unsigned char bytes[16] = {};
  static_assert(sizeof(bytes) >= sizeof(double) * 2, "the widest element: complex128");
  copy_now(t.device, bytes, element, itemsize(t.dtype),
           t.device.type == KF_DEVICE_CPU ? KF_COPY_DEVICE_TO_DEVICE : KF_COPY_DEVICE_TO_HOST);
  return scalar_of_element(bytes, t.dtype);
}

}  // namespace kf
