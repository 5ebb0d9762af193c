// kernforge.hpp — the header-only C++17 frontend of kernforge.
//
// Everything here calls only the C ABI (kernforge.h); no C++ type crosses it. Failures of the C
// ABI become kf::Error exceptions carrying the kf_status_t and kf_last_error_message().
//
// Ownership: kf::Tensor owns one reference of its kf_tensor_t handle (copy = retain, move
// steals, destruction = release). A default-constructed Tensor is undefined (null handle); passed
// where the schema says `Tensor?` it means None.
// Thread safety: as the C ABI (a Tensor may be read from several threads; writing it while
// another thread uses it is a data race).
// The op functions and Tensor methods are generated from dispatcher/ops.yaml
// (tensor_methods.inc inside the class, kernforge_ops.hpp after it).
#ifndef KERNFORGE_KERNFORGE_HPP_
#define KERNFORGE_KERNFORGE_HPP_

#include <complex>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernforge/dtypes.hpp"
#include "kernforge/kernforge.h"

namespace kf {

class Tensor;

// ------------------------------------------------------------------------------- errors --

/// A failed C ABI call: the status and the thread's kf_last_error_message().
class Error : public std::runtime_error {
 public:
  Error(kf_status_t status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  kf_status_t status() const noexcept { return status_; }
  const char* status_name() const noexcept { return kf_status_name(status_); }

 private:
  kf_status_t status_;
};

namespace detail {
/// Throws kf::Error unless `s` is KF_OK.
inline void check(kf_status_t s) {
  if (s != KF_OK) throw Error(s, kf_last_error_message());
}
/// The handles of `tensors`, borrowed for one call.
inline std::vector<kf_tensor_t> handles(const std::vector<Tensor>& tensors);
}  // namespace detail

// ------------------------------------------------------------------------------- dtypes --

/// The dtypes of KF_DTYPE_LIST (kernforge/types.h) by C++ names. The facts below (kind, size,
/// element type) come from the list through kernforge/dtypes.hpp.
enum class Dtype : int32_t {
  Undefined = KF_DTYPE_UNDEFINED,
#define KF_CPP_DTYPE_(suffix, value, name, short_name, bytes, kind, cpp_name) cpp_name = KF_##suffix,
  KF_DTYPE_LIST(KF_CPP_DTYPE_)
#undef KF_CPP_DTYPE_
};

inline const char* dtype_name(Dtype d) { return kf_dtype_name(static_cast<kf_dtype_t>(d)); }
inline std::size_t itemsize(Dtype d) { return kf_dtype_size(static_cast<kf_dtype_t>(d)); }
inline bool is_floating(Dtype d) { return is_floating_dtype(static_cast<int>(d)); }
inline std::ostream& operator<<(std::ostream& os, Dtype d) { return os << dtype_name(d); }

namespace detail {
/// The dtype whose element type (kernforge/dtypes.hpp) is T, or KF_DTYPE_UNDEFINED.
template <typename T>
constexpr int dtype_holding() {
  int found = KF_DTYPE_UNDEFINED;
  for_each_dtype([&found](auto tag) {
    if (std::is_same_v<typename decltype(tag)::type, T>) found = tag.kDtype;
  });
  return found;
}
}  // namespace detail

/// The Dtype of a C++ element type: dtype_of<float>::value == Dtype::Float32, and
/// dtype_of<kf::Half>::value == Dtype::Float16. Only for the element types of a dtype.
template <typename T>
struct dtype_of {
  static_assert(detail::dtype_holding<T>() != KF_DTYPE_UNDEFINED,
                "no kernforge dtype has this element type");
  static constexpr Dtype value = static_cast<Dtype>(detail::dtype_holding<T>());
};

// ------------------------------------------------------------------------------ devices --

/// A device: a kf_device_t with string conversions ("cpu", "cuda:1").
class Device {
 public:
  Device() : d_(kf_device_cpu()) {}
  Device(kf_device_t d) : d_(d) {}  // NOLINT(google-explicit-constructor)
  Device(const char* text) { detail::check(kf_device_parse(text, &d_)); }  // NOLINT
  Device(const std::string& text) : Device(text.c_str()) {}                // NOLINT
  static Device cpu() { return Device(kf_device_cpu()); }

