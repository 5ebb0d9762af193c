// The written calls of fuzz_op_call: out= and in-place forms of the typed C entry points, whose
// written tensor may share memory with their inputs in any way the fuzzer's tensors allow
// (slices, transposes, expanded views, the same handle, kf_tensor_from_blob aliases). The
// invariant (Note [Written tensors that overlap] in the dispatcher): a call that returns KF_OK
// leaves in the written tensor exactly what the functional form computes from copies of the
// inputs taken before the call; any other outcome is a status with a message.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "kernforge/kernforge.h"

namespace fuzz_written {

// What a written call reads besides its tensors.
struct Extra {
  kf_scalar_t alpha;
  int64_t dims[2];
  int32_t ndims;
  bool keepdim;
};

using In = const kf_tensor_t*;
using X = const Extra&;
using OutFn = kf_status_t (*)(In in, X x, kf_tensor_t out);
using InplaceFn = kf_status_t (*)(In in, X x);
using FunctionalFn = kf_status_t (*)(In in, X x, kf_tensor_t* r);

struct Call {
  const char* name;
  int32_t ninputs;
  bool exact;              // bitwise equal for every dtype (elementwise); else for integers only
  OutFn out;               // nullptr: no out= form
  InplaceFn inplace;       // nullptr: no in-place form; in[0] is self
  FunctionalFn functional; // nullptr: copy_ (the reference is src copied into a fresh tensor)
};

inline const Call kCalls[] = {
    {"add", 2, true,
     [](In i, X x, kf_tensor_t o) { return kf_add_out(i[0], i[1], x.alpha, o); },
     [](In i, X x) { return kf_add_(i[0], i[1], x.alpha); },
     [](In i, X x, kf_tensor_t* r) { return kf_add(i[0], i[1], x.alpha, r); }},
    {"sub", 2, true,
     [](In i, X x, kf_tensor_t o) { return kf_sub_out(i[0], i[1], x.alpha, o); },
     [](In i, X x) { return kf_sub_(i[0], i[1], x.alpha); },
     [](In i, X x, kf_tensor_t* r) { return kf_sub(i[0], i[1], x.alpha, r); }},
    {"mul", 2, true,
     [](In i, X, kf_tensor_t o) { return kf_mul_out(i[0], i[1], o); },
     [](In i, X) { return kf_mul_(i[0], i[1]); },
     [](In i, X, kf_tensor_t* r) { return kf_mul(i[0], i[1], r); }},
    {"div", 2, true,
     [](In i, X, kf_tensor_t o) { return kf_div_out(i[0], i[1], o); },
     [](In i, X) { return kf_div_(i[0], i[1]); },
     [](In i, X, kf_tensor_t* r) { return kf_div(i[0], i[1], r); }},
    {"gt", 2, true,
     [](In i, X, kf_tensor_t o) { return kf_gt_out(i[0], i[1], o); },
     nullptr,
     [](In i, X, kf_tensor_t* r) { return kf_gt(i[0], i[1], r); }},
    {"where", 3, true,
     [](In i, X, kf_tensor_t o) { return kf_where_out(i[0], i[1], i[2], o); },
     nullptr,
     [](In i, X, kf_tensor_t* r) { return kf_where(i[0], i[1], i[2], r); }},
    {"neg", 1, true,
     [](In i, X, kf_tensor_t o) { return kf_neg_out(i[0], o); },
     [](In i, X) { return kf_neg_(i[0]); },
     [](In i, X, kf_tensor_t* r) { return kf_neg(i[0], r); }},
    {"abs", 1, true,
     [](In i, X, kf_tensor_t o) { return kf_abs_out(i[0], o); },
     [](In i, X) { return kf_abs_(i[0]); },
     [](In i, X, kf_tensor_t* r) { return kf_abs(i[0], r); }},
    {"exp", 1, true,
     [](In i, X, kf_tensor_t o) { return kf_exp_out(i[0], o); },
     [](In i, X) { return kf_exp_(i[0]); },
     [](In i, X, kf_tensor_t* r) { return kf_exp(i[0], r); }},
    {"copy_", 2, true, nullptr,
     [](In i, X) { return kf_copy_(i[0], i[1]); }, nullptr},
    {"mm", 2, false,
     [](In i, X, kf_tensor_t o) { return kf_mm_out(i[0], i[1], o); },
     nullptr,
     [](In i, X, kf_tensor_t* r) { return kf_mm(i[0], i[1], r); }},
    {"bmm", 2, false,
     [](In i, X, kf_tensor_t o) { return kf_bmm_out(i[0], i[1], o); },
     nullptr,
     [](In i, X, kf_tensor_t* r) { return kf_bmm(i[0], i[1], r); }},
    {"sum", 1, false,
     [](In i, X x, kf_tensor_t o) {
       return kf_sum_out(i[0], x.dims, x.ndims, x.keepdim, KF_DTYPE_UNDEFINED, o);
     },
     nullptr,
     [](In i, X x, kf_tensor_t* r) {
       return kf_sum(i[0], x.dims, x.ndims, x.keepdim, KF_DTYPE_UNDEFINED, r);
     }},
    {"amax", 1, false,  // the order of -0 and 0 or of NaNs may differ by layout
     [](In i, X x, kf_tensor_t o) {
       return kf_amax_out(i[0], x.dims, x.ndims, x.keepdim, o);
     },
     nullptr,
     [](In i, X x, kf_tensor_t* r) {
       return kf_amax(i[0], x.dims, x.ndims, x.keepdim, r);
     }},
};
inline constexpr int32_t kCallCount = static_cast<int32_t>(sizeof kCalls / sizeof kCalls[0]);

// A tensor that drops its reference at the end of the scope.
class Held {
 public:
  Held() = default;
  explicit Held(kf_tensor_t t) : t_(t) {}
  ~Held() { kf_tensor_release(t_); }
  Held(const Held&) = delete;
  Held& operator=(const Held&) = delete;
  kf_tensor_t get() const { return t_; }
  kf_tensor_t* put() {
    kf_tensor_release(t_);
    t_ = nullptr;
    return &t_;
  }

