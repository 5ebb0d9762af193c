// reduce_plan.cpp — the host side of reduce_plan.hpp: the reduced dims of a call, the kept and
// reduced layouts of a reduction, the lines of a row op and the launch schedules.
#include "reduce_plan.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "kernforge/plugin.hpp"

namespace kf::cuda {
namespace {

[[noreturn]] void fail(kf_status_t status, const std::string& what) {
  throw kf::plugin::KernelError(status, what);
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Insertion sort of dims [0, n) by |a[d]| (then |b[d]|), moving shape, a and b (b may be null).
void sort_by_stride(int64_t* shape, int64_t* a, int64_t* b, int32_t n) {
  auto less = [&](int32_t x, int32_t y) {
    const int64_t ax = std::llabs(a[x]), ay = std::llabs(a[y]);
    if (ax != ay) return ax < ay;
    return b != nullptr && std::llabs(b[x]) < std::llabs(b[y]);
  };
  for (int32_t i = 1; i < n; ++i) {
    for (int32_t j = i; j > 0 && less(j, j - 1); --j) {
      std::swap(shape[j], shape[j - 1]);
      std::swap(a[j], a[j - 1]);
      if (b != nullptr) std::swap(b[j], b[j - 1]);
    }
  }
}

/// Merges each dim into the previous kept one when every stride steps over the pair as one.
int32_t coalesce(int64_t* shape, int64_t* a, int64_t* b, int32_t n) {
  if (n == 0) return 0;
  int32_t out = 0;
  for (int32_t d = 1; d < n; ++d) {
    const bool merge = a[d] == a[out] * shape[out] && (b == nullptr || b[d] == b[out] * shape[out]);
    if (merge) {
      shape[out] *= shape[d];
      continue;
    }
    ++out;
    shape[out] = shape[d];
    a[out] = a[d];
    if (b != nullptr) b[out] = b[d];
  }
  return out + 1;
}

/// Fills the two layouts of p from the dims of `in` (innermost first), checking out's shape.
void split_dims(const kf_tensor_view_t& in, const kf_tensor_view_t& out, const bool* reduced,
                bool keepdim, ReducePlan& p) {
  int32_t od = out.ndim - 1;
  for (int32_t d = in.ndim - 1; d >= 0; --d) {
    const int64_t size = in.shape[d];
    if (reduced[d]) {
      if (keepdim) {
        if (out.shape[od] != 1) fail(KF_INTERNAL, "a reduced dim of a keepdim output is not 1");
        --od;
      }
      p.numel_red *= size;
      if (size == 1) continue;
      p.r_shape[p.nr] = size;
      p.r_in[p.nr++] = in.strides[d];
      continue;
    }
    if (out.shape[od] != size) {
      fail(KF_INTERNAL, "the output's dim " + std::to_string(od) + " has size " +
                            std::to_string(out.shape[od]) + ", expected " + std::to_string(size));
    }
    p.numel_out *= size;
    if (size != 1) {
      p.k_shape[p.nk] = size;
      p.k_in[p.nk] = in.strides[d];
      p.k_out[p.nk++] = out.strides[od];
    }
    --od;
  }
}

}  // namespace

void mark_dims(const int64_t* dims, int32_t len, int32_t ndim, bool* reduced) {
  for (int32_t d = 0; d < ndim; ++d) reduced[d] = len == 0;
  for (int32_t i = 0; i < len; ++i) {
    int64_t d = dims[i];
    if (ndim == 0 && (d == 0 || d == -1)) continue;  // a 0-dim tensor takes dim 0 and -1
    if (d < 0) d += ndim;
    if (d < 0 || d >= ndim) {
      fail(KF_OUT_OF_RANGE, "dim " + std::to_string(dims[i]) + " is out of range for a tensor of " +
                                std::to_string(ndim) + " dims (valid: " +
                                std::to_string(-std::max(ndim, 1)) + ".." +
                                std::to_string(std::max(ndim, 1) - 1) + ")");
    }
    reduced[d] = true;
  }
}

ReducePlan make_reduce_plan(const kf_tensor_view_t& in, const kf_tensor_view_t& out,
                            const bool* reduced, bool keepdim, bool sort_reduced) {
  int32_t kept = 0;
  for (int32_t d = 0; d < in.ndim; ++d) kept += reduced[d] ? 0 : 1;
  if (out.ndim != (keepdim ? in.ndim : kept)) {
    fail(KF_INTERNAL, "the reduction's output has " + std::to_string(out.ndim) +
                          " dims, expected " + std::to_string(keepdim ? in.ndim : kept));
  }
  ReducePlan p{};
  p.numel_out = 1;
  p.numel_red = 1;
  split_dims(in, out, reduced, keepdim, p);
  sort_by_stride(p.k_shape, p.k_in, p.k_out, p.nk);
  p.nk = coalesce(p.k_shape, p.k_in, p.k_out, p.nk);
  if (sort_reduced) sort_by_stride(p.r_shape, p.r_in, nullptr, p.nr);
  p.nr = coalesce(p.r_shape, p.r_in, nullptr, p.nr);
  if (p.nr == 0) {  // one element per output: offset 0
    p.r_shape[0] = 1;
    p.r_in[0] = 0;
  }
  return p;
}

LinePlan make_line_plan(const kf_tensor_view_t& in, const kf_tensor_view_t& out, int64_t dim) {
  bool same = in.ndim == out.ndim;
  for (int32_t d = 0; same && d < in.ndim; ++d) same = in.shape[d] == out.shape[d];
  if (!same) fail(KF_INTERNAL, "the output's shape differs from the input's");
  bool reduced[KF_MAX_NDIM];
  mark_dims(&dim, 1, in.ndim, reduced);
  // The lines are the outputs of a keepdim reduction over dim: out's shape with dim of size 1.
  int64_t line_shape[KF_MAX_NDIM];
  for (int32_t d = 0; d < out.ndim; ++d) line_shape[d] = reduced[d] ? 1 : out.shape[d];
  kf_tensor_view_t lines = out;
  lines.shape = line_shape;
  LinePlan lp{};
  lp.lines = make_reduce_plan(in, lines, reduced, true, true);
  lp.n = 1;
  if (in.ndim > 0) {
    const int32_t d = static_cast<int32_t>(dim < 0 ? dim + in.ndim : dim);
    lp.n = in.shape[d];
    lp.si = in.strides[d];
    lp.so = out.strides[d];
  }
  return lp;
}

namespace {

constexpr int64_t kResidentThreadsPerSm = 2048;
constexpr int64_t kMinPerThread = 16;  // elements a thread of a split reduction takes at least
constexpr int64_t kMaxSplits = 4096;
constexpr int64_t kMaxBlocks = 65535LL * 32;  // as device_common.cuh's blocks_for

uint32_t blocks_of(int64_t threads) {
  return static_cast<uint32_t>(std::clamp<int64_t>(ceil_div(threads, kRedThreads), 1, kMaxBlocks));
}

int64_t resident_threads(int32_t multiprocessors) {
  return std::max<int64_t>(multiprocessors, 1) * kResidentThreadsPerSm;
}

}  // namespace

// Note [Reduction schedules]
// Outputs whose neighbours in memory are closer than their reduced elements (a reduction over a
// non-innermost dim) and short reductions take one thread per output: the threads of a warp
// then read neighbouring memory. Other reductions take a warp per output, or a whole block when
// they are long. When that leaves the GPU mostly idle (few outputs), each output is split into
// chunks of at least kMinPerThread elements per thread, enough chunks to fill the device, and
// pass 2 combines each output's chunk results in chunk order.
ReduceSchedule schedule_reduce(const ReducePlan& p, int32_t multiprocessors) {
  const int64_t n_out = p.numel_out, n_red = p.numel_red;
  const bool columns = p.nk > 0 && p.nr > 0 && std::llabs(p.k_in[0]) < std::llabs(p.r_in[0]);
  ReduceSchedule s{};
  s.group = (n_red <= 16 || columns) ? 1 : n_red <= 4096 ? 32 : kRedThreads;
  const int64_t groups_wanted = resident_threads(multiprocessors) / s.group;
  const int64_t per_group = s.group * kMinPerThread;
  int64_t splits = 1;
  if (n_out < groups_wanted && n_red > per_group) {
    splits = std::min({ceil_div(groups_wanted, n_out), ceil_div(n_red, per_group), kMaxSplits});
  }
  s.chunk = splits > 1 ? ceil_div(n_red, splits) : n_red;
  s.splits = splits > 1 ? static_cast<int32_t>(ceil_div(n_red, s.chunk)) : 1;
  s.blocks = blocks_of(n_out * s.splits * s.group);
  return s;
}

size_t partial_bytes(const ReducePlan& p, const ReduceSchedule& s) {
  if (s.splits <= 1) return 0;
  return static_cast<size_t>(p.numel_out) * static_cast<size_t>(s.splits) * kMaxAccBytes;
}

LineSchedule schedule_rows(int64_t rows, int64_t n, bool columns, int32_t multiprocessors) {
  (void)multiprocessors;
  LineSchedule s{};
  s.group = (n <= 8 || (columns && rows >= 1024)) ? 1 : n <= 2048 ? 32 : kRedThreads;
  s.blocks = blocks_of(rows * s.group);
  return s;
}

LineSchedule schedule_lines(const LinePlan& p, int32_t multiprocessors) {
  const ReducePlan& l = p.lines;
  const bool columns = l.nk > 0 && std::llabs(l.k_in[0]) < std::llabs(p.si);
  return schedule_rows(l.numel_out, p.n, columns, multiprocessors);
}

void require_dtype_in(uint32_t mask, int32_t dtype, const char* what) {
  if (dtype >= 0 && dtype < 32 && (mask & (1u << static_cast<uint32_t>(dtype))) != 0) return;
  fail(KF_INVALID_ARGUMENT, std::string("the GPU kernel does not take ") + what + " of dtype " +
                                kf_dtype_string(dtype));
}

}  // namespace kf::cuda