  kf_device_t c() const { return d_; }
  int32_t type() const { return d_.type; }
  int32_t index() const { return d_.index; }
  std::string str() const {
    char buf[64];
    detail::check(kf_device_name(d_, buf, sizeof buf));
    return buf;
  }
  friend bool operator==(const Device& a, const Device& b) {
    return a.d_.type == b.d_.type && a.d_.index == b.d_.index;
  }
  friend bool operator!=(const Device& a, const Device& b) { return !(a == b); }

 private:
  kf_device_t d_{};
};

inline std::ostream& operator<<(std::ostream& os, const Device& d) { return os << d.str(); }

// ------------------------------------------------------------------------------ scalars --

/// A number passed to an op: float64, int64, uint64, bool or complex128 (integers stay exact).
class Scalar {
 public:
  Scalar(double x) : s_(kf_scalar_f64(x)) {}  // NOLINT(google-explicit-constructor)
  Scalar(float x) : s_(kf_scalar_f64(x)) {}   // NOLINT
  Scalar(bool x) : s_(kf_scalar_bool(x)) {}   // NOLINT
  /// Signed integers as int64; unsigned ones as int64 when they fit, else as uint64.
  template <typename I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>,
                                         int> = 0>
  Scalar(I x)  // NOLINT
      : s_(std::is_signed_v<I> || static_cast<uint64_t>(x) <= INT64_MAX
               ? kf_scalar_i64(static_cast<int64_t>(x))
               : kf_scalar_u64(static_cast<uint64_t>(x))) {}
  template <typename F>
  Scalar(std::complex<F> z)  // NOLINT
      : s_(kf_scalar_c128(static_cast<double>(z.real()), static_cast<double>(z.imag()))) {}
  Scalar(kf_scalar_t s) : s_(s) {}  // NOLINT

  kf_scalar_t c() const { return s_; }
  bool is_floating() const { return s_.tag == KF_SCALAR_FLOAT64; }
  bool is_integral() const { return s_.tag == KF_SCALAR_INT64 || s_.tag == KF_SCALAR_UINT64; }
  bool is_bool() const { return s_.tag == KF_SCALAR_BOOL; }
  bool is_complex() const { return s_.tag == KF_SCALAR_COMPLEX128; }
  /// The value as T: any number as std::complex<F>; a complex one as a real T only when its
  /// imaginary part is zero (else kf::Error, KF_INVALID_ARGUMENT).
  template <typename T>
  T to() const;
  double to_double() const { return to<double>(); }

 private:
  kf_scalar_t s_;
};

namespace detail {
template <typename T>
struct is_complex : std::false_type {};
template <typename F>
struct is_complex<std::complex<F>> : std::true_type {};
}  // namespace detail

template <typename T>
T Scalar::to() const {
  if constexpr (detail::is_complex<T>::value) {
    using F = typename T::value_type;
    if (is_complex()) return T(static_cast<F>(s_.v.c128.re), static_cast<F>(s_.v.c128.im));
    return T(to<F>(), F(0));
  } else {
    switch (s_.tag) {
      case KF_SCALAR_FLOAT64: return static_cast<T>(s_.v.f64);
      case KF_SCALAR_INT64: return static_cast<T>(s_.v.i64);
      case KF_SCALAR_UINT64: return static_cast<T>(s_.v.u64);
      case KF_SCALAR_BOOL: return static_cast<T>(s_.v.b);
      default: break;
    }
    if (s_.v.c128.im != 0.0) {
      throw Error(KF_INVALID_ARGUMENT,
                  "a complex value with a nonzero imaginary part as a real number: ask for "
                  "std::complex<double> (item<std::complex<double>>())");
    }
    return static_cast<T>(s_.v.c128.re);
  }
}

// ------------------------------------------------------------------------- basic index --

/// One item of a basic index (kf_index_item_t), numpy's keys that give a view:
/// `t.index({Index::at(1), Index::slice(0, std::nullopt, 2), Index::new_axis()})` is
/// numpy's `t[1, 0::2, None]`.
class Index {
 public:
  /// An index along the next dim, which it removes (< 0 counts from the end).
  static Index at(int64_t i) {
    Index x;
    x.item_.kind = KF_INDEX_INT;
    x.item_.index = i;
    return x;
  }
  /// start:stop:step along the next dim, with Python's rules (nullopt is Python's None).
  static Index slice(std::optional<int64_t> start = std::nullopt,
                     std::optional<int64_t> stop = std::nullopt, int64_t step = 1) {
    Index x;
    x.item_.kind = KF_INDEX_SLICE;
    x.item_.has_start = start.has_value();
    x.item_.has_stop = stop.has_value();
    x.item_.start = start.value_or(0);
    x.item_.stop = stop.value_or(0);
    x.item_.step = step;
    return x;
  }
  /// numpy's None: a new dim of size 1.
  static Index new_axis() {
    Index x;
    x.item_.kind = KF_INDEX_NEW_AXIS;
    return x;
  }
  /// numpy's ...: the dims no other item takes.
  static Index ellipsis() {
    Index x;
    x.item_.kind = KF_INDEX_ELLIPSIS;
    return x;
  }
  const kf_index_item_t& c() const { return item_; }

