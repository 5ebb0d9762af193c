#include "tensor/tensor_impl.hpp"

#include <limits>
#include <string>
#include <thread>

#include "core/checked_math.hpp"
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
  TensorImpl* t = TensorTable::acquire();
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

void contiguous_strides(const int64_t* shape, int32_t ndim, int64_t* strides) noexcept {
  int64_t s = 1;
  for (int32_t i = ndim - 1; i >= 0; --i) {
    strides[i] = s;
    s = saturating_stride(s, shape[i]);
  }
}

TensorImpl* new_tensor(const int64_t* shape, int32_t ndim, kf_dtype_t dtype, kf_device_t device) {
  if (!is_valid_dtype(dtype)) {
    fail(KF_INVALID_ARGUMENT, "invalid dtype value {}", static_cast<int>(dtype));
  }
  check_shape(shape, ndim, itemsize(dtype), "new tensor");
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

// A tensor with contiguous strides for `shape` and no storage yet, and its byte count (shape,
// strides, numel and the layout rules 1 and 2 in one pass: this is on every op's path). Throws
// the layout error of a shape that breaks them (Note [Layout rules]).
TensorImpl* acquire_contiguous(const int64_t* shape, int32_t ndim, kf_dtype_t dtype,
                               kf_device_t device, size_t* bytes) {
  const size_t item = itemsize(dtype);
  if (ndim < 0 || ndim > KF_MAX_NDIM) fail_shape(shape, ndim, item, "new tensor");
  TensorImpl* t = TensorTable::acquire();
  t->ndim = ndim;
  t->dtype = dtype;
  t->device = device;
  int64_t stride = 1, extent_bytes = 0;
  bool bad = false, empty = false;
  for (int32_t i = ndim - 1; i >= 0; --i) {
    const int64_t size = shape[i];
    t->shape[i] = size;
    t->strides[i] = stride;
    bad |= size < 0 || !checked_mul(stride, size > 1 ? size : int64_t{1}, &stride);
    empty |= size == 0;
  }
  if (bad || !checked_bytes(stride, item, &extent_bytes)) {
    TensorTable::release(t);
    fail_shape(shape, ndim, item, "new tensor");
  }
  t->numel = empty ? 0 : stride;
  *bytes = empty ? 0 : static_cast<size_t>(extent_bytes);
  return t;
}

// An allocation that failed, with the tensor it was for.
[[noreturn]] KF_COLD void fail_allocation(const Error& e, const int64_t* shape, int32_t ndim,
                                          kf_dtype_t dtype) {
  throw Error(e.status(), fmt::format("{} (for a tensor of shape {} and dtype {})", e.what(),
                                      shape_string(shape, ndim), dtype_name(dtype)));
}

}  // namespace

TensorImpl* new_output(const Backend& backend, const int64_t* shape, int32_t ndim,
                       kf_dtype_t dtype, kf_device_t device) {
  return new_output_on(backend, shape, ndim, dtype, device, current_stream(device));
}

TensorImpl* new_output_on(const Backend& backend, const int64_t* shape, int32_t ndim,
                          kf_dtype_t dtype, kf_device_t device, Stream* stream) {
  size_t bytes = 0;
  TensorImpl* t = acquire_contiguous(shape, ndim, dtype, device, &bytes);
  Storage* s = nullptr;
  Block block;
  try {  // out of memory in either: nothing is kept
    s = Pool<Storage>::acquire();
    block = cache_allocate(backend, device, bytes, stream);
  } catch (const Error& e) {
    if (s != nullptr) Pool<Storage>::release(s);
    TensorTable::release(t);
    fail_allocation(e, shape, ndim, dtype);
  } catch (...) {
    if (s != nullptr) Pool<Storage>::release(s);
    TensorTable::release(t);
    throw;
  }
  s->block = block;
  s->data = block.ptr;
  s->nbytes = bytes;
  s->device = device;
  t->storage = s;
  t->data = block.ptr;
  return t;
}

TensorImpl* new_view(const TensorImpl& base, const int64_t* shape, const int64_t* strides,
                     int32_t ndim, int64_t offset, const char* what) {
  const size_t item = itemsize(base.dtype);
  const Reach r = check_strides(shape, strides, ndim, item, what);
  check_in_storage(shape, strides, ndim, offset, r, item, base.storage->nbytes, what);
  TensorImpl* t = acquire_impl(shape, strides, ndim, base.dtype, base.device);
  t->offset = offset;
  t->storage = base.storage;
  t->data = static_cast<char*>(base.storage->data) +
            offset * static_cast<int64_t>(itemsize(t->dtype));
  base.storage->refs.fetch_add(1, std::memory_order_relaxed);
  return t;
}

