// fft_layout.hpp — how fft_c2c, fft_r2c and fft_c2r over kernforge dims become cuFFT plans:
// pure host decisions, unit-tested without a GPU (tests/cuda).
//
// Note [FFT passes on cuFFT]
// The op's buffers are dense row-major (the input, or its copy; the output). A plan of
// cuFFT's advanced layout transforms `batch` sequences of rank 1 to 3, element (i0, i1, i2) of
// sequence b at b * dist + ((i0 * embed[1] + i1) * embed[2] + i2) * stride. Two shapes fit:
//   - the dims are exactly the last k (k <= 3) of the tensor, in any order, and for r2c the
//     last of them is the tensor's last (the halved one, as cuFFT halves its last): one rank-k
//     plan, stride 1, batch = the product of the leading dims. c2r takes it for one dim only:
//     the op ignores the imaginary parts of the zero and Nyquist terms after its c2c passes
//     (as the CPU does), which a multi-dim c2r plan of cuFFT does not promise for input that
//     is not Hermitian, so c2r zeroes them between its c2c passes and its last;
//   - else one rank-1 pass per dim, in the op's order, the buffer seen as [outer, n, inner]:
//     inner == 1 is `outer` contiguous sequences (stride 1, one execution); otherwise the
//     sequences are `inner` apart, and the plan batches over the larger of outer (dist n *
//     inner) and inner (dist 1), executed once per index of the smaller at its offset. When
//     even the smaller exceeds kMaxFftLoops, the pass copies the buffer with that dim moved
//     last (a contiguous copy), transforms it as contiguous sequences and copies it back.
// r2c runs its halving pass first (real input to the complex output), then the c2c passes in
// the output; c2r runs the c2c passes (inverse) in a copy of its input, then the halving pass
// into the output, as the CPU does. The scale is applied once, after the last pass.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kf::cuda {

enum class FftKind : int32_t { kC2C = 0, kR2C = 1, kC2R = 2 };

/// Executions of one plan per pass beyond which the dim is moved last by a copy instead.
constexpr int64_t kMaxFftLoops = 64;

/// One plan and how often it runs. Sizes in elements of the pass's input and output types.
struct FftPass {
  FftKind kind = FftKind::kC2C;
  int32_t rank = 1;
  int64_t n[3] = {1, 1, 1};  // the logical lengths (c2r: the real output's)
  int64_t inembed[3] = {1, 1, 1}, onembed[3] = {1, 1, 1};
  int64_t istride = 1, idist = 1, ostride = 1, odist = 1, batch = 1;
  int64_t loops = 1;                  // executions, each `in_step` / `out_step` further on
  int64_t in_step = 0, out_step = 0;
  bool move_last = false;             // transform a copy with `axis` moved last (see above)
  int32_t axis = -1;                  // the tensor dim of a rank-1 pass
};

/// The passes of `kind` over `dims` (wrapped into [0, ndim), distinct, in the op's order) for
/// a dense input of `in_shape` and output of `out_shape` (equal but for the last of dims in
/// r2c and c2r). Empty when the output has no element.
std::vector<FftPass> plan_fft(FftKind kind, const std::vector<int64_t>& in_shape,
                              const std::vector<int64_t>& out_shape,
                              const std::vector<int32_t>& dims);

/// The rank-1 pass of `kind` over `axis` of a dense buffer (Note [FFT passes on cuFFT]).
FftPass axis_pass(FftKind kind, const std::vector<int64_t>& in_shape,
                  const std::vector<int64_t>& out_shape, int32_t axis);

/// What a cached cuFFT plan is made for (fft_plans.hpp): the device, the complex dtype of the
/// transform (complex64 or complex128), the kind and the geometry of the pass; not the
/// direction of a c2c (cufftXtExec takes it) nor the loop, which reuses the one plan.
struct FftPlanKey {
  int32_t device = 0, dtype = 0, kind = 0, rank = 0;
  int64_t n[3] = {}, inembed[3] = {}, onembed[3] = {};
  int64_t istride = 0, idist = 0, ostride = 0, odist = 0, batch = 0;
  bool operator==(const FftPlanKey& o) const;
};

struct FftPlanKeyHash {
  size_t operator()(const FftPlanKey& k) const;
};

FftPlanKey plan_key(int32_t device, int32_t complex_dtype, const FftPass& p);

/// The shape of `shape` with `axis` moved last, and the strides in a dense buffer of `shape`
/// that read it so (a move_last pass's copy).
void moved_last(const std::vector<int64_t>& shape, int32_t axis, std::vector<int64_t>& moved,
                std::vector<int64_t>& strides);

}  // namespace kf::cuda