 private:
  kf_index_item_t item_{};
};

// ------------------------------------------------------------------------- int arrays --

/// A non-owning view of int64 values (shapes, dims). The initializer_list form lives until the
/// end of the full expression, which is long enough for an argument. Where an op takes an
/// optional list (`int[]?`, std::optional<IntArrayRef>), C++17 cannot build it from bare braces:
/// write `t.sum(kf::IntArrayRef{0})` or pass a std::vector<int64_t>.
class IntArrayRef {
 public:
  IntArrayRef() = default;
  IntArrayRef(std::initializer_list<int64_t> v)  // NOLINT(google-explicit-constructor)
      : data_(std::data(v)), size_(v.size()) {}
  IntArrayRef(const std::vector<int64_t>& v)  // NOLINT(google-explicit-constructor)
      : data_(v.data()), size_(v.size()) {}
  IntArrayRef(const int64_t* data, std::size_t size) : data_(data), size_(size) {}

  const int64_t* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const int64_t* begin() const { return data_; }
  const int64_t* end() const { return data_ + size_; }
  int64_t operator[](std::size_t i) const { return data_[i]; }
  std::vector<int64_t> vec() const { return std::vector<int64_t>(begin(), end()); }

 private:
  const int64_t* data_ = nullptr;
  std::size_t size_ = 0;
};

/// An optional int list (`int[]?` in the schema): std::nullopt for None, or a list, written
/// `t.sum({0, 1})`, `t.sum(dims)` or `t.sum(std::nullopt)`.
class OptionalIntArrayRef {
 public:
  OptionalIntArrayRef() = default;
  OptionalIntArrayRef(std::nullopt_t) {}  // NOLINT(google-explicit-constructor)
  OptionalIntArrayRef(std::initializer_list<int64_t> v)  // NOLINT(google-explicit-constructor)
      : ref_(v), has_(true) {}
  OptionalIntArrayRef(const std::vector<int64_t>& v)  // NOLINT(google-explicit-constructor)
      : ref_(v), has_(true) {}
  OptionalIntArrayRef(IntArrayRef v) : ref_(v), has_(true) {}  // NOLINT

  explicit operator bool() const { return has_; }
  bool has_value() const { return has_; }
  const IntArrayRef* operator->() const { return &ref_; }
  const IntArrayRef& operator*() const { return ref_; }

 private:
  IntArrayRef ref_;
  bool has_ = false;
};

// ------------------------------------------------------------------------------ tensors --

/// A reference-counted tensor handle of the C ABI.
/// Turns grad mode off for the calling thread for its scope (nothing records), and restores
/// it after: inference, and optimizer updates of parameters that require grad.
class NoGradGuard {
 public:
  NoGradGuard() { detail::check(kf_set_grad_enabled(false, &previous_)); }
  ~NoGradGuard() { kf_set_grad_enabled(previous_, nullptr); }
  NoGradGuard(const NoGradGuard&) = delete;
  NoGradGuard& operator=(const NoGradGuard&) = delete;

