// The pure host logic of the cuda backend's cuSOLVER glue, without a GPU: cuSOLVER's info
// codes as errors naming the op, the batch index and what failed, with the CPU backend's texts
// (solver_status.hpp); the choice between batched and looped routines and the orientation of
// a wide SVD (solver_choice.hpp); the copy views (view_layout.hpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernforge/plugin.hpp"
#include "solver_choice.hpp"
#include "solver_status.hpp"
#include "view_layout.hpp"

namespace {

using kf::cuda::SolverStep;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// The status and message check_solver_infos throws, or KF_OK and "".
std::pair<kf_status_t, std::string> thrown(SolverStep step, const std::vector<int32_t>& info,
                                           const std::vector<int32_t>& bad = {}) {
  try {
    kf::cuda::check_solver_infos("linalg_op", step, info.data(), bad.empty() ? nullptr : bad.data(),
                                 static_cast<int64_t>(info.size()));
  } catch (const kf::plugin::KernelError& e) {
    return {e.status(), e.what()};
  }
  return {KF_OK, ""};
}

TEST(SolverStatus, AllZeroInfosPass) {
  EXPECT_EQ(thrown(SolverStep::kLu, {0, 0, 0}).first, KF_OK);
  EXPECT_EQ(thrown(SolverStep::kLu, {}).first, KF_OK);  // an empty batch
}

TEST(SolverStatus, TheFirstFailingMatrixNamesItsBatchIndex) {
  const auto [status, text] = thrown(SolverStep::kLu, {0, 0, 3, 2});
  EXPECT_EQ(status, KF_INVALID_ARGUMENT);
  EXPECT_EQ(text, "linalg_op: the matrix at batch index 2 is singular (U[2, 2] of its LU "
                  "factorisation is exactly zero)");
}

TEST(SolverStatus, CholeskyNamesTheOrderOfTheFailingMinor) {
  const auto [status, text] = thrown(SolverStep::kCholesky, {0, 4});
  EXPECT_EQ(status, KF_INVALID_ARGUMENT);
  EXPECT_EQ(text, "linalg_op: the matrix at batch index 1 is not positive-definite (its leading "
                  "minor of order 4 is not)");
}

TEST(SolverStatus, NoConvergenceSaysSo) {
  EXPECT_TRUE(has(thrown(SolverStep::kEigh, {5}).second,
                  "batch index 0 did not converge: 5 off-diagonal elements"));
  EXPECT_TRUE(has(thrown(SolverStep::kSvd, {0, 1}).second,
                  "batch index 1 did not converge: the singular value iteration failed"));
}

TEST(SolverStatus, NonFiniteInputComesFirstInItsMatrix) {
  const auto [status, text] = thrown(SolverStep::kEigh, {0, 7, 0}, {0, 1, 1});
  EXPECT_EQ(status, KF_INVALID_ARGUMENT);
  EXPECT_EQ(text, "linalg_op: the matrix at batch index 1 holds a NaN or an infinity; the "
                  "decomposition needs finite input");
  // An earlier matrix that failed otherwise is reported first.
  EXPECT_TRUE(has(thrown(SolverStep::kSvd, {2, 0}, {0, 1}).second, "batch index 0 did not"));
}

TEST(SolverStatus, ARefusedArgumentIsInternal) {
  const auto [status, text] = thrown(SolverStep::kQr, {0, -3});
  EXPECT_EQ(status, KF_INTERNAL);
  EXPECT_TRUE(has(text, "cuSOLVER refused argument 3 for the matrix at batch index 1")) << text;
  EXPECT_TRUE(has(text, "please report it")) << text;
}

TEST(SolverChoice, CholeskyBatchesMoreThanOneMatrix) {
  using kf::cuda::SolverRoute;
  EXPECT_EQ(kf::cuda::cholesky_route(100, 1), SolverRoute::kLooped);
  EXPECT_EQ(kf::cuda::cholesky_route(100, 2), SolverRoute::kBatched);
  EXPECT_EQ(kf::cuda::cholesky_route(0, 5), SolverRoute::kLooped);
}

TEST(SolverChoice, LuBatchesManySmallMatrices) {
  using kf::cuda::SolverRoute;
  EXPECT_EQ(kf::cuda::lu_route(8, 100), SolverRoute::kBatched);
  EXPECT_EQ(kf::cuda::lu_route(32, 2), SolverRoute::kBatched);
  EXPECT_EQ(kf::cuda::lu_route(33, 100), SolverRoute::kLooped);
  EXPECT_EQ(kf::cuda::lu_route(8, 1), SolverRoute::kLooped);
  EXPECT_EQ(kf::cuda::lu_route(0, 100), SolverRoute::kLooped);
}

TEST(SolverChoice, JacobiBatchesSmallMatricesOnly) {
  using kf::cuda::SolverRoute;
  EXPECT_EQ(kf::cuda::eigh_route(32, 8, true), SolverRoute::kBatched);
  EXPECT_EQ(kf::cuda::eigh_route(33, 8, true), SolverRoute::kLooped);
  EXPECT_EQ(kf::cuda::eigh_route(8, 1, true), SolverRoute::kLooped);
  EXPECT_EQ(kf::cuda::eigh_route(8, 8, false), SolverRoute::kLooped);  // no syevBatched
  EXPECT_EQ(kf::cuda::svd_route(32, 4, 3), SolverRoute::kBatched);
  EXPECT_EQ(kf::cuda::svd_route(4, 33, 3), SolverRoute::kLooped);
  EXPECT_EQ(kf::cuda::svd_route(0, 4, 3), SolverRoute::kLooped);
}

TEST(SolverChoice, AWideSvdFactorsTheConjugateTranspose) {
  const kf::cuda::SvdOrientation tall = kf::cuda::svd_orientation(5, 3);
  EXPECT_FALSE(tall.conjugate_transpose);
  EXPECT_EQ(tall.rows, 5);
  EXPECT_EQ(tall.cols, 3);
  const kf::cuda::SvdOrientation wide = kf::cuda::svd_orientation(3, 5);
  EXPECT_TRUE(wide.conjugate_transpose);
  EXPECT_EQ(wide.rows, 5);
  EXPECT_EQ(wide.cols, 3);
}

TEST(SolverChoice, WorkspacesAreAlignedAndNeverEmpty) {
  EXPECT_EQ(kf::cuda::solver_workspace_bytes(0), 256u);
  EXPECT_EQ(kf::cuda::solver_workspace_bytes(1), 256u);
  EXPECT_EQ(kf::cuda::solver_workspace_bytes(257), 512u);
}

TEST(ViewLayout, ComplexCopiesAsRawBits) {
  kf::cuda::ViewLayout c64{{2, 3}, {3, 1}, KF_COMPLEX64};
  const kf::cuda::ViewLayout b64 = kf::cuda::as_bits(c64);
  EXPECT_EQ(b64.dtype, KF_FLOAT64);
  EXPECT_EQ(b64.shape, c64.shape);
  EXPECT_EQ(b64.strides, c64.strides);
  kf::cuda::ViewLayout c128{{2, 3}, {1, 2}, KF_COMPLEX128};
  const kf::cuda::ViewLayout b128 = kf::cuda::as_bits(c128);
  EXPECT_EQ(b128.dtype, KF_FLOAT64);
  EXPECT_EQ(b128.shape, (std::vector<int64_t>{2, 3, 2}));
  EXPECT_EQ(b128.strides, (std::vector<int64_t>{2, 4, 1}));
  kf::cuda::ViewLayout f32{{4}, {1}, KF_FLOAT32};
  EXPECT_EQ(kf::cuda::as_bits(f32).dtype, KF_FLOAT32);
  kf::cuda::ViewLayout deep{std::vector<int64_t>(KF_MAX_NDIM, 1),
                            std::vector<int64_t>(KF_MAX_NDIM, 1), KF_COMPLEX128};
  EXPECT_THROW(kf::cuda::as_bits(deep), kf::plugin::KernelError);
}

TEST(ViewLayout, BroadcastBatchDimsStepZero) {
  // self [3, 1, n, n] against out's batch [2, 3, 4] + [n, n] (n = 5)
  const std::vector<int64_t> s = kf::cuda::broadcast_strides({3, 1, 5, 5}, {25, 25, 5, 1},
                                                             {2, 3, 4, 5, 5});
  EXPECT_EQ(s, (std::vector<int64_t>{0, 25, 0, 5, 1}));
}

TEST(ViewLayout, MatrixBatchesAreDenseEitherWay) {
  const kf::cuda::ViewLayout col = kf::cuda::matrix_batch({2, 3}, 4, 5, true, KF_FLOAT32);
  EXPECT_EQ(col.shape, (std::vector<int64_t>{2, 3, 4, 5}));
  EXPECT_EQ(col.strides, (std::vector<int64_t>{60, 20, 1, 4}));
  const kf::cuda::ViewLayout row = kf::cuda::matrix_batch({}, 4, 5, false, KF_FLOAT32);
  EXPECT_EQ(row.strides, (std::vector<int64_t>{5, 1}));
  EXPECT_EQ(kf::cuda::dense_layout({2, 3, 4}, KF_FLOAT32).strides,
            (std::vector<int64_t>{12, 4, 1}));
  EXPECT_EQ(kf::cuda::product_of({}), 1);
  EXPECT_EQ(kf::cuda::product_of({2, 0, 3}), 0);
}

}  // namespace
