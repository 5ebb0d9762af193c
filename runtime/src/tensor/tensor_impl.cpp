#include "tensor/tensor_impl.hpp"

#include <limits>
#include <string>
#include <thread>

#include "core/device_types.hpp"
#include "core/error.hpp"
#include "core/object_pool.hpp"
#include "device/backend_registry.hpp"
#include "device/stream.hpp"

namespace kf {
namespace {

// a * b, or INT64_MAX when that overflows. After checked_numel only a shape with a zero size
// overflows a partial product of its sizes or strides (a size of 0 later makes the element
// count 0, and any strides describe no element).
inline int64_t saturating_mul(int64_t a, int64_t b) noexcept {
  int64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

// The next row-major stride.
inline int64_t saturating_stride(int64_t stride, int64_t size) noexcept {
  return saturating_mul(stride, size > 1 ? size : 1);
}

TensorImpl* acquire_impl(const int64_t* shape, const int64_t* strides, int32_t ndim,
                         kf_dtype_t dtype, kf_device_t device) {
  TensorImpl* t = Pool<TensorImpl>::acquire();
  t->ndim = ndim;
  t->dtype = dtype;
  t->device = device;
  int64_t numel = 1;
  for (int32_t i = 0; i < ndim; ++i) {
    t->shape[i] = shape[i];
    t->strides[i] = strides[i];
    numel = saturating_mul(numel, shape[i]);
  }
  t->numel = numel;
  return t;
}

// Note [Last reference]
// When the count is 1 the caller holds the only reference, so no other thread can change it:
// the atomic read-modify-write (tens of cycles) is skipped on the common path.
inline bool drop_reference(std::atomic<int32_t>& refs) noexcept {
  return refs.load(std::memory_order_acquire) == 1 ||
         refs.fetch_sub(1, std::memory_order_acq_rel) == 1;
}

void release_storage(Storage* s) noexcept {
  if (!drop_reference(s->refs)) return;
  if (s->borrowed) {
    if (s->deleter != nullptr) s->deleter(s->data, s->deleter_ctx);
  } else {
    cache_free(s->device, s->block, s->used_on);
  }
  if (s->used_on != nullptr) {
    for (Stream* used : *s->used_on) release_stream(used);
    delete s->used_on;
  }
  Pool<Storage>::release(s);
}

// A lock made of the storage's flag (Storage objects are pooled and must stay trivially small).
class FlagLock {
 public:
  explicit FlagLock(std::atomic<bool>& flag) : flag_(flag) {
    while (flag_.exchange(true, std::memory_order_acquire)) std::this_thread::yield();
  }
  ~FlagLock() { flag_.store(false, std::memory_order_release); }
  FlagLock(const FlagLock&) = delete;
  FlagLock& operator=(const FlagLock&) = delete;

 private:
  std::atomic<bool>& flag_;
};

}  // namespace

std::string shape_string(const int64_t* shape, int32_t ndim) {
  std::string s = "[";
  for (int32_t i = 0; i < ndim; ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

int64_t checked_numel(const int64_t* shape, int32_t ndim, const char* what) {
  if (ndim < 0 || ndim > KF_MAX_NDIM) {
    fail(KF_INVALID_ARGUMENT, "{}: ndim {} is out of range (0..{})", what, ndim, KF_MAX_NDIM);
  }
  if (ndim > 0 && shape == nullptr) {
    fail(KF_INVALID_ARGUMENT, "{}: shape is NULL but ndim is {}", what, ndim);
  }
  int64_t numel = 1;
  for (int32_t i = 0; i < ndim; ++i) {
    if (shape[i] < 0) {
      fail(KF_INVALID_ARGUMENT, "{}: size {} at dim {} of shape {} is negative", what, shape[i],
           i, shape_string(shape, ndim));
    }
    if (shape[i] != 0 && numel > std::numeric_limits<int64_t>::max() / shape[i]) {
      fail(KF_INVALID_ARGUMENT, "{}: shape {} has too many elements", what,
           shape_string(shape, ndim));
    }
    numel *= shape[i];
  }
  return numel;
}

void contiguous_strides(const int64_t* shape, int32_t ndim, int64_t* strides) noexcept {
  int64_t s = 1;
  for (int32_t i = ndim - 1; i >= 0; --i) {
    strides[i] = s;
    s = saturating_stride(s, shape[i]);
  }
}

TensorImpl* new_tensor(const int64_t* shape, int32_t ndim, kf_dtype_t dtype, kf_device_t device) {
  const int64_t numel = checked_numel(shape, ndim, "new tensor");
  if (!is_valid_dtype(dtype)) {
    fail(KF_INVALID_ARGUMENT, "invalid dtype value {}", static_cast<int>(dtype));
  }
  (void)numel;
  return new_output(require_device(device), shape, ndim, dtype, device);
}

void record_stream(TensorImpl& t, Stream* stream) {
  Storage* s = t.storage;
  const Backend* b = backend_for_device_type(t.device.type);
  if (s->borrowed || stream == s->block.stream || b == nullptr || !b->asynchronous()) return;
  FlagLock lock(s->used_on_lock);
  if (s->used_on == nullptr) s->used_on = new std::vector<Stream*>();
  for (Stream* used : *s->used_on) {
    if (used == stream) return;
  }
  s->used_on->push_back(stream);
  retain_stream(stream);
}

namespace {

// A tensor with contiguous strides for `shape` and no storage yet (shape, strides and numel in
// one pass: this is on every op's path).
TensorImpl* acquire_contiguous(const int64_t* shape, int32_t ndim, kf_dtype_t dtype,
                               kf_device_t device) {
  TensorImpl* t = Pool<TensorImpl>::acquire();
  t->ndim = ndim;
  t->dtype = dtype;
  t->device = device;
  // In unsigned arithmetic: checked_numel has proved that the sizes' product fits unless one of
  // them is 0; then partial products may wrap, the count ends at 0, and no stride is used.
  uint64_t stride = 1, numel = 1;
  for (int32_t i = ndim - 1; i >= 0; --i) {
    const auto size = static_cast<uint64_t>(shape[i]);
    t->shape[i] = shape[i];
    t->strides[i] = static_cast<int64_t>(stride);
    stride *= size > 1 ? size : 1;
    numel *= size;
  }
  t->numel = static_cast<int64_t>(numel);
  return t;
}

}  // namespace

TensorImpl* new_output(const Backend& backend, const int64_t* shape, int32_t ndim,
                       kf_dtype_t dtype, kf_device_t device) {
  return new_output_on(backend, shape, ndim, dtype, device, current_stream(device));
}

TensorImpl* new_output_on(const Backend& backend, const int64_t* shape, int32_t ndim,
                          kf_dtype_t dtype, kf_device_t device, Stream* stream) {
  TensorImpl* t = acquire_contiguous(shape, ndim, dtype, device);
  size_t bytes = 0;
  if (__builtin_mul_overflow(static_cast<size_t>(t->numel), itemsize(dtype), &bytes)) {
    Pool<TensorImpl>::release(t);  // a wrapped count would allocate a small block to overrun
    fail(KF_OUT_OF_MEMORY, "a tensor of shape {} and dtype {} needs more than 2^64 bytes",
         shape_string(shape, ndim), dtype_name(dtype));
  }
  Block block;
  try {
    block = cache_allocate(backend, device, bytes, stream);
  } catch (...) {
    Pool<TensorImpl>::release(t);
    throw;
  }
  Storage* s = Pool<Storage>::acquire();
  s->block = block;
  s->data = block.ptr;
  s->nbytes = bytes;
  s->device = device;
  t->storage = s;
  t->data = block.ptr;
  return t;
}

TensorImpl* new_view(const TensorImpl& base, const int64_t* shape, const int64_t* strides,
                     int32_t ndim, int64_t offset) {
  TensorImpl* t = acquire_impl(shape, strides, ndim, base.dtype, base.device);
  t->offset = offset;
  t->storage = base.storage;
  t->data = static_cast<char*>(base.storage->data) +
            offset * static_cast<int64_t>(itemsize(t->dtype));
  base.storage->refs.fetch_add(1, std::memory_order_relaxed);
  return t;
}

TensorImpl* new_borrowed(void* data, const int64_t* shape, const int64_t* strides, int32_t ndim,
                         kf_dtype_t dtype, kf_device_t device, kf_deleter_t deleter, void* ctx) {
  const int64_t numel = checked_numel(shape, ndim, "kf_tensor_from_blob");
  if (!is_valid_dtype(dtype)) {
    fail(KF_INVALID_ARGUMENT, "kf_tensor_from_blob: invalid dtype value {}",
         static_cast<int>(dtype));
  }
  if (data == nullptr && numel > 0) {
    fail(KF_INVALID_ARGUMENT, "kf_tensor_from_blob: data is NULL for {} elements", numel);
  }
  int64_t own_strides[KF_MAX_NDIM];
  for (int32_t i = 0; strides != nullptr && i < ndim; ++i) {
    if (strides[i] < 0) {
      fail(KF_INVALID_ARGUMENT,
           "kf_tensor_from_blob: stride {} at dim {} is negative; negative strides are not "
           "supported (pass the address of the lowest element and non-negative strides)",
           strides[i], i);
    }
  }
  if (strides == nullptr) {
    contiguous_strides(shape, ndim, own_strides);
    strides = own_strides;
  }
  Storage* s = Pool<Storage>::acquire();
  s->data = data;
  s->nbytes = static_cast<size_t>(numel) * itemsize(dtype);
  s->device = device;
  s->borrowed = true;
  s->deleter = deleter;
  s->deleter_ctx = ctx;
  TensorImpl* t = acquire_impl(shape, strides, ndim, dtype, device);
  t->storage = s;
  t->data = data;
  return t;
}

void retain(TensorImpl* t) noexcept { t->refs.fetch_add(1, std::memory_order_relaxed); }

void release(TensorImpl* t) noexcept {
  if (!drop_reference(t->refs)) return;
  Storage* s = t->storage;
  t->magic = kTensorDead;
  t->storage = nullptr;
  if (s != nullptr) release_storage(s);
  // The object's memory stays in the pool with magic == kTensorDead until it is reused.
  Pool<TensorImpl>::release(t);
}

TensorImpl& checked(kf_tensor_t t, const char* what) {
  if (t == nullptr) fail(KF_INVALID_ARGUMENT, "{}: tensor handle is NULL", what);
  if (t->magic != kTensorAlive) {
    fail(KF_INVALID_ARGUMENT,
         "{}: tensor handle was already released (or is not a kernforge tensor)", what);
  }
  return *t;
}

bool is_contiguous(const TensorImpl& t) noexcept {
  if (t.numel == 0) return true;  // no element: any strides describe the same (empty) layout
  int64_t expected = 1;
  for (int32_t i = t.ndim - 1; i >= 0; --i) {
    if (t.shape[i] == 1) continue;
    if (t.shape[i] == 0) return true;
    if (t.strides[i] != expected) return false;
    expected *= t.shape[i];
  }
  return true;
}

}  // namespace kf