 private:
  bool previous_ = true;
};

class Tensor {
 public:
  Tensor() = default;
  Tensor(const Tensor& o) : h_(o.h_) {
    if (h_) detail::check(kf_tensor_retain(h_));
  }
  Tensor(Tensor&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  Tensor& operator=(const Tensor& o) {
    if (o.h_) detail::check(kf_tensor_retain(o.h_));
    reset(o.h_);
    return *this;
  }
  Tensor& operator=(Tensor&& o) noexcept {
    if (this != &o) reset(std::exchange(o.h_, nullptr));
    return *this;
  }
  ~Tensor() { reset(nullptr); }

  /// Wraps a handle, taking over the caller's reference (nullptr gives an undefined Tensor).
  static Tensor adopt(kf_tensor_t h) {
    Tensor t;
    t.h_ = h;
    return t;
  }
  /// Gives up the handle without releasing it; the caller owns that reference.
  kf_tensor_t release() noexcept { return std::exchange(h_, nullptr); }

  kf_tensor_t handle() const { return h_; }
  bool defined() const { return h_ != nullptr; }

  int64_t dim() const {
    int32_t n = 0;
    detail::check(kf_tensor_ndim(h_, &n));
    return n;
  }
  std::vector<int64_t> sizes() const {
    const int64_t* p = nullptr;
    detail::check(kf_tensor_shape(h_, &p));
    return std::vector<int64_t>(p, p + dim());
  }
  int64_t size(int64_t d) const {
    const std::vector<int64_t> s = sizes();
    return s.at(static_cast<std::size_t>(d < 0 ? d + static_cast<int64_t>(s.size()) : d));
  }
  std::vector<int64_t> strides() const {
    const int64_t* p = nullptr;
    detail::check(kf_tensor_strides(h_, &p));
    return std::vector<int64_t>(p, p + dim());
  }
  int64_t numel() const {
    int64_t n = 0;
    detail::check(kf_tensor_numel(h_, &n));
    return n;
  }
  Dtype dtype() const {
    kf_dtype_t d = KF_DTYPE_UNDEFINED;
    detail::check(kf_tensor_dtype(h_, &d));
    return static_cast<Dtype>(d);
  }
  Device device() const {
    kf_device_t d{};
    detail::check(kf_tensor_device(h_, &d));
    return Device(d);
  }
  bool is_contiguous() const {
    bool c = false;
    detail::check(kf_tensor_is_contiguous(h_, &c));
    return c;
  }

  /// The address of element [0,...,0] as T*; T must match the dtype.
  template <typename T> T* data_ptr() const {
    expect_dtype(dtype_of<T>::value, "data_ptr");
    void* p = nullptr;
    detail::check(kf_tensor_data_ptr(h_, &p));
    return static_cast<T*>(p);
  }
  /// The value of a 1-element tensor, converted to T.
  template <typename T> T item() const {
    kf_scalar_t s{};
    detail::check(kf_tensor_item(h_, &s));
    return Scalar(s).to<T>();
  }
  /// All elements in row-major order on the host, converted to T's dtype when needed.
  template <typename T> std::vector<T> to_vector() const;

  /// The view a whole basic index names, in one call (kf_tensor_index).
  Tensor index(std::initializer_list<Index> key) const {
    std::vector<kf_index_item_t> items;
    items.reserve(key.size());
    for (const Index& i : key) items.push_back(i.c());
    kf_tensor_t out = nullptr;
    detail::check(kf_tensor_index(h_, items.data(), static_cast<int32_t>(items.size()), &out));
    return adopt(out);
  }
  /// The element at `index` (one int per dim, < 0 from the end), converted to T, without a
  /// view (kf_tensor_item_at).
  template <typename T> T item_at(IntArrayRef index) const {
    kf_scalar_t s{};
    detail::check(kf_tensor_item_at(h_, index.data(), static_cast<int32_t>(index.size()), &s));
    return Scalar(s).to<T>();
  }
  /// Sets the element at `index` to `value`, as fill_ of that element (kf_tensor_fill_at).
  void fill_at(IntArrayRef index, Scalar value) {
    detail::check(kf_tensor_fill_at(h_, index.data(), static_cast<int32_t>(index.size()),
                                    value.c()));
  }

  /// A copy on `device` with `dtype` (Dtype::Undefined keeps the dtype).
  Tensor to(Device device, Dtype dtype = Dtype::Undefined) const {
    kf_tensor_t out = nullptr;
    detail::check(kf_tensor_to(h_, device.c(), static_cast<kf_dtype_t>(dtype), &out));
    return adopt(out);
  }
  Tensor to(Dtype dtype) const { return to(device(), dtype); }

  /// A zero-copy DLPack export (kf_tensor_to_dlpack): the struct keeps the tensor's memory
  /// alive until `m->deleter(m)` runs, which its owner calls once.
  DLManagedTensorVersioned* to_dlpack() const {
    DLManagedTensorVersioned* m = nullptr;
    detail::check(kf_tensor_to_dlpack(h_, &m));
    return m;
  }
  /// The same as the unversioned struct (kf_tensor_to_dlpack_legacy).
  DLManagedTensor* to_dlpack_legacy() const {
    DLManagedTensor* m = nullptr;
    detail::check(kf_tensor_to_dlpack_legacy(h_, &m));
    return m;
  }

  // Autograd (docs/autograd.md).
  /// Marks this leaf as requiring grad (or not); returns it.
  Tensor& requires_grad_(bool requires_grad = true) {
    detail::check(kf_tensor_set_requires_grad(h_, requires_grad));
    return *this;
  }
  bool requires_grad() const {
    bool r = false;
    detail::check(kf_tensor_requires_grad(h_, &r));
    return r;
  }
  bool is_leaf() const {
    bool leaf = true;
    detail::check(kf_tensor_is_leaf(h_, &leaf));
    return leaf;
  }
  /// The gradient backward accumulated (an undefined Tensor when none).
  Tensor grad() const {
    kf_tensor_t g = nullptr;
    detail::check(kf_tensor_grad(h_, &g));
    return adopt(g);
  }
  /// Replaces the gradient; an undefined Tensor clears it.
  void set_grad(const Tensor& g) { detail::check(kf_tensor_set_grad(h_, g.handle())); }
  /// A view of the same elements that does not require grad.
  Tensor detach() const {
    kf_tensor_t out = nullptr;
    detail::check(kf_tensor_detach(h_, &out));
    return adopt(out);
  }
  /// Adds the gradients of this one-element tensor into the leaves' .grad.
  void backward() const { detail::check(kf_backward(&h_, nullptr, 1, false, false)); }
  /// The same, seeded with `gradient` (any shape: this tensor's).
  void backward(const Tensor& gradient, bool retain_graph = false,
                bool create_graph = false) const {
    const kf_tensor_t g = gradient.handle();
    detail::check(kf_backward(&h_, &g, 1, retain_graph, create_graph));
  }

  Tensor& operator+=(const Tensor& o) { return add_(o); }
  Tensor& operator-=(const Tensor& o) { return sub_(o); }
  Tensor& operator*=(const Tensor& o) { return mul_(o); }
  Tensor& operator/=(const Tensor& o) { return div_(o); }
  Tensor& operator+=(Scalar s);
  Tensor& operator-=(Scalar s);
  Tensor& operator*=(Scalar s);
  Tensor& operator/=(Scalar s);

#include "kernforge/tensor_methods.inc"

 private:
  void reset(kf_tensor_t h) noexcept {
    if (h_) kf_tensor_release(h_);
    h_ = h;
  }
  void expect_dtype(Dtype want, const char* what) const {
    const Dtype have = dtype();
    if (have != want) {
      throw Error(KF_INVALID_ARGUMENT, std::string("Tensor::") + what + ": the tensor is " +
                                           dtype_name(have) + ", the C++ type asks for " +
                                           dtype_name(want));
    }
  }

  kf_tensor_t h_ = nullptr;
};

/// A tensor over a DLPack tensor's memory, without a copy (kf_tensor_from_dlpack). On success
/// the tensor owns `src` (its deleter runs when the memory's last tensor goes); when this
/// throws, `src` is still the caller's.
inline Tensor from_dlpack(DLManagedTensorVersioned* src) {
  kf_tensor_t out = nullptr;
  detail::check(kf_tensor_from_dlpack(src, &out));
  return Tensor::adopt(out);
}
/// The same for the unversioned struct (kf_tensor_from_dlpack_legacy).
inline Tensor from_dlpack(DLManagedTensor* src) {
  kf_tensor_t out = nullptr;
  detail::check(kf_tensor_from_dlpack_legacy(src, &out));
  return Tensor::adopt(out);
}

namespace detail {
inline std::vector<kf_tensor_t> handles(const std::vector<Tensor>& tensors) {
  std::vector<kf_tensor_t> h;
  h.reserve(tensors.size());
  for (const Tensor& t : tensors) h.push_back(t.handle());
  return h;
}

/// Copies `t` (any dtype) to host memory as T.
template <typename T> std::vector<T> copy_to_host(const Tensor& t) {
  const Tensor src = t.dtype() == dtype_of<T>::value ? t : t.to(dtype_of<T>::value);
  std::vector<T> out(static_cast<std::size_t>(src.numel()));
  detail::check(kf_tensor_copy_to_host(src.handle(), out.data(), out.size() * sizeof(T)));
  return out;
}
}  // namespace detail

template <typename T> std::vector<T> Tensor::to_vector() const {
  if constexpr (std::is_same_v<T, bool>) {
    // std::vector<bool> packs bits: go through one byte per element.
    static_assert(sizeof(bool) == 1, "kf::Tensor::to_vector<bool> needs a one-byte bool");
    const Tensor src = dtype() == Dtype::Bool ? *this : to(Dtype::Bool);
    std::vector<uint8_t> bytes(static_cast<std::size_t>(src.numel()));
    detail::check(kf_tensor_copy_to_host(src.handle(), bytes.data(), bytes.size()));
    return std::vector<bool>(bytes.begin(), bytes.end());
  } else {
    return detail::copy_to_host<T>(*this);
  }
}

// -------------------------------------------------------------------------- factories --

/// A tensor holding a copy of `values` with `shape` (numel must match) on `device`.
template <typename T>
Tensor from_vector(const std::vector<T>& values, IntArrayRef shape,
                   Device device = Device::cpu()) {
  const auto dtype = static_cast<kf_dtype_t>(dtype_of<T>::value);
  kf_tensor_t out = nullptr;
  if constexpr (std::is_same_v<T, bool>) {
    const std::vector<uint8_t> bytes(values.begin(), values.end());
    detail::check(kf_tensor_from_data(bytes.data(), shape.data(),
                                      static_cast<int32_t>(shape.size()), dtype, device.c(),
                                      &out));
  } else {
    detail::check(kf_tensor_from_data(values.data(), shape.data(),
                                      static_cast<int32_t>(shape.size()), dtype, device.c(),
                                      &out));
  }
  return Tensor::adopt(out);
}

/// A 1-D tensor holding a copy of `values`.
template <typename T>
Tensor from_vector(const std::vector<T>& values, Device device = Device::cpu()) {
  return from_vector(values, {static_cast<int64_t>(values.size())}, device);
}

/// kf::tensor({1.f, 2.f, 3.f}) (1-D) or kf::tensor({1, 2, 3, 4}, {2, 2}); the dtype follows T.
template <typename T>
Tensor tensor(std::initializer_list<T> values, IntArrayRef shape,
              Device device = Device::cpu()) {
  return from_vector(std::vector<T>(values), shape, device);
}
template <typename T>
Tensor tensor(std::initializer_list<T> values, Device device = Device::cpu()) {
  return from_vector(std::vector<T>(values), device);
}
/// A 0-dim tensor holding `value`.
template <typename T, std::enable_if_t<std::is_arithmetic_v<T> || detail::is_complex<T>::value,
                                       int> = 0>
Tensor tensor(T value, Device device = Device::cpu()) {
  return from_vector(std::vector<T>{value}, {}, device);
}

namespace detail {
/// The dtype of a Python-style wrapped number next to a tensor of dtype `t` (PyTorch's rule):
/// floating scalars take a floating or complex tensor's dtype, else float32; complex scalars
/// take a complex tensor's dtype, complex128 beside float64 and complex64 otherwise; integral
/// scalars take the tensor's dtype (int64 for a bool tensor, uint64 for a value beyond int64);
/// bools take the tensor's dtype.
inline Dtype wrapped_scalar_dtype(const Scalar& s, Dtype t) {
  const char kind = dtype_kind(static_cast<int>(t));
  if (s.is_floating()) return kind == 'f' || kind == 'c' ? t : Dtype::Float32;
  if (s.is_complex()) {
    if (kind == 'c') return t;
    return t == Dtype::Float64 ? Dtype::Complex128 : Dtype::Complex64;
  }
  if (s.is_integral()) {
    if (t != Dtype::Bool) return t;
    return s.c().tag == KF_SCALAR_UINT64 ? Dtype::UInt64 : Dtype::Int64;
  }
  return t;
}
/// `s` as a 0-dim tensor on `like`'s device, typed for an op with `like`.
inline Tensor wrap_scalar(const Scalar& s, const Tensor& like) {
  kf_tensor_t out = nullptr;
  const Dtype dtype = wrapped_scalar_dtype(s, like.dtype());
  check(kf_full(nullptr, 0, s.c(), static_cast<kf_dtype_t>(dtype), like.device().c(), &out));
  return Tensor::adopt(out);
}
}  // namespace detail

}  // namespace kf

#include "kernforge/kernforge_ops.hpp"

namespace kf {

// -------------------------------------------------------------------------- boxed calls --

/// One argument of kf::call: a Tensor, an integer, a floating-point number, a bool, a Scalar, a
/// Dtype, a Device, an int list, or None (std::nullopt). The core accepts an integer where the
/// schema says float or Scalar.
class Value {
 public:
  Value(std::nullopt_t) : v_(kf_value_none()) {}                     // NOLINT
  Value(const Tensor& t) { set_tensor(t); }                          // NOLINT
  Value(double x) : v_(kf_value_float(x)) {}                         // NOLINT
  Value(float x) : Value(static_cast<double>(x)) {}                  // NOLINT
  Value(bool x) : v_(kf_value_bool(x)) {}                            // NOLINT
  template <typename I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>,
                                         int> = 0>
  Value(I x) : v_(kf_value_int(static_cast<int64_t>(x))) {}          // NOLINT
  Value(Scalar s) : v_(kf_value_scalar(s.c())) {}                    // NOLINT
  Value(Dtype d) : v_(kf_value_dtype(static_cast<kf_dtype_t>(d))) {}  // NOLINT
  Value(const Device& d) : v_(kf_value_device(d.c())) {}             // NOLINT
  Value(IntArrayRef list) : ints_(list.vec()) {  // NOLINT
    v_ = kf_value_int_list(ints_.data(), static_cast<int32_t>(ints_.size()));
  }
  Value(const Value& o) : v_(o.v_), ints_(o.ints_) {
    if (v_.tag == KF_VALUE_INT_LIST) v_.v.ints.data = ints_.data();
  }
  Value& operator=(const Value&) = delete;

