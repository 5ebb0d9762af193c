// logical_reduce_kernels.cpp — the truth reductions all, any and count_nonzero (tag reduction)
// over every dtype, over reduce_plan.hpp.
//
// The kernels read self in its own dtype (metas reduce_logical, reduce_count). An element is
// true when it is nonzero (NaN is true, -0.0 is false; a complex number when either part is).
// all and any write one byte 0/1 per output: bool, or uint8 for a uint8 input (PyTorch); an
// empty all is true, an empty any false. Contiguous runs are reduced with an or/and over kLanes
// independent flags (vectorisable, no early exit). count_nonzero writes int64 counts; a
// contiguous run of one-byte elements (bool, int8, uint8) is counted by simd_select's byte
// count, other runs over kLanes independent counters.
#include "dtype_dispatch.hpp"
#include "elementwise.hpp"
#include "kernels.hpp"
#include "reducer_util.hpp"
#include "simd_select.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kLogicalMask = kAllMask;
constexpr int kLanes = kReduceLanes * 4;

template <class T>
inline bool truth(T v) {
  return load(v) != OpMath<T>(0);
}

/// All = true: every element nonzero; All = false: some element nonzero.
template <class T, bool All>
struct LogicalReducer {
  using Acc = bool;
  Acc identity() const { return All; }
  void step(Acc& acc, T v, int64_t) const {
    if constexpr (All) {
      acc = acc && truth(v);
    } else {
      acc = acc || truth(v);
    }
  }
  void row(Acc& acc, const char* p, int64_t s, int64_t n, int64_t) const {
    if (acc != All) return;  // already decided
    if (s != static_cast<int64_t>(sizeof(T))) {
      for (int64_t i = 0; i < n && acc == All; ++i) step(acc, row_elem<T>(p, i, s), 0);
      return;
    }
    const T* x = reinterpret_cast<const T*>(p);
    unsigned char lane[kLanes];
    for (int k = 0; k < kLanes; ++k) lane[k] = All ? 1 : 0;
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
      for (int k = 0; k < kLanes; ++k) {
        if constexpr (All) {
          lane[k] &= static_cast<unsigned char>(truth(elem(x, i + k)));
        } else {
          lane[k] |= static_cast<unsigned char>(truth(elem(x, i + k)));
        }
      }
    }
    for (; i < n; ++i) step(acc, elem(x, i), 0);
    for (int k = 0; k < kLanes; ++k) combine(acc, lane[k] != 0);
  }
  void combine(Acc& acc, const Acc& later) const { acc = All ? (acc && later) : (acc || later); }
  void store(char* out, const Acc& acc) const {
    *reinterpret_cast<unsigned char*>(out) = acc ? 1 : 0;
  }
};

/// The number of nonzero elements.
template <class T>
struct CountReducer {
  using Acc = int64_t;
  Acc identity() const { return 0; }
  void step(Acc& acc, T v, int64_t) const { acc += truth(v) ? 1 : 0; }
  void row(Acc& acc, const char* p, int64_t s, int64_t n, int64_t) const {
    if (s != static_cast<int64_t>(sizeof(T))) {
      for (int64_t i = 0; i < n; ++i) step(acc, row_elem<T>(p, i, s), 0);
      return;
    }
    if constexpr (sizeof(T) == 1) {
      acc += simd::count_nonzero_bytes(reinterpret_cast<const uint8_t*>(p), n);
    } else {
      const T* x = reinterpret_cast<const T*>(p);
      int64_t lane[kLanes] = {};
      int64_t i = 0;
      for (; i + kLanes <= n; i += kLanes) {
        for (int k = 0; k < kLanes; ++k) lane[k] += truth(elem(x, i + k)) ? 1 : 0;
      }
      for (; i < n; ++i) step(acc, elem(x, i), 0);
      for (int k = 0; k < kLanes; ++k) acc += lane[k];
    }
  }
  void combine(Acc& acc, const Acc& later) const { acc += later; }
  void store(char* out, const Acc& acc) const { *reinterpret_cast<int64_t*>(out) = acc; }
};

template <bool All, class Args>
void logical_kernel(const Args& a, const char* op) {
  if (a.out.dtype != KF_BOOL && a.out.dtype != KF_UINT8) {
    throw kf::plugin::KernelError(KF_INTERNAL, std::string("cpu ") + op +
                                                   ": the output must be bool or uint8");
  }
  check_ndim(a.self);
  bool reduced[KF_MAX_NDIM];
  mark_optional_dims(a.dim, a.self.ndim, reduced);
  dispatch<kLogicalMask>(a.self.dtype, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const ReducePlan p = make_reduce_plan(a.self, a.out, reduced, a.keepdim, sizeof(T), 1, true);
    run_reduce<T>(p, LogicalReducer<T, All>{}, a.self, a.out);
  });
}

void all_kernel(const ops::all::Args& a) { logical_kernel<true>(a, "all"); }
void any_kernel(const ops::any::Args& a) { logical_kernel<false>(a, "any"); }

void count_nonzero_kernel(const ops::count_nonzero::Args& a) {
  require_dtype(a.out, KF_INT64, "out", "count_nonzero");
  check_ndim(a.self);
  bool reduced[KF_MAX_NDIM];
  mark_optional_dims(a.dim, a.self.ndim, reduced);
  dispatch<kLogicalMask>(a.self.dtype, "count_nonzero", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const ReducePlan p = make_reduce_plan(a.self, a.out, reduced, a.keepdim, sizeof(T), 8, true);
    run_reduce<T>(p, CountReducer<T>{}, a.self, a.out);
  });
}

}  // namespace

kf_status_t register_logical_reduce_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, all, all_kernel, kLogicalMask);
  KF_CPU_KERNEL(reg, any, any_kernel, kLogicalMask);
  KF_CPU_KERNEL(reg, count_nonzero, count_nonzero_kernel, kLogicalMask);
  return KF_OK;
}

}  // namespace kf::cpu