namespace {

// Note [Memory of kf_tensor_from_blob]
// The caller vouches for the bytes from `data` (the address of element [0, ..., 0]) up to the
// last element its strides reach; nothing before `data`. So a negative stride, which would
// reach before `data`, is refused, and the reach must not wrap the address space. The storage
// is that span, so the views of the tensor stay inside it (Note [Layout rules]). A DLPack
// producer vouches for every element of its tensor, so an import (Reach::Elements) takes
// negative strides: the storage then starts at the lowest element and the tensor at an offset
// into it, as a reversed view of a kernforge tensor does.

/// The borrowed span: its lowest address, its bytes, and the offset (in elements) of `data`.
struct Span {
  void* base = nullptr;
  size_t bytes = 0;
  int64_t offset = 0;
};

Span borrowed_span(void* data, const int64_t* shape, const int64_t* strides, int32_t ndim,
                   size_t item, Borrow borrow, const char* what) {
  for (int32_t i = 0; i < ndim && borrow == Borrow::FromData; ++i) {
    if (strides[i] < 0) {
      fail(KF_INVALID_ARGUMENT,
           "{}: stride {} at dim {} of strides {} (shape {}) is negative, which would reach "
           "before data; pass the address of the lowest element and non-negative strides", what,
           strides[i], i, shape_string(strides, ndim), shape_string(shape, ndim));
    }
  }
  const Reach r = check_strides(shape, strides, ndim, item, what);
  if (r.numel == 0) return Span{data, 0, 0};
  // Both fit: check_strides bounds every reach, in bytes, by int64.
  const uintptr_t below = static_cast<uintptr_t>(-r.lo) * item;
  const size_t bytes = static_cast<size_t>(r.hi - r.lo + 1) * item;
  const uintptr_t at = reinterpret_cast<uintptr_t>(data);
  uintptr_t end = 0;
  if (at < below || !checked_add(at - below, static_cast<uintptr_t>(bytes), &end)) {
    fail(KF_INVALID_ARGUMENT, "{}: the {} bytes of shape {} with strides {} around address {} "
         "wrap around the address space", what, bytes, shape_string(shape, ndim),
         shape_string(strides, ndim), data);
  }
  return Span{reinterpret_cast<void*>(at - below), bytes, -r.lo};
}

}  // namespace

TensorImpl* new_borrowed(void* data, const int64_t* shape, const int64_t* strides, int32_t ndim,
                         kf_dtype_t dtype, kf_device_t device, kf_deleter_t deleter, void* ctx,
                         const char* what, Borrow borrow) {
  if (!is_valid_dtype(dtype)) {
    fail(KF_INVALID_ARGUMENT, "{}: invalid dtype value {}", what, static_cast<int>(dtype));
  }
  const size_t item = itemsize(dtype);
  const int64_t numel = check_shape(shape, ndim, item, what);
  if (data == nullptr && numel > 0) {
    fail(KF_INVALID_ARGUMENT, "{}: data is NULL for {} elements of shape {}", what, numel,
         shape_string(shape, ndim));
  }
  int64_t own_strides[KF_MAX_NDIM];
  if (strides == nullptr) {
    contiguous_strides(shape, ndim, own_strides);
    strides = own_strides;
  }
  const Span span = borrowed_span(data, shape, strides, ndim, item, borrow, what);
  // Out of memory: nothing is kept and the deleter is not called (the caller keeps the memory).
  TensorImpl* t = acquire_impl(shape, strides, ndim, dtype, device);
  Storage* s = nullptr;
  try {
    s = Pool<Storage>::acquire();
  } catch (...) {
    TensorTable::release(t);
    throw;
  }
  s->data = span.base;
  s->nbytes = span.bytes;
  s->device = device;
  s->borrowed = true;
  s->deleter = deleter;
  s->deleter_ctx = ctx;
  t->storage = s;
  t->offset = span.offset;
  t->data = data;
  return t;
}

void retain(TensorImpl* t) noexcept { t->refs.fetch_add(1, std::memory_order_relaxed); }

namespace {
std::atomic<LayerDataRelease> g_layer_data_release{nullptr};
}  // namespace

void set_layer_data_release(LayerDataRelease fn) noexcept {
  g_layer_data_release.store(fn, std::memory_order_release);
}

void release(TensorImpl* t) noexcept {
  if (!drop_reference(t->refs)) return;
  if (t->layer_data != nullptr) {
    void* data = t->layer_data;
    t->layer_data = nullptr;
    g_layer_data_release.load(std::memory_order_acquire)(data);
  }
  Storage* s = t->storage;
  // The handle stops matching here, before the storage goes (Note [Handles]).
  TensorTable::release(t);
  if (s != nullptr) release_storage(s);
}

std::string tensor_handle_problem(kf_tensor_t t) {
  return handle_problem(TensorTable::state(handle_bits(t)), TensorImpl::kHandleKind);
}

void fail_tensor_handle(kf_tensor_t t, const char* what) {
  fail(KF_INVALID_ARGUMENT, "{}: tensor handle {}", what, tensor_handle_problem(t));
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