  const kf_value_t& c() const { return v_; }

 private:
  void set_tensor(const Tensor& t);
  kf_value_t v_ = kf_value_none();
  std::vector<int64_t> ints_;  // an int list's values
};

/// Calls the op named `name` (any op of the registry, including those a plugin defines:
/// "toy::scale") with `args` in schema order, trailing defaults omitted; returns every result.
inline std::vector<Tensor> call_all(const char* name, std::initializer_list<Value> args) {
  kf_op_t op = nullptr;
  detail::check(kf_op_find(name, &op));
  std::vector<kf_value_t> boxed;
  for (const Value& a : args) boxed.push_back(a.c());
  std::vector<kf_value_t> results(static_cast<std::size_t>(kf_op_num_returns(op)),
                                  kf_value_none());
  detail::check(kf_op_call(op, boxed.data(), static_cast<int32_t>(boxed.size()), results.data(),
                           static_cast<int32_t>(results.size())));
  std::vector<Tensor> out;
  for (const kf_value_t& r : results) out.push_back(Tensor::adopt(r.v.tensor));
  return out;
}

/// call_all for an op with one result.
inline Tensor call(const char* name, std::initializer_list<Value> args) {
  std::vector<Tensor> r = call_all(name, args);
  if (r.size() != 1) {
    throw Error(KF_INVALID_ARGUMENT, std::string(name) + " returns " + std::to_string(r.size()) +
                                         " tensors; use kf::call_all");
  }
  return r[0];
}

inline void Value::set_tensor(const Tensor& t) { v_ = kf_value_tensor(t.handle()); }

// ---------------------------------------------------------------------------- operators --

inline Tensor operator+(const Tensor& a, const Tensor& b) { return a.add(b); }
inline Tensor operator-(const Tensor& a, const Tensor& b) { return a.sub(b); }
inline Tensor operator*(const Tensor& a, const Tensor& b) { return a.mul(b); }
inline Tensor operator/(const Tensor& a, const Tensor& b) { return a.div(b); }
inline Tensor operator-(const Tensor& a) { return a.neg(); }

inline Tensor operator+(const Tensor& a, Scalar s) { return a.add(detail::wrap_scalar(s, a)); }
inline Tensor operator-(const Tensor& a, Scalar s) { return a.sub(detail::wrap_scalar(s, a)); }
inline Tensor operator*(const Tensor& a, Scalar s) { return a.mul(detail::wrap_scalar(s, a)); }
inline Tensor operator/(const Tensor& a, Scalar s) { return a.div(detail::wrap_scalar(s, a)); }
inline Tensor operator+(Scalar s, const Tensor& a) { return detail::wrap_scalar(s, a).add(a); }
inline Tensor operator-(Scalar s, const Tensor& a) { return detail::wrap_scalar(s, a).sub(a); }
inline Tensor operator*(Scalar s, const Tensor& a) { return detail::wrap_scalar(s, a).mul(a); }
inline Tensor operator/(Scalar s, const Tensor& a) { return detail::wrap_scalar(s, a).div(a); }

inline Tensor& Tensor::operator+=(Scalar s) { return add_(detail::wrap_scalar(s, *this)); }
inline Tensor& Tensor::operator-=(Scalar s) { return sub_(detail::wrap_scalar(s, *this)); }
inline Tensor& Tensor::operator*=(Scalar s) { return mul_(detail::wrap_scalar(s, *this)); }
inline Tensor& Tensor::operator/=(Scalar s) { return div_(detail::wrap_scalar(s, *this)); }

// ------------------------------------------------------------------------------ printing --

namespace detail {
constexpr int64_t kPrintLimit = 20;

inline void print_shape(std::ostream& os, const std::vector<int64_t>& shape) {
  os << '[';
  for (std::size_t i = 0; i < shape.size(); ++i) os << (i ? ", " : "") << shape[i];
  os << ']';
}

/// Up to kPrintLimit values of `t` in row-major order, as text.
inline void print_values(std::ostream& os, const Tensor& t) {
  const int64_t n = t.numel();
  const int64_t shown = n < kPrintLimit ? n : kPrintLimit;
  const bool scalar = t.dim() == 0;
  const Tensor head = scalar ? t : t.reshape({-1}).slice(0, 0, shown);
  if (!scalar) os << '[';
  if (is_floating(t.dtype())) {
    const std::vector<double> v = head.to_vector<double>();
    for (std::size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
  } else if (t.dtype() == Dtype::Bool) {
    const std::vector<bool> v = head.to_vector<bool>();
    for (std::size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << (v[i] ? "true" : "false");
  } else {
    const std::vector<int64_t> v = head.to_vector<int64_t>();
    for (std::size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
  }
  if (shown < n) os << ", ... (" << n - shown << " more)";
  if (!scalar) os << ']';
}
}  // namespace detail

/// tensor([1, 2, 3], shape=[3], dtype=float32, device=cpu) (a 0-dim tensor: tensor(7.5, ...));
/// at most 20 values.
inline std::ostream& operator<<(std::ostream& os, const Tensor& t) {
  if (!t.defined()) return os << "tensor(undefined)";
  os << "tensor(";
  try {
    detail::print_values(os, t);
  } catch (const Error& e) {
    os << "<values unavailable: " << e.what() << '>';
  }
  os << ", shape=";
  detail::print_shape(os, t.sizes());
  return os << ", dtype=" << t.dtype() << ", device=" << t.device() << ')';
}

}  // namespace kf

#endif  // KERNFORGE_KERNFORGE_HPP_