 private:
  kf_tensor_t t_ = nullptr;
};

struct Snapshot {
  kf_dtype_t dtype = KF_DTYPE_UNDEFINED;
  std::vector<int64_t> shape;
  std::vector<unsigned char> bytes;  // row-major
};

inline bool snapshot(kf_tensor_t t, Snapshot& s) {
  int32_t ndim = 0;
  const int64_t* shape = nullptr;
  int64_t numel = 0;
  if (kf_tensor_ndim(t, &ndim) != KF_OK || kf_tensor_shape(t, &shape) != KF_OK ||
      kf_tensor_dtype(t, &s.dtype) != KF_OK || kf_tensor_numel(t, &numel) != KF_OK) {
    return false;
  }
  s.shape.assign(shape, shape + ndim);
  s.bytes.resize(static_cast<size_t>(numel) * kf_dtype_size(s.dtype));
  return kf_tensor_copy_to_host(t, s.bytes.data(), s.bytes.size()) == KF_OK;
}

inline bool integral(kf_dtype_t d) {
  return d == KF_INT8 || d == KF_UINT8 || d == KF_INT16 || d == KF_INT32 || d == KF_INT64 ||
         d == KF_BOOL;
}

// With KF_FUZZ_VERBOSE set: one line per tensor of a written call, to see what a corpus file
// does (before the target stops on a wrong result).
inline void describe(const char* role, kf_tensor_t t) {
  static const bool verbose = std::getenv("KF_FUZZ_VERBOSE") != nullptr;
  int32_t ndim = 0;
  const int64_t *shape = nullptr, *strides = nullptr;
  kf_dtype_t dtype = KF_DTYPE_UNDEFINED;
  void* data = nullptr;
  if (!verbose || t == nullptr || kf_tensor_ndim(t, &ndim) != KF_OK ||
      kf_tensor_shape(t, &shape) != KF_OK || kf_tensor_strides(t, &strides) != KF_OK ||
      kf_tensor_dtype(t, &dtype) != KF_OK || kf_tensor_data_ptr(t, &data) != KF_OK) {
    return;
  }
  std::printf("  %s %s %p shape", role, kf_dtype_name(dtype), data);
  for (int32_t d = 0; d < ndim; ++d) std::printf(" %lld", static_cast<long long>(shape[d]));
  std::printf(" strides");
  for (int32_t d = 0; d < ndim; ++d) std::printf(" %lld", static_cast<long long>(strides[d]));
  std::printf("\n");
  std::fflush(stdout);
}

// Whether element bytes `p` of `dtype` hold a NaN.
inline bool is_nan(const unsigned char* p, kf_dtype_t dtype) {
  uint64_t bits = 0;
  std::memcpy(&bits, p, kf_dtype_size(dtype));  // little-endian hosts
  switch (dtype) {
    case KF_FLOAT64: return (bits & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
    case KF_FLOAT32: return (bits & 0x7fffffffu) > 0x7f800000u;
    case KF_FLOAT16: return (bits & 0x7fffu) > 0x7c00u;
    case KF_BFLOAT16: return (bits & 0x7fffu) > 0x7f80u;
    default: return false;
  }
}

// Equal bytes, except that any two NaNs are equal: which NaN a kernel returns for two NaN
// operands depends on the order it passes them to the hardware.
inline bool same_values(const Snapshot& a, const Snapshot& b) {
  if (a.bytes.size() != b.bytes.size()) return false;
  const size_t item = kf_dtype_size(a.dtype);
  for (size_t i = 0; i + item <= a.bytes.size(); i += item) {
    if (std::memcmp(&a.bytes[i], &b.bytes[i], item) == 0) continue;
    if (!is_nan(&a.bytes[i], a.dtype) || !is_nan(&b.bytes[i], a.dtype)) return false;
  }
  return true;
}

// The reference of a written call: the functional form on copies of the inputs (copy_: src
// copied into a fresh tensor of self's shape and dtype).
inline kf_status_t reference(const Call& c, const kf_tensor_t* copies, const Extra& x,
                             const Snapshot& self, Held& ref) {
  if (c.functional != nullptr) return c.functional(copies, x, ref.put());
  const kf_status_t s = kf_empty(self.shape.data(), static_cast<int32_t>(self.shape.size()),
                                 self.dtype, kf_device_cpu(), ref.put());
  return s != KF_OK ? s : kf_copy_(ref.get(), copies[1]);
}

// Runs one written call on `in` (and `out` for the out= form) and checks the invariant.
inline void check_call(const Call& c, bool inplace, const kf_tensor_t* in, kf_tensor_t out,
                       const Extra& x, void (*check_status)(const char*, kf_status_t)) {
  Held copies[3];
  kf_tensor_t copy_handles[3] = {};
  for (int32_t k = 0; k < c.ninputs; ++k) {
    if (kf_clone(in[k], copies[k].put()) != KF_OK) return;
    copy_handles[k] = copies[k].get();
  }
  const kf_tensor_t target = inplace ? in[0] : out;
  for (int32_t k = 0; k < c.ninputs; ++k) describe("input", in[k]);
  describe(inplace ? "self (written)" : "out", target);
  Snapshot before, written, want;
  if (!snapshot(target, before)) return;
  const kf_status_t s = inplace ? c.inplace(in, x) : c.out(in, x, out);
  check_status(c.name, s);
  if (!snapshot(target, written)) __builtin_trap();
  if (s != KF_OK) {
    if (written.bytes != before.bytes) __builtin_trap();  // a refused call wrote
    return;
  }
  Held ref;
  if (reference(c, copy_handles, x, written, ref) != KF_OK || !snapshot(ref.get(), want)) return;
  if (want.dtype != written.dtype || want.shape != written.shape) return;  // cast or resized
  if (!c.exact && !integral(want.dtype)) return;  // float sums: the order may differ by layout
  if (!same_values(want, written)) {  // a silently wrong result
    if (std::getenv("KF_FUZZ_VERBOSE") != nullptr) {
      for (const Snapshot* v : {&before, &written, &want}) {
        std::printf(v == &before ? "  before " : v == &written ? "  written" : "  wanted ");
        for (unsigned char b : v->bytes) std::printf(" %02x", b);
        std::printf("\n");
      }
      std::fflush(stdout);
    }
    __builtin_trap();
  }
}

}  // namespace fuzz_written
