// TensorImpl (the object behind a kf_tensor_t handle) and Storage.
//
// A tensor is shape, strides (in elements), storage offset, dtype, device and a reference to a
// storage. Views share the storage. TensorImpl knows nothing about Python, autograd or any
// backend. Both objects are reference counted; tensors live in a handle table (Note [Handles]),
// storages in a pool (Note [Object pools]).
// Ownership: every function returning a TensorImpl* gives the caller one reference. The C ABI
// turns that reference into a handle with handle_of and back with checked/find_tensor.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/handle_table.hpp"
#include "device/backend.hpp"
#include "kernforge/kernforge.h"
#include "kernforge/plugin.h"
#include "memory/caching_allocator.hpp"
#include "tensor/layout.hpp"

namespace kf {

struct Storage {
  std::atomic<int32_t> refs{1};
  Block block;                 // from the caching allocator, unless borrowed
  void* data = nullptr;
  size_t nbytes = 0;
  kf_device_t device{KF_DEVICE_NONE, 0};
  bool borrowed = false;       // kf_tensor_from_blob: memory the caller owns
  kf_deleter_t deleter = nullptr;
  void* deleter_ctx = nullptr;
  /// Other streams the memory was used on (kf_tensor_record_stream), each with a reference;
  /// nullptr until the first one. Guarded by used_on_lock.
  std::vector<Stream*>* used_on = nullptr;
  std::atomic<bool> used_on_lock{false};
  /// Bumped by every write through an op (in-place and out= calls, kf_tensor_fill_at): the
  /// version counter that views of one storage share (Note [Version counters]).
  std::atomic<uint32_t> version{0};
};

/// A tensor. Lives in a slot of TensorTable; the C ABI sees it only through its handle
/// (Note [Handles]): kf_tensor_s is never defined, so the compiler keeps the two apart.
struct TensorImpl {
  static constexpr const char* kHandleKind = "tensor";
  std::atomic<int32_t> refs{1};
  int32_t ndim = 0;
  kf_dtype_t dtype = KF_FLOAT32;
  kf_device_t device{KF_DEVICE_CPU, 0};
  int64_t numel = 1;
  int64_t offset = 0;          // in elements, into the storage
  void* data = nullptr;        // address of element [0,...,0]: storage data + offset * itemsize
  Storage* storage = nullptr;
  // Only the first ndim entries are meaningful; not zeroed, since that would cost every
  // tensor 256 bytes of stores.
  int64_t shape[KF_MAX_NDIM];
  int64_t strides[KF_MAX_NDIM];
  /// One functionality layer's per-tensor data (autograd's). The core never reads it; it
  /// hands it to the release hook when the tensor goes (set_layer_data_release).
  void* layer_data = nullptr;
};

/// The table of live tensors: 4096 slots a chunk, at most 2^26 live tensors.
using TensorTable = HandleTable<TensorImpl, 12, 26>;

/// The one decode of a tensor handle: the live tensor, or nullptr when `h` is NULL, released
/// or not a handle. Every use of a kf_tensor_t goes through it (or through checked()).
inline TensorImpl* find_tensor(kf_tensor_t h) noexcept {
  return TensorTable::find(handle_bits(h));
}

/// The one encode: the handle of a live tensor (nullptr for nullptr).
inline kf_tensor_t handle_of(const TensorImpl* t) noexcept {
  return t != nullptr ? handle_from_bits<kf_tensor_t>(TensorTable::handle_of(t)) : nullptr;
}

/// What is wrong with a handle find_tensor refused ("is NULL", "was already released ..."),
/// for messages that name more than checked() does (an op's argument).
std::string tensor_handle_problem(kf_tensor_t t);

/// Throws KF_INVALID_ARGUMENT: "<what>: tensor handle <problem>".
[[noreturn]] KF_COLD void fail_tensor_handle(kf_tensor_t t, const char* what);

/// Validates a handle from the C ABI: throws KF_INVALID_ARGUMENT naming `what` when NULL,
/// released or not a handle.
inline TensorImpl& checked(kf_tensor_t t, const char* what) {
  TensorImpl* x = find_tensor(t);
  if (x == nullptr) fail_tensor_handle(t, what);
  return *x;
}

/// A new contiguous tensor on `device` (uninitialised memory). Validates shape and dtype.
TensorImpl* new_tensor(const int64_t* shape, int32_t ndim, kf_dtype_t dtype, kf_device_t device);

/// A view of `base`'s storage with its own shape, strides and offset (elements). Checks the
/// layout rules (Note [Layout rules], tensor/layout.hpp): errors name `what`.
TensorImpl* new_view(const TensorImpl& base, const int64_t* shape, const int64_t* strides,
                     int32_t ndim, int64_t offset, const char* what = "view");

/// What the lender of borrowed memory vouches for: the bytes from data on (kf_tensor_from_blob,
/// so no negative stride), or every element the strides reach (a DLPack import).
enum class Borrow { FromData, Elements };

/// A tensor over borrowed memory (kf_tensor_from_blob; Note [Memory of kf_tensor_from_blob]).
/// Errors name `what` (the C ABI function). When it throws, the deleter is not called. The
/// deleter gets the lowest address of the span (`data` unless a stride is negative).
TensorImpl* new_borrowed(void* data, const int64_t* shape, const int64_t* strides, int32_t ndim,
                         kf_dtype_t dtype, kf_device_t device, kf_deleter_t deleter, void* ctx,
                         const char* what = "kf_tensor_from_blob",
                         Borrow borrow = Borrow::FromData);

void retain(TensorImpl* t) noexcept;
void release(TensorImpl* t) noexcept;

/// The function that frees TensorImpl::layer_data when its tensor is released (set once, by
/// the layer that uses the slot).
using LayerDataRelease = void (*)(void* data) noexcept;
void set_layer_data_release(LayerDataRelease fn) noexcept;

// Note [Version counters]
// A tensor's version is its storage's counter, so a view and its base share one, as in
// PyTorch. The dispatcher bumps it after every call that writes a tensor it was given (in-place
// and out= calls); autograd compares it with the version a saved tensor had when it was saved.
inline uint32_t version_of(const TensorImpl& t) noexcept {
  return t.storage != nullptr ? t.storage->version.load(std::memory_order_relaxed) : 0;
}
inline void bump_version(TensorImpl& t) noexcept {
  if (t.storage != nullptr) t.storage->version.fetch_add(1, std::memory_order_relaxed);
}

/// Whether the tensor's elements are laid out row-major without gaps.
bool is_contiguous(const TensorImpl& t) noexcept;

/// Address of element [0,...,0].
inline void* data_ptr(const TensorImpl& t) noexcept { return t.data; }

/// The view a kernel sees.
inline kf_tensor_view_t kernel_view(const TensorImpl& t) noexcept {
  kf_tensor_view_t v;
  v.data = data_ptr(t);
  v.dtype = t.dtype;
  v.ndim = t.ndim;
  v.shape = t.shape;
  v.strides = t.strides;
  v.device = t.device;
  v.numel = t.numel;
  return v;
}

/// A new contiguous output tensor for the dispatcher: shape and dtype were validated by the
/// meta function and `backend` serves `device`. Its memory belongs to the thread's current
/// stream on `device`.
TensorImpl* new_output(const Backend& backend, const int64_t* shape, int32_t ndim,
                       kf_dtype_t dtype, kf_device_t device);
/// The same, on stream `stream` of `device` (nullptr: the default stream).
TensorImpl* new_output_on(const Backend& backend, const int64_t* shape, int32_t ndim,
                          kf_dtype_t dtype, kf_device_t device, Stream* stream);

/// Marks `t`'s memory as used on `stream` too (nullptr: the default stream): when it is freed,
/// it is reused only after the work queued on `stream` so far has passed (Note [Blocks and
/// streams]). Nothing to do on a synchronous backend.
void record_stream(TensorImpl& t, Stream* stream);

/// Row-major strides for a shape.
void contiguous_strides(const int64_t* shape, int32_t ndim, int64_t* strides) noexcept;

/// "[2, 3]".
std::string shape_string(const int64_t* shape, int32_t ndim);

/// RAII holder of one reference.
class TensorRef {
 public:
  TensorRef() = default;
  explicit TensorRef(TensorImpl* t) noexcept : t_(t) {}
  TensorRef(const TensorRef&) = delete;
  TensorRef& operator=(const TensorRef&) = delete;
  TensorRef(TensorRef&& o) noexcept : t_(o.t_) { o.t_ = nullptr; }
  TensorRef& operator=(TensorRef&& o) noexcept {
    if (this != &o) {
      reset();
      t_ = o.t_;
      o.t_ = nullptr;
    }
    return *this;
  }
  ~TensorRef() { reset(); }
  void reset() noexcept {
    if (t_ != nullptr) release(t_);
    t_ = nullptr;
  }
  TensorImpl* get() const noexcept { return t_; }
  TensorImpl* operator->() const noexcept { return t_; }
  TensorImpl& operator*() const noexcept { return *t_; }
  TensorImpl* take() noexcept {
    TensorImpl* t = t_;
    t_ = nullptr;
    return t;
  }
  explicit operator bool() const noexcept { return t_ != nullptr; }

 private:
  TensorImpl* t_ = nullptr;
};

}  // namespace kf
