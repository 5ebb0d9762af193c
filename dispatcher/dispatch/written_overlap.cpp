// Note [Written tensors that overlap] is in written_overlap.hpp.
#include "dispatch/written_overlap.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/device_types.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core_ops.hpp"

namespace kf {
namespace {

// The bytes [lo, hi) that a tensor's elements lie in.
struct Span {
  uintptr_t lo, hi;
};

constexpr Span kEverywhere{0, std::numeric_limits<uintptr_t>::max()};

// t's span; everywhere when the arithmetic overflows (the tensor then overlaps anything on its
// device, which can only make the rule more careful).
Span span_of(const TensorImpl& t) {
  const auto item = static_cast<int64_t>(itemsize(t.dtype));
  int64_t below = 0, above = 0;  // in elements, from element [0, ..., 0]
  for (int32_t d = 0; d < t.ndim; ++d) {
    int64_t reach = 0;
    if (t.shape[d] <= 1) continue;
    if (__builtin_mul_overflow(t.shape[d] - 1, t.strides[d], &reach)) return kEverywhere;
    int64_t& side = reach < 0 ? below : above;
    if ((reach < 0 && __builtin_sub_overflow(int64_t{0}, reach, &reach)) ||
        __builtin_add_overflow(side, reach, &side)) {
      return kEverywhere;
    }
  }
  if (__builtin_mul_overflow(below, item, &below) || __builtin_add_overflow(above, 1, &above) ||
      __builtin_mul_overflow(above, item, &above)) {
    return kEverywhere;
  }
  const auto base = reinterpret_cast<uintptr_t>(t.data);
  const auto down = static_cast<uintptr_t>(below), up = static_cast<uintptr_t>(above);
  return Span{base >= down ? base - down : 0,
              base <= kEverywhere.hi - up ? base + up : kEverywhere.hi};
}

// Whether a and b may share memory at all: one allocation, or borrowed memory on one side. The
// first test of every pair, and all that two tensors of their own allocations pay.
inline bool may_share(const TensorImpl& a, const TensorImpl& b) {
  if (a.storage == b.storage) return true;
  return ((a.storage != nullptr && a.storage->borrowed) ||
          (b.storage != nullptr && b.storage->borrowed)) && a.device == b.device;
}

// Whether a and b have an element address in common or between their elements (Note [Written
// tensors that overlap]).
bool share_memory(const TensorImpl& a, const TensorImpl& b) {
  if (a.numel == 0 || b.numel == 0 || !may_share(a, b)) return false;
  const Span x = span_of(a), y = span_of(b);
  return x.lo < y.hi && y.lo < x.hi;
}

// Same address, dtype, shape and strides (a stride of a size-1 dim does not matter).
bool same_layout(const TensorImpl& a, const TensorImpl& b) {
  if (&a == &b) return true;
  if (a.data != b.data || a.dtype != b.dtype || a.ndim != b.ndim) return false;
  for (int32_t d = 0; d < a.ndim; ++d) {
    if (a.shape[d] != b.shape[d] || (a.shape[d] > 1 && a.strides[d] != b.strides[d])) {
      return false;
    }
  }
  return true;
}

// Case 2 of the Note: whether input `k` of the op may be read where it lies when it is exactly
// the written tensor (an in-place op reads each written argument where it writes it).
inline bool may_read_in_place(const CallArgs& a, CallMode mode, int32_t k) {
  return (a.def->tags & kTagPointwise) != 0 ||
         (mode == CallMode::Inplace && (k == 0 || a.def->args[a.tensor_index[k]].written));
}

// Case 3 for one input and one written tensor: whether the input must be read from a copy. Kept
// out of line: check_written's loop calls it only when memory may be shared.
KF_COLD bool must_copy(const CallArgs& a, CallMode mode, int32_t k, const TensorImpl& input,
                      const TensorImpl& written) {
  if (&input == &written) return input.numel > 0 && !may_read_in_place(a, mode, k);
  if (!may_share(input, written) || !share_memory(input, written)) return false;
  return !(same_layout(input, written) && may_read_in_place(a, mode, k));
}

// Whether the layout may map two indices to one address: with the dims of size > 1 sorted by
// |stride|, each stride must pass the farthest element the smaller dims reach. A layout that
// fails this (shape [2, 3], strides [4, 3]) may still be one-to-one: small tensors are then
// checked element by element.
bool strides_nested(const TensorImpl& t) {
  int64_t stride[KF_MAX_NDIM], size[KF_MAX_NDIM];
  int32_t n = 0;
  for (int32_t d = t.ndim - 1; d >= 0; --d) {  // row-major strides arrive in ascending order
    if (t.shape[d] <= 1) continue;
    int64_t s = t.strides[d];
    if (s < 0 && __builtin_sub_overflow(int64_t{0}, s, &s)) return false;
    int32_t j = n++;
    for (; j > 0 && stride[j - 1] > s; --j) stride[j] = stride[j - 1], size[j] = size[j - 1];
    stride[j] = s, size[j] = t.shape[d];
  }
  int64_t reach = 0;  // the farthest element (in elements) the smaller dims reach
  for (int32_t i = 0; i < n; ++i) {
    int64_t step = 0;
    if (stride[i] <= reach || __builtin_mul_overflow(stride[i], size[i] - 1, &step) ||
        __builtin_add_overflow(reach, step, &reach)) {
      return false;
    }
  }
  return true;
}

constexpr int64_t kMaxEnumerated = int64_t{1} << 16;

// Whether two indices of t (at most kMaxEnumerated elements) name one element offset.
bool offsets_repeat(const TensorImpl& t) {
  std::vector<uint64_t> offsets;
  offsets.reserve(static_cast<size_t>(t.numel));
  int64_t index[KF_MAX_NDIM] = {};
  uint64_t offset = 0;  // wraps like the addresses would
  for (int64_t e = 0; e < t.numel; ++e) {
    offsets.push_back(offset);
    for (int32_t d = t.ndim - 1; d >= 0; --d) {  // next index, row-major
      if (++index[d] < t.shape[d]) {
        offset += static_cast<uint64_t>(t.strides[d]);
        break;
      }
      offset -= static_cast<uint64_t>(t.shape[d] - 1) * static_cast<uint64_t>(t.strides[d]);
      index[d] = 0;
    }
  }
  std::sort(offsets.begin(), offsets.end());
  return std::adjacent_find(offsets.begin(), offsets.end()) != offsets.end();
}

// "add_out", "add_", "copy_": the call as the C ABI names it.
std::string call_name(const CallArgs& a, CallMode mode) {
  const std::string name = a.name();
  if (mode == CallMode::Out) return name + "_out";
  return !name.empty() && name.back() == '_' ? name : name + "_";
}

std::string written_name(const CallArgs& a, CallMode mode, int32_t i) {
  if (mode == CallMode::Out) {
    return a.def->nreturns == 1 ? std::string("out") : fmt::format("out {}", i);
  }
  for (int32_t j = 0, n = 0; j < a.nargs; ++j) {  // the i-th written argument
    if (a.def->args[j].written && n++ == i) return a.def->args[j].name;
  }
  return a.def->args[0].name;
}

// Case 1 for one written tensor: its own elements must not share memory.
void check_self_overlap(const CallArgs& a, CallMode mode, int32_t i, const TensorImpl& w) {
  if (w.numel <= 1 || strides_nested(w)) return;
  int32_t zero = -1;
  for (int32_t d = 0; d < w.ndim && zero < 0; ++d) {
    if (w.strides[d] == 0 && w.shape[d] > 1) zero = d;
  }
  const bool sure = zero >= 0 || w.numel <= kMaxEnumerated;
  if (zero < 0 && sure && !offsets_repeat(w)) return;
  fail(KF_INVALID_ARGUMENT,
       "{}: unsupported operation: {} (shape {}, strides {}) {} one memory location{}, so what "
       "is written there would depend on the kernel's order. Please clone() it, or pass a tensor "
       "of its own, before performing the operation", call_name(a, mode),
       written_name(a, mode, i), shape_string(w.shape, w.ndim), shape_string(w.strides, w.ndim),
       sure ? "has several elements that refer to" : "may have several elements that refer to",
       zero >= 0 ? fmt::format(" (stride 0 at dim {}: an expanded tensor)", zero) : "");
}

// The written tensors: Out: the outputs; Inplace: self and the further written arguments,
// which an in-place op returns (both schema parsers hold it to that).
inline int32_t written_count(const CallArgs& a, CallMode) { return a.def->nreturns; }

// Case 1: refuses what cannot be written; every written tensor is alive here.
KF_COLD void check_writable(const CallArgs& a, CallMode mode, TensorImpl* const* given, int32_t n) {
  for (int32_t i = 0; i < n; ++i) {
    if (given[i] == nullptr) {
      fail(KF_INVALID_ARGUMENT, "{}: {} is None; an in-place op needs a tensor to write",
           call_name(a, mode), written_name(a, mode, i));
    }
    check_self_overlap(a, mode, i, *given[i]);
    for (int32_t j = 0; j < i; ++j) {
      if (given[j] == given[i] || share_memory(*given[j], *given[i])) {
        fail(KF_INVALID_ARGUMENT, "{}: unsupported operation: {} and {} share memory; pass "
                                  "{} that do not overlap", call_name(a, mode),
             written_name(a, mode, j), written_name(a, mode, i),
             mode == CallMode::Out ? "outputs" : "written tensors");
      }
    }
  }
}

// Whether input `k` must be read from a copy (case 3).
bool needs_copy(const CallArgs& a, CallMode mode, TensorImpl* const* given, int32_t n,
                int32_t k) {
  const TensorImpl* t = a.tensors[a.tensor_index[k]];
  if (t == nullptr) return false;
  for (int32_t i = 0; i < n; ++i) {
    if (must_copy(a, mode, k, *t, *given[i])) return true;
  }
  return false;
}

// Whether some input must be read from a copy, for any number of written tensors.
bool any_input_needs_copy(const CallArgs& a, CallMode mode, TensorImpl* const* given,
                          int32_t n) {
  for (int32_t k = 0; k < a.def->ntensor_args; ++k) {
    if (needs_copy(a, mode, given, n, k)) return true;
  }
  return false;
}

}  // namespace

// The common case (one written tensor, inputs of other allocations) costs per input a pointer
// comparison and two loads; the rest runs only when memory may be shared.
bool check_written(const CallArgs& a, CallMode mode, TensorImpl* const* given) {
  const int32_t n = written_count(a, mode);
  if (n != 1 || given[0] == nullptr || given[0]->numel > 1) check_writable(a, mode, given, n);
  if (n != 1) return !any_input_needs_copy(a, mode, given, n);
  const TensorImpl* w = given[0];
  const Storage* ws = w->storage;  // a live tensor always has one
  const bool borrowed = ws->borrowed;
  for (int32_t k = 0; k < a.def->ntensor_args; ++k) {
    const TensorImpl* t = a.tensors[a.tensor_index[k]];
    if (t == nullptr) continue;
    if (t == w) {
      if (!may_read_in_place(a, mode, k) && t->numel > 0) return false;
    } else if (t->storage == ws || borrowed || t->storage->borrowed) {
      if (must_copy(a, mode, k, *t, *w)) return false;
    }
  }
  return true;
}

void run_with_copied_inputs(const CallArgs& a, CallMode mode, TensorImpl* const* given,
                            TensorImpl** results, RunCall run) {
  const int32_t n = written_count(a, mode);
  CallArgs c = a;
  own_args(c);
  TensorRef copies[kMaxTensorArgs];
  for (int32_t k = 0; k < a.def->ntensor_args; ++k) {
    if (!needs_copy(a, mode, given, n, k)) continue;
    const int32_t i = a.tensor_index[k];
    copies[k] = ops::clone(*a.tensors[i]);
    c.tensors[i] = copies[k].get();
    c.owned[i].v.tensor = handle_of(copies[k].get());
  }
  run(c, mode, given, results);
}

}  // namespace kf
