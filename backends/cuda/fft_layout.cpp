// The cuFFT passes of the FFT ops (fft_layout.hpp, Note [FFT passes on cuFFT]).
#include "fft_layout.hpp"

#include <algorithm>
#include <cstddef>

namespace kf::cuda {
namespace {

int64_t product(const std::vector<int64_t>& shape, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t d = from; d < to; ++d) p *= shape[d];
  return p;
}

int64_t numel(const std::vector<int64_t>& shape) { return product(shape, 0, shape.size()); }

/// The logical length of a pass over `axis`: the real side's for r2c and c2r.
int64_t logical_length(FftKind kind, const std::vector<int64_t>& in_shape,
                       const std::vector<int64_t>& out_shape, size_t axis) {
  return kind == FftKind::kC2R ? out_shape[axis] : in_shape[axis];
}

/// Whether `dims` are the last k <= 3 dims of an ndim-tensor, and, for r2c and c2r, end with
/// the tensor's last: then one plan of rank k does them all.
bool trailing(FftKind kind, const std::vector<int32_t>& dims, size_t ndim) {
  if (dims.empty() || dims.size() > 3 || dims.size() > ndim) return false;
  if (kind != FftKind::kC2C && static_cast<size_t>(dims.back()) + 1 != ndim) return false;
  if (kind == FftKind::kC2R && dims.size() > 1) return false;  // see Note [FFT passes on cuFFT]
  std::vector<int32_t> sorted(dims);
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (static_cast<size_t>(sorted[i]) != ndim - sorted.size() + i) return false;
  }
  return true;
}

FftPass trailing_pass(FftKind kind, const std::vector<int64_t>& in_shape,
                      const std::vector<int64_t>& out_shape, size_t k) {
  FftPass p;
  p.kind = kind;
  p.rank = static_cast<int32_t>(k);
  const size_t first = in_shape.size() - k;
  for (size_t i = 0; i < k; ++i) {
    p.n[i] = logical_length(kind, in_shape, out_shape, first + i);
    p.inembed[i] = in_shape[first + i];
    p.onembed[i] = out_shape[first + i];
  }
  p.idist = product(in_shape, first, in_shape.size());
  p.odist = product(out_shape, first, out_shape.size());
  p.batch = product(in_shape, 0, first);
  return p;
}

}  // namespace

FftPass axis_pass(FftKind kind, const std::vector<int64_t>& in_shape,
                  const std::vector<int64_t>& out_shape, int32_t axis) {
  const size_t a = static_cast<size_t>(axis);
  const int64_t outer = product(in_shape, 0, a);
  const int64_t inner = product(in_shape, a + 1, in_shape.size());
  const int64_t in_len = in_shape[a], out_len = out_shape[a];
  FftPass p;
  p.kind = kind;
  p.axis = axis;
  p.n[0] = logical_length(kind, in_shape, out_shape, a);
  p.inembed[0] = in_len;
  p.onembed[0] = out_len;
  if (inner == 1 || std::min(outer, inner) > kMaxFftLoops) {
    p.move_last = inner != 1;  // contiguous sequences, in a moved copy unless they already are
    p.batch = outer * inner;
    p.idist = in_len;
    p.odist = out_len;
    return p;
  }
  p.istride = p.ostride = inner;
  if (outer <= inner) {  // batch over inner, loop over outer
    p.batch = inner;
    p.idist = p.odist = 1;
    p.loops = outer;
    p.in_step = in_len * inner;
    p.out_step = out_len * inner;
  } else {  // batch over outer, loop over inner
    p.batch = outer;
    p.idist = in_len * inner;
    p.odist = out_len * inner;
    p.loops = inner;
    p.in_step = p.out_step = 1;
  }
  return p;
}

std::vector<FftPass> plan_fft(FftKind kind, const std::vector<int64_t>& in_shape,
                              const std::vector<int64_t>& out_shape,
                              const std::vector<int32_t>& dims) {
  std::vector<FftPass> passes;
  if (numel(out_shape) == 0 || numel(in_shape) == 0 || dims.empty()) return passes;
  if (trailing(kind, dims, in_shape.size())) {
    passes.push_back(trailing_pass(kind, in_shape, out_shape, dims.size()));
    return passes;
  }
  const std::vector<int32_t> rest(dims.begin(), dims.end() - 1);
  const int32_t last = dims.back();
  if (kind == FftKind::kR2C) passes.push_back(axis_pass(kind, in_shape, out_shape, last));
  const std::vector<int64_t>& complex_shape = kind == FftKind::kC2R ? in_shape : out_shape;
  for (int32_t d : kind == FftKind::kC2C ? dims : rest) {
    passes.push_back(axis_pass(FftKind::kC2C, complex_shape, complex_shape, d));
  }
  if (kind == FftKind::kC2R) passes.push_back(axis_pass(kind, in_shape, out_shape, last));
  return passes;
}

bool FftPlanKey::operator==(const FftPlanKey& o) const {
  const auto same3 = [](const int64_t* a, const int64_t* b) {
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
  };
  return device == o.device && dtype == o.dtype && kind == o.kind && rank == o.rank &&
         same3(n, o.n) && same3(inembed, o.inembed) && same3(onembed, o.onembed) &&
         istride == o.istride && idist == o.idist && ostride == o.ostride && odist == o.odist &&
         batch == o.batch;
}

size_t FftPlanKeyHash::operator()(const FftPlanKey& k) const {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the fields
  const auto mix = [&h](int64_t v) {
    h ^= static_cast<uint64_t>(v);
    h *= 1099511628211ull;
  };
  for (int64_t v : {int64_t{k.device}, int64_t{k.dtype}, int64_t{k.kind}, int64_t{k.rank}}) {
    mix(v);
  }
  for (int i = 0; i < 3; ++i) {
    mix(k.n[i]);
    mix(k.inembed[i]);
    mix(k.onembed[i]);
  }
  for (int64_t v : {k.istride, k.idist, k.ostride, k.odist, k.batch}) mix(v);
  return static_cast<size_t>(h);
}

FftPlanKey plan_key(int32_t device, int32_t complex_dtype, const FftPass& p) {
  FftPlanKey k;
  k.device = device;
  k.dtype = complex_dtype;
  k.kind = static_cast<int32_t>(p.kind);
  k.rank = p.rank;
  for (int i = 0; i < 3; ++i) {
    const bool used = i < p.rank;  // unused entries do not split the cache
    k.n[i] = used ? p.n[i] : 0;
    k.inembed[i] = used ? p.inembed[i] : 0;
    k.onembed[i] = used ? p.onembed[i] : 0;
  }
  k.istride = p.istride;
  k.idist = p.idist;
  k.ostride = p.ostride;
  k.odist = p.odist;
  k.batch = p.batch;
  return k;
}

void moved_last(const std::vector<int64_t>& shape, int32_t axis, std::vector<int64_t>& moved,
                std::vector<int64_t>& strides) {
  const size_t a = static_cast<size_t>(axis);
  std::vector<int64_t> dense(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) dense[d - 1] = dense[d] * shape[d];
  moved.clear();
  strides.clear();
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d == a) continue;
    moved.push_back(shape[d]);
    strides.push_back(dense[d]);
  }
  moved.push_back(shape[a]);
  strides.push_back(dense[a]);
}

}  // namespace kf::cuda
