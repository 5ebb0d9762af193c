// line_plan.hpp — the lines of an op that works along one dim and keeps the input's shape
// (softmax, log_softmax, cumsum, sort): a "line" is the 1-D run along dim through one index of the
// other dims. The lines are the outputs of a keepdim reduction over dim, so reduce_plan.hpp
// maps them (kept_offsets); each has n elements, at byte strides si in the input and so in the
// output.
#pragma once

#include <string>

#include "reduce_plan.hpp"

namespace kf::cpu {

struct LinePlan {
  ReducePlan lines;
  int64_t n = 1;
  int64_t si = 0;
  int64_t so = 0;
};

/// The plan of `op` along `dim` (negative dims wrap) of `in` into `out`, which must have in's
/// shape; elements of `elem` bytes (`out_elem` bytes in out when given: argsort's int64
/// positions of any dtype). Throws KF_OUT_OF_RANGE for a bad dim.
inline LinePlan make_line_plan(const kf_tensor_view_t& in, const kf_tensor_view_t& out,
                               int64_t dim, int64_t elem, const char* op, int64_t out_elem = 0) {
  if (out_elem == 0) out_elem = elem;
  check_ndim(in);
  check_ndim(out);
  bool same = in.ndim == out.ndim;
  for (int32_t d = 0; same && d < in.ndim; ++d) same = in.shape[d] == out.shape[d];
  if (!same) {
    throw kf::plugin::KernelError(KF_INTERNAL, std::string("cpu ") + op +
                                                   ": the output's shape differs from the input's");
  }
  bool reduced[KF_MAX_NDIM];
  mark_dims(&dim, 1, in.ndim, reduced);
  LinePlan p;
  p.lines = make_reduce_plan(in, out, reduced, true, elem, out_elem, false);
  if (in.ndim > 0) {
    const int32_t d = static_cast<int32_t>(dim < 0 ? dim + in.ndim : dim);
    p.n = in.shape[d];
    p.si = in.strides[d] * elem;
    p.so = out.strides[d] * out_elem;
  }
  return p;
}

}  // namespace kf::cpu
