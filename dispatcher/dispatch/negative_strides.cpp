// Note [Views of negative stride] is in negative_strides.hpp.
#include "dispatch/negative_strides.hpp"

#include "core/error.hpp"
#include "core_ops.hpp"

namespace kf {
namespace {

// t's elements as a view whose strides are all >= 0 (the dims of negative stride walked from
// their other end), and those dims in `dims`; returns their count.
TensorRef upward_view(TensorImpl& t, int64_t* dims, int32_t* ndims) {
  int64_t strides[KF_MAX_NDIM];
  int64_t offset = t.offset;
  int32_t n = 0;
  for (int32_t d = 0; d < t.ndim; ++d) {
    strides[d] = t.strides[d];
    if (t.strides[d] >= 0) continue;
    offset += (t.shape[d] - 1) * t.strides[d];  // stays inside the storage: t's own reach
    strides[d] = -t.strides[d];                 // > INT64_MIN: the layout rules bound it
    dims[n++] = d;
  }
  *ndims = n;
  return TensorRef(new_view(t, t.shape, strides, t.ndim, offset, "a view of negative stride"));
}

// dst = src, for a dst with a negative stride: copy_ into dst's upward view of src flipped
// along the same dims.
void write_into(TensorImpl& dst, TensorImpl& src) {
  int64_t dims[KF_MAX_NDIM];
  int32_t n = 0;
  TensorRef up = upward_view(dst, dims, &n);
  TensorRef flipped = ops::flip(src, IntListView(dims, n));
  ops::copy_(*up, *flipped);
}

// Out: the outputs; Inplace: self and the further written arguments, which it returns.
inline int32_t written_count(const CallArgs& a, CallMode) { return a.def->nreturns; }

// The schema index of an in-place call's i-th written argument.
int32_t written_arg(const CallArgs& a, int32_t i) {
  for (int32_t j = 0, n = 0; j < a.nargs; ++j) {
    if (a.def->args[j].written && n++ == i) return j;
  }
  return a.tensor_index[0];
}

}  // namespace

TensorImpl* without_negative_strides(TensorImpl& t) {
  int64_t dims[KF_MAX_NDIM];
  int32_t n = 0;
  TensorRef up = upward_view(t, dims, &n);
  return ops::flip(*up, IntListView(dims, n)).take();
}

bool writes_negative_strides(const CallArgs& a, CallMode mode, TensorImpl* const* given) {
  if (mode == CallMode::Functional) return false;
  for (int32_t i = 0; i < written_count(a, mode); ++i) {
    if (given[i] != nullptr && has_negative_stride(*given[i])) return true;
  }
  return false;
}

void run_into_temporaries(const CallArgs& a, CallMode mode, TensorImpl* const* given,
                          TensorImpl** results, RunCall run) {
  const int32_t n = written_count(a, mode);
  TensorRef temps[kMaxOutputs];
  TensorImpl* written[kMaxOutputs] = {};
  CallArgs c = a;
  for (int32_t i = 0; i < n; ++i) {
    TensorImpl& g = *given[i];
    written[i] = &g;
    if (!has_negative_stride(g)) continue;
    temps[i] = mode == CallMode::Inplace ? TensorRef(without_negative_strides(g))
                                         : TensorRef(new_tensor(g.shape, g.ndim, g.dtype,
                                                                g.device));
    written[i] = temps[i].get();
  }
  if (mode == CallMode::Inplace) {  // written arguments are read too: the op reads the copies
    own_args(c);
    for (int32_t i = 0; i < n; ++i) {
      const int32_t s = written_arg(a, i);
      c.tensors[s] = written[i];
      c.owned[s].v.tensor = handle_of(written[i]);
    }
  }
  run(c, mode, written, results);
  for (int32_t i = 0; i < n; ++i) {
    if (temps[i]) write_into(*given[i], *temps[i]);
  }
}

}  // namespace kf
