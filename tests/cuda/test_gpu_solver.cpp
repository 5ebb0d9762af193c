// On an NVIDIA GPU (CTest label requires-gpu-nvidia, run by tools/device/cuda-check.sh): the
// cuda backend's cuSOLVER, cuFFT and complex cuBLAS ops against the CPU backend on random
// batched inputs in float32, float64, complex64 and complex128: contiguous and strided, batched
// and looped routes (Note [Batched or looped]), empty batches and empty matrices, and the
// errors of singular, not positive-definite and non-finite input, which must name the same
// batch index (and minor) as the CPU's. Decompositions with a free phase per vector (eigh's
// vectors, svd's U and Vh, qr) are checked by reconstruction and orthonormality instead.
#include <complex>
#include <string>
#include <tuple>
#include <vector>

#include "gpu_test_util.hpp"

namespace cuda_test {
namespace {

const kf::Dtype kSolverDtypes[] = {kf::Dtype::Float32, kf::Dtype::Float64,
                                   kf::Dtype::Complex64, kf::Dtype::Complex128};

bool is_complex(kf::Dtype d) { return d == kf::Dtype::Complex64 || d == kf::Dtype::Complex128; }
bool is_single(kf::Dtype d) { return d == kf::Dtype::Float32 || d == kf::Dtype::Complex64; }

/// The tolerance of a decomposition's results against the CPU's (both in the same precision,
/// through different algorithms): relative and absolute.
double tol(kf::Dtype d) { return is_single(d) ? 2e-3 : 1e-9; }

/// Standard normal values of `shape` in dtype d on the CPU (complex: both parts).
kf::Tensor random(const std::vector<int64_t>& shape, kf::Dtype d, uint64_t seed) {
  kf::detail::check(kf_manual_seed(seed));
  const kf::Tensor re = kf::randn(shape, kf::Dtype::Float32, kf::Device::cpu());
  if (!is_complex(d)) return re.to(d);
  const kf::Tensor im = kf::randn(shape, kf::Dtype::Float32, kf::Device::cpu());
  return re.to(d) + im.to(d) * kf::Scalar(std::complex<double>(0.0, 1.0));
}

/// The conjugate transpose of the last two dims.
kf::Tensor adjoint(const kf::Tensor& t) {
  const int64_t nd = static_cast<int64_t>(t.sizes().size());
  return t.transpose(nd - 2, nd - 1).conj();
}

/// Hermitian positive-definite matrices [batch..., n, n]: X X^H + n I.
kf::Tensor positive_definite(std::vector<int64_t> shape, kf::Dtype d, uint64_t seed) {
  const kf::Tensor x = random(shape, d, seed);
  const int64_t n = shape.back();
  return x.matmul(adjoint(x)) + kf::eye(n, std::nullopt, d) * kf::Scalar(double(n));
}

/// Well-conditioned general matrices: random + n I.
kf::Tensor well_conditioned(std::vector<int64_t> shape, kf::Dtype d, uint64_t seed) {
  const int64_t n = shape.back();
  return random(shape, d, seed) + kf::eye(n, std::nullopt, d) * kf::Scalar(double(n));
}

/// close() of got and want (any devices), complex ones part by part.
::testing::AssertionResult near(const kf::Tensor& got, const kf::Tensor& want, double t) {
  const kf::Tensor g = got.to(kf::Device::cpu()), w = want.to(kf::Device::cpu());
  if (!is_complex(w.dtype())) return close(g, w, t, t);
  ::testing::AssertionResult re = close(g.real(), w.real(), t, t);
  if (!re) return re << " (real parts)";
  ::testing::AssertionResult im = close(g.imag(), w.imag(), t, t);
  if (!im) return im << " (imaginary parts)";
  return ::testing::AssertionSuccess();
}

kf::Tensor on_gpu(const kf::Tensor& t) { return t.to(kf::Device(KF_TEST_GPU_BACKEND ":0")); }

/// The status and message of `f()` (KF_OK and "" when it succeeds).
template <class F>
std::pair<kf_status_t, std::string> failure_of(F f) {
  try {
    f();
  } catch (const kf::Error& e) {
    return {e.status(), e.what()};
  }
  return {KF_OK, ""};
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_F(Gpu, CholeskyAgreesWithTheCpu) {
  for (kf::Dtype d : kSolverDtypes) {
    // A batch (potrfBatched), one large matrix (Xpotrf), a strided view, an empty batch.
    for (const std::vector<int64_t>& shape : {std::vector<int64_t>{3, 2, 5, 5},
                                              std::vector<int64_t>{40, 40},
                                              std::vector<int64_t>{0, 4, 4}}) {
      const kf::Tensor a = positive_definite(shape, d, 11);
      for (bool upper : {false, true}) {
        EXPECT_TRUE(near(kf::linalg_cholesky(on_gpu(a), upper), kf::linalg_cholesky(a, upper),
                         tol(d)))
            << kf::dtype_name(d) << " upper " << upper;
      }
    }
    const kf::Tensor strided = positive_definite({4, 6, 6}, d, 12).transpose(1, 2);
    EXPECT_TRUE(near(kf::linalg_cholesky(on_gpu(strided)), kf::linalg_cholesky(strided), tol(d)));
  }
}

TEST_F(Gpu, CholeskyOfAMatrixThatIsNotPositiveDefiniteNamesItsBatchIndexAndMinor) {
  for (kf::Dtype d : kSolverDtypes) {
    // diag (1, 1, -1, 1) in matrix 1 of 3: its leading minor of order 3 is not positive.
    const kf::Tensor signs = kf::tensor({1.f, 1.f, 1.f, 1.f, 1.f, 1.f, -1.f, 1.f, 1.f, 1.f, 1.f,
                                         1.f}, {3, 1, 4}).to(d);
    const kf::Tensor a = kf::eye(4, std::nullopt, d).expand({3, 4, 4}).contiguous() * signs;
    for (kf::Tensor x : {a, on_gpu(a)}) {
      const auto [status, text] = failure_of([&] { (void)kf::linalg_cholesky(x); });
      EXPECT_EQ(status, KF_INVALID_ARGUMENT) << text;
      EXPECT_TRUE(has(text, "batch index 1 is not positive-definite")) << text;
      EXPECT_TRUE(has(text, "minor of order 3")) << text;
    }
  }
}

TEST_F(Gpu, InvSolveDetAndSlogdetAgreeWithTheCpu) {
  for (kf::Dtype d : kSolverDtypes) {
    for (int64_t n : {1, 7, 40}) {
      const kf::Tensor a = well_conditioned({2, 3, n, n}, d, 21);
      const kf::Tensor g = on_gpu(a);
      EXPECT_TRUE(near(kf::linalg_inv(g), kf::linalg_inv(a), tol(d))) << n;
      const kf::Tensor b = random({2, 3, n, 2}, d, 22);
      EXPECT_TRUE(near(kf::linalg_solve(g, on_gpu(b)), kf::linalg_solve(a, b), tol(d))) << n;
      const kf::Tensor v = random({n}, d, 23);  // one right-hand side for every matrix
      EXPECT_TRUE(near(kf::linalg_solve(g, on_gpu(v)), kf::linalg_solve(a, v), tol(d))) << n;
      const kf::Tensor one = a.select(0, 0).select(0, 1);  // [n, n] against a batch of rhs
      const kf::Tensor rhs = random({4, n, 3}, d, 24);
      EXPECT_TRUE(near(kf::linalg_solve(on_gpu(one), on_gpu(rhs)), kf::linalg_solve(one, rhs),
                       tol(d)))
          << n;
      const kf::Tensor small = random({5, std::min<int64_t>(n, 6), std::min<int64_t>(n, 6)}, d,
                                      25);
      EXPECT_TRUE(near(kf::linalg_det(on_gpu(small)), kf::linalg_det(small), tol(d))) << n;
      const auto [sign, logabs] = kf::linalg_slogdet(on_gpu(small));
      const auto [sign_cpu, logabs_cpu] = kf::linalg_slogdet(small);
      EXPECT_TRUE(near(sign, sign_cpu, tol(d))) << n;
      EXPECT_TRUE(near(logabs, logabs_cpu, tol(d))) << n;
    }
    const kf::Tensor strided = well_conditioned({3, 8, 8}, d, 26).transpose(1, 2);
    EXPECT_TRUE(near(kf::linalg_inv(on_gpu(strided)), kf::linalg_inv(strided), tol(d)));
  }
}

/// Matrices [3, 4, 4] whose matrix 2 is singular (its last row zero).
kf::Tensor with_singular(kf::Dtype d) {
  const kf::Tensor rows = kf::tensor({1.f, 1.f, 1.f, 1.f, 1.f, 1.f, 1.f, 1.f, 1.f, 1.f, 1.f, 0.f},
                                     {3, 4, 1}).to(d);
  return well_conditioned({3, 4, 4}, d, 31) * rows;
}

TEST_F(Gpu, SingularMatricesFailInvAndSolveAndGiveZeroDeterminants) {
  for (kf::Dtype d : kSolverDtypes) {
    const kf::Tensor a = with_singular(d);
    for (kf::Tensor x : {a, on_gpu(a)}) {
      const auto [status, text] = failure_of([&] { (void)kf::linalg_inv(x); });
      EXPECT_EQ(status, KF_INVALID_ARGUMENT) << text;
      EXPECT_TRUE(has(text, "linalg_inv: the matrix at batch index 2 is singular")) << text;
      const kf::Tensor b = random({3, 4, 1}, d, 32).to(x.device());
      const auto [s2, t2] = failure_of([&] { (void)kf::linalg_solve(x, b); });
      EXPECT_EQ(s2, KF_INVALID_ARGUMENT) << t2;
      EXPECT_TRUE(has(t2, "linalg_solve: the matrix at batch index 2 is singular")) << t2;
    }
    EXPECT_TRUE(near(kf::linalg_det(on_gpu(a)), kf::linalg_det(a), tol(d)));
    const auto [sign, logabs] = kf::linalg_slogdet(on_gpu(a));
    const auto [sign_cpu, logabs_cpu] = kf::linalg_slogdet(a);
    EXPECT_TRUE(near(sign, sign_cpu, tol(d)));
    EXPECT_TRUE(near(logabs, logabs_cpu, tol(d)));  // -inf at index 2 on both
  }
}

TEST_F(Gpu, EmptyBatchesAndEmptyMatricesAgreeWithTheCpu) {
  for (kf::Dtype d : kSolverDtypes) {
    for (const std::vector<int64_t>& shape : {std::vector<int64_t>{0, 4, 4},
                                              std::vector<int64_t>{3, 0, 0}}) {
      const kf::Tensor a = random(shape, d, 41);
      const kf::Tensor g = on_gpu(a);
      EXPECT_TRUE(near(kf::linalg_inv(g), kf::linalg_inv(a), 0));
      EXPECT_TRUE(near(kf::linalg_det(g), kf::linalg_det(a), 0));  // ones for n = 0
      EXPECT_TRUE(near(std::get<1>(kf::linalg_slogdet(g)), std::get<1>(kf::linalg_slogdet(a)), 0));
      EXPECT_TRUE(near(kf::linalg_eigvalsh(g), kf::linalg_eigvalsh(a), 0));
      EXPECT_TRUE(near(kf::linalg_svdvals(g), kf::linalg_svdvals(a), 0));
    }
    const kf::Tensor wide = random({2, 0, 3}, d, 42);  // full U and Vh: identities
    const auto [u, s, vh] = kf::linalg_svd(on_gpu(wide), true);
    const auto [u_cpu, s_cpu, vh_cpu] = kf::linalg_svd(wide, true);
    EXPECT_TRUE(near(u, u_cpu, 0));
    EXPECT_TRUE(near(s, s_cpu, 0));
    EXPECT_TRUE(near(vh, vh_cpu, 0));
    const kf::Tensor no_cols = random({2, 3, 0}, d, 43);  // complete Q: identities
    EXPECT_TRUE(near(std::get<0>(kf::linalg_qr(on_gpu(no_cols), true)),
                     std::get<0>(kf::linalg_qr(no_cols, true)), 0));
  }
}

/// |x - y| small relative to y's scale, element by element (on the CPU).
::testing::AssertionResult reconstructs(const kf::Tensor& x, const kf::Tensor& y, double t) {
  return near(x.to(kf::Device::cpu()), y.to(kf::Device::cpu()), t * 10);
}

/// x^H x = I for the columns of x [..., m, k].
::testing::AssertionResult orthonormal(const kf::Tensor& x, double t) {
  const kf::Tensor c = x.to(kf::Device::cpu());
  const std::vector<int64_t> sizes = c.sizes();
  const int64_t k = sizes.back();
  const kf::Tensor gram = adjoint(c).matmul(c);
  return near(gram, kf::eye(k, std::nullopt, c.dtype()).expand(gram.sizes()), t * 10);
}

TEST_F(Gpu, EighAgreesWithTheCpu) {
  for (kf::Dtype d : kSolverDtypes) {
    for (int64_t n : {5, 40}) {  // syevBatched for the batch of small ones, Xsyevd else
      const kf::Tensor x = random({2, 3, n, n}, d, 51);
      const kf::Tensor a = (x + adjoint(x)) * kf::Scalar(0.5);
      const auto [w, v] = kf::linalg_eigh(on_gpu(a));
      const auto [w_cpu, v_cpu] = kf::linalg_eigh(a);
      EXPECT_TRUE(near(w, w_cpu, tol(d))) << n;
      EXPECT_TRUE(near(kf::linalg_eigvalsh(on_gpu(a)), w_cpu, tol(d))) << n;
      const kf::Tensor vc = v.to(kf::Device::cpu());
      EXPECT_TRUE(orthonormal(vc, tol(d))) << n;
      const kf::Tensor av = a.matmul(vc), vw = vc * w.to(kf::Device::cpu()).to(d).unsqueeze(-2);
      EXPECT_TRUE(reconstructs(av, vw, tol(d) * double(n))) << n;
    }
  }
}

TEST_F(Gpu, EighAndSvdRefuseNonFiniteInputNamingItsBatchIndex) {
  for (kf::Dtype d : kSolverDtypes) {
    const kf::Tensor nan_at_1 = kf::tensor({0.f, NAN, 0.f}, {3, 1, 1}).to(d);
    const kf::Tensor a = positive_definite({3, 4, 4}, d, 52) + nan_at_1;
    for (kf::Tensor x : {a, on_gpu(a)}) {
      for (const char* op : {"eigh", "svd"}) {
        const auto [status, text] = failure_of([&] {
          if (std::string(op) == "eigh") {
            (void)kf::linalg_eigvalsh(x);
          } else {
            (void)kf::linalg_svdvals(x);
          }
        });
        EXPECT_EQ(status, KF_INVALID_ARGUMENT) << text;
        EXPECT_TRUE(has(text, "batch index 1 holds a NaN or an infinity")) << text;
      }
    }
  }
}

TEST_F(Gpu, QrReconstructsItsInput) {
  for (kf::Dtype d : kSolverDtypes) {
    for (const std::vector<int64_t>& shape : {std::vector<int64_t>{2, 6, 4},
                                              std::vector<int64_t>{2, 4, 6},
                                              std::vector<int64_t>{5, 5}}) {
      const kf::Tensor a = random(shape, d, 61);
      for (bool complete : {false, true}) {
        const auto [q, r] = kf::linalg_qr(on_gpu(a), complete);
        const auto [q_cpu, r_cpu] = kf::linalg_qr(a, complete);
        EXPECT_EQ(q.sizes(), q_cpu.sizes());
        EXPECT_EQ(r.sizes(), r_cpu.sizes());
        EXPECT_TRUE(orthonormal(q, tol(d)));
        const kf::Tensor qc = q.to(kf::Device::cpu()), rc = r.to(kf::Device::cpu());
        EXPECT_TRUE(reconstructs(qc.matmul(rc), a, tol(d))) << complete;
        // R is upper triangular: |R| equals |R_cpu| (the reflectors' signs may differ).
        EXPECT_TRUE(near(rc.abs(), r_cpu.abs(), tol(d) * 10)) << complete;
      }
    }
  }
}

TEST_F(Gpu, SvdAgreesWithTheCpu) {
  for (kf::Dtype d : kSolverDtypes) {
    for (const std::vector<int64_t>& shape : {std::vector<int64_t>{3, 6, 4},
                                              std::vector<int64_t>{3, 4, 6},
                                              std::vector<int64_t>{2, 40, 40}}) {
      const kf::Tensor a = random(shape, d, 71);
      for (bool full : {false, true}) {
        const auto [u, s, vh] = kf::linalg_svd(on_gpu(a), full);
        const auto [u_cpu, s_cpu, vh_cpu] = kf::linalg_svd(a, full);
        EXPECT_EQ(u.sizes(), u_cpu.sizes());
        EXPECT_EQ(vh.sizes(), vh_cpu.sizes());
        EXPECT_TRUE(near(s, s_cpu, tol(d))) << full;
        EXPECT_TRUE(orthonormal(u, tol(d))) << full;
        EXPECT_TRUE(orthonormal(adjoint(vh.to(kf::Device::cpu())), tol(d))) << full;
        const int64_t k = std::min(shape[shape.size() - 2], shape.back());
        const int64_t nd = static_cast<int64_t>(shape.size());
        const kf::Tensor uk = u.to(kf::Device::cpu()).slice(nd - 1, 0, k);
        const kf::Tensor vk = vh.to(kf::Device::cpu()).slice(nd - 2, 0, k);
        const kf::Tensor us = uk * s.to(kf::Device::cpu()).to(d).unsqueeze(-2);
        EXPECT_TRUE(reconstructs(us.matmul(vk), a, tol(d) * double(k))) << full;
      }
      EXPECT_TRUE(near(kf::linalg_svdvals(on_gpu(a)), kf::linalg_svdvals(a), tol(d)));
    }
  }
}

TEST_F(Gpu, ComplexMatrixProductsAgreeWithTheCpu) {
  for (kf::Dtype d : {kf::Dtype::Complex64, kf::Dtype::Complex128}) {
    const double t = is_single(d) ? 1e-4 : 1e-11;
    const kf::Tensor a = random({33, 65}, d, 81), b = random({65, 17}, d, 82);
    EXPECT_TRUE(near(on_gpu(a).matmul(on_gpu(b)), a.matmul(b), t));
    const kf::Tensor at = random({65, 33}, d, 83).transpose(0, 1);  // transposed operands
    const kf::Tensor bt = random({17, 65}, d, 84).transpose(0, 1);
    EXPECT_TRUE(near(on_gpu(at).matmul(on_gpu(bt)), at.matmul(bt), t));
    const kf::Tensor x = random({3, 10, 20}, d, 85), y = random({3, 20, 5}, d, 86);
    EXPECT_TRUE(near(on_gpu(x).matmul(on_gpu(y)), x.matmul(y), t));
    const kf::Tensor e = random({4, 0}, d, 87), f = random({0, 3}, d, 88);  // zeros
    EXPECT_TRUE(near(on_gpu(e).matmul(on_gpu(f)), e.matmul(f), 0));
  }
}

/// The tolerance of an FFT of `n` points against the CPU's.
double fft_tol(kf::Dtype d, int64_t n) { return (is_single(d) ? 1e-5 : 1e-12) * double(n); }

TEST_F(Gpu, ComplexTransformsAgreeWithTheCpu) {
  for (kf::Dtype d : {kf::Dtype::Complex64, kf::Dtype::Complex128}) {
    const kf::Tensor x = random({4, 6, 17}, d, 91);  // 17: a prime length
    const std::vector<std::vector<int64_t>> dims = {{-1}, {0}, {1, 2}, {0, 2}, {2, 0}, {0, 1, 2}};
    for (const std::vector<int64_t>& dim : dims) {
      for (bool forward : {true, false}) {
        EXPECT_TRUE(near(kf::fft_c2c(on_gpu(x), dim, forward, 0.5),
                         kf::fft_c2c(x, dim, forward, 0.5), fft_tol(d, 408)));
      }
    }
    const kf::Tensor strided = random({17, 6, 4}, d, 92).transpose(0, 2);
    EXPECT_TRUE(near(kf::fft_c2c(on_gpu(strided), {1}), kf::fft_c2c(strided, {1}),
                     fft_tol(d, 6)));
    const kf::Tensor many = random({100, 7, 100}, d, 93);  // the dim moved last by a copy
    EXPECT_TRUE(near(kf::fft_c2c(on_gpu(many), {1}), kf::fft_c2c(many, {1}), fft_tol(d, 7)));
    const kf::Tensor long_prime = random({2, 1009}, d, 94);
    EXPECT_TRUE(near(kf::fft_c2c(on_gpu(long_prime), {1}), kf::fft_c2c(long_prime, {1}),
                     fft_tol(d, 1009)));
    const kf::Tensor empty = random({0, 8}, d, 95);
    EXPECT_EQ(kf::fft_c2c(on_gpu(empty), {1}).sizes(), (std::vector<int64_t>{0, 8}));
  }
}

TEST_F(Gpu, RealTransformsAgreeWithTheCpu) {
  for (kf::Dtype d : {kf::Dtype::Float32, kf::Dtype::Float64}) {
    const kf::Dtype c = d == kf::Dtype::Float32 ? kf::Dtype::Complex64 : kf::Dtype::Complex128;
    const kf::Tensor x = random({4, 6, 10}, d, 101);
    for (const std::vector<int64_t>& dim : {std::vector<int64_t>{-1}, std::vector<int64_t>{1, 2},
                                            std::vector<int64_t>{0, 1},
                                            std::vector<int64_t>{2, 0}}) {
      EXPECT_TRUE(near(kf::fft_r2c(on_gpu(x), dim, 2.0), kf::fft_r2c(x, dim, 2.0),
                       fft_tol(d, 240)));
    }
    for (int64_t last : {10, 11}) {  // an even length has a Nyquist term, an odd one none
      const kf::Tensor spectrum = random({4, 6, last / 2 + 1}, c, 102);  // not Hermitian
      for (const std::vector<int64_t>& dim : {std::vector<int64_t>{2},
                                              std::vector<int64_t>{1, 2},
                                              std::vector<int64_t>{0, 2}}) {
        EXPECT_TRUE(near(kf::fft_c2r(on_gpu(spectrum), dim, last, 0.25),
                         kf::fft_c2r(spectrum, dim, last, 0.25), fft_tol(d, 240)))
            << last;
      }
      const kf::Tensor inner = random({4, last / 2 + 1, 3}, c, 103);  // halved dim not last
      EXPECT_TRUE(near(kf::fft_c2r(on_gpu(inner), {1}, last), kf::fft_c2r(inner, {1}, last),
                       fft_tol(d, last)));
    }
  }
}

TEST_F(Gpu, OnePlanServesTwoStreamsAtOnce) {
  const kf::Tensor x = random({64, 4096}, kf::Dtype::Complex64, 111);
  const kf::Tensor want = kf::fft_c2c(x, {1});
  const kf::Tensor g = on_gpu(x);
  kf_stream_t s[2] = {nullptr, nullptr};
  ASSERT_EQ(kf_stream_create(cuda().c(), &s[0]), KF_OK);
  ASSERT_EQ(kf_stream_create(cuda().c(), &s[1]), KF_OK);
  std::vector<kf::Tensor> results;
  for (int i = 0; i < 8; ++i) {  // the same cached plan, queued on both streams in turn
    ASSERT_EQ(kf_set_current_stream(cuda().c(), s[i % 2]), KF_OK);
    results.push_back(kf::fft_c2c(g, {1}));
  }
  ASSERT_EQ(kf_set_current_stream(cuda().c(), nullptr), KF_OK);
  ASSERT_EQ(kf_stream_synchronize(s[0]), KF_OK);
  ASSERT_EQ(kf_stream_synchronize(s[1]), KF_OK);
  for (const kf::Tensor& r : results) {
    EXPECT_TRUE(near(r, want, fft_tol(kf::Dtype::Complex64, 4096)));
  }
  kf_stream_release(s[0]);
  kf_stream_release(s[1]);
}

}  // namespace
}  // namespace cuda_test
