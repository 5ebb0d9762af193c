// Autograd through the C ABI (2.4): gradients checked in float64 against central finite
// differences, backward's options and its errors, grad mode.
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "abi_util.hpp"
#include "kernforge/kernforge_ops.h"

namespace kfabi {
namespace {

/// A handle released at the end of its scope.
class T {
 public:
  T() = default;
  explicit T(kf_tensor_t h) : h_(h) {}
  T(const T&) = delete;
  T& operator=(const T&) = delete;
  T(T&& o) noexcept : h_(o.h_) { o.h_ = nullptr; }
  ~T() {
    if (h_ != nullptr) kf_tensor_release(h_);
  }
  kf_tensor_t get() const { return h_; }
  kf_tensor_t* put() { return &h_; }

 private:
  kf_tensor_t h_ = nullptr;
};

T tensor(const std::vector<double>& v, const Shape& shape, bool grad = true) {
  T t;
  EXPECT_EQ(kf_tensor_from_data(v.data(), shape.data(), static_cast<int32_t>(shape.size()),
                                KF_FLOAT64, kf_device_cpu(), t.put()),
            KF_OK)
      << kf_last_error_message();
  if (grad) {
    EXPECT_EQ(kf_tensor_set_requires_grad(t.get(), true), KF_OK);
  }
  return t;
}

std::vector<double> values(kf_tensor_t t) {
  int64_t n = 0;
  EXPECT_EQ(kf_tensor_numel(t, &n), KF_OK);
  std::vector<double> out(static_cast<size_t>(n));
  T c;
  EXPECT_EQ(kf_to_dtype(t, KF_FLOAT64, c.put()), KF_OK) << kf_last_error_message();
  EXPECT_EQ(kf_tensor_copy_to_host(c.get(), out.data(), out.size() * sizeof(double)), KF_OK);
  return out;
}

using Fn = std::function<kf_status_t(const std::vector<kf_tensor_t>&, kf_tensor_t*)>;

/// sum(f(inputs) * w) for fixed weights w, so that every output element matters.
double weighted(const Fn& f, const std::vector<kf_tensor_t>& in, std::vector<double>* w) {
  T y;
  EXPECT_EQ(f(in, y.put()), KF_OK) << kf_last_error_message();
  const std::vector<double> v = values(y.get());
  if (w->empty()) {
    for (size_t i = 0; i < v.size(); ++i) w->push_back(0.5 + 0.25 * static_cast<double>(i % 5));
  }
  double s = 0;
  for (size_t i = 0; i < v.size(); ++i) s += v[i] * (*w)[i];
  return s;
}

/// Whether the CPU backend has float64 LAPACK kernels (a build without them: KF_CPU_LAPACK=OFF,
/// or Windows without the OpenBLAS wheel): the linalg cases skip where it has not.
bool cpu_has_lapack() {
  kf_op_t op{};
  kf_kernel_info_t k{};
  k.struct_size = sizeof k;
  if (kf_op_find("linalg_svd", &op) != KF_OK || kf_op_kernel_info(op, 0, &k) != KF_OK) return false;
  return k.kind == KF_KERNEL_BACKEND && (k.dtype_mask >> KF_FLOAT64 & 1u) != 0;
}

#define REQUIRE_LAPACK() \
  if (!cpu_has_lapack()) GTEST_SKIP() << "the CPU backend has no LAPACK in this build"

// The build's word (KF_TEST_CPU_LAPACK: backends/cpu found LAPACK, or the Windows build got the
// OpenBLAS wheel) against the loaded plugin's kernels: without this, a build that lost them
// would only skip the linalg cases here and in the conformance suite.
TEST(AbiAutograd, CpuBackendHasLapackKernelsWhenTheBuildHasLapack) {
  EXPECT_EQ(cpu_has_lapack(), KF_TEST_CPU_LAPACK == 1)
      << "KF_TEST_CPU_LAPACK=" << KF_TEST_CPU_LAPACK << " (backends/cpu/CMakeLists.txt)";
}

struct Case {
  const char* name;
  std::vector<std::pair<std::vector<double>, Shape>> inputs;
  Fn f;
};

/// The gradients backward gives against central differences of the weighted sum.
void gradcheck(const Case& c) {
  SCOPED_TRACE(c.name);
  std::vector<T> in;
  std::vector<kf_tensor_t> h;
  for (const auto& [v, s] : c.inputs) {
    in.push_back(tensor(v, s));
    h.push_back(in.back().get());
  }
  std::vector<double> w;
  T y;
  ASSERT_EQ(c.f(h, y.put()), KF_OK) << kf_last_error_message();
  weighted(c.f, h, &w);
  int64_t n = 0;
  ASSERT_EQ(kf_tensor_numel(y.get(), &n), KF_OK);

  const int64_t* sp = nullptr;
  int32_t nd = 0;
  ASSERT_EQ(kf_tensor_ndim(y.get(), &nd), KF_OK);
  ASSERT_EQ(kf_tensor_shape(y.get(), &sp), KF_OK);
  T go = tensor(w, Shape(sp, sp + nd), false);
  kf_tensor_t seed = go.get();
  ASSERT_EQ(kf_backward(y.put(), &seed, 1, false, false), KF_OK) << kf_last_error_message();
  for (size_t i = 0; i < in.size(); ++i) {
    T g;
    ASSERT_EQ(kf_tensor_grad(h[i], g.put()), KF_OK);
    ASSERT_NE(g.get(), nullptr) << "input " << i << " got no gradient";
    const std::vector<double> analytic = values(g.get());
    const auto& [v, s] = c.inputs[i];
    for (size_t j = 0; j < v.size(); ++j) {
      const double eps = 1e-6;
      std::vector<double> up = v, down = v;
      up[j] += eps;
      down[j] -= eps;
      std::vector<T> a, b;
      std::vector<kf_tensor_t> ha = h, hb = h;
      a.push_back(tensor(up, s, false));
      b.push_back(tensor(down, s, false));
      ha[i] = a.back().get();
      hb[i] = b.back().get();
      const double numeric = (weighted(c.f, ha, &w) - weighted(c.f, hb, &w)) / (2 * eps);
      EXPECT_NEAR(analytic[j], numeric, 1e-5 * (1 + std::fabs(numeric)))
          << "input " << i << " element " << j;
    }
  }
}

// The inputs the cases below share.
struct Inputs {
  std::vector<double> a = {0.3, -0.7, 1.2, 0.9, -1.5, 0.4};
  std::vector<double> b = {1.1, 0.6, -0.8, 0.5, 1.4, -0.2};
  std::vector<double> p = {0.3, 0.7, 1.2, 0.9, 1.5, 0.4};  // positive
  std::vector<double> u = {0.3, -0.7, 0.2, 0.9, -0.5, 0.4};  // in (-1, 1)
  Shape s23 = {2, 3}, s32 = {3, 2}, s3 = {3};
};

TEST(AbiAutograd, GradientsMatchFiniteDifferencesElementwise) {
  const Inputs in;
  [[maybe_unused]] const auto& [a, b, p, u, s23, s32, s3] = in;
  const std::vector<Case> cases = {
      {"add alpha broadcast", {{a, s23}, {{0.1, 0.2, 0.3}, s3}},
       [](auto& x, kf_tensor_t* o) { return kf_add(x[0], x[1], kf_scalar_f64(2.5), o); }},
      {"sub", {{a, s23}, {b, s23}},
       [](auto& x, kf_tensor_t* o) { return kf_sub(x[0], x[1], kf_scalar_f64(0.5), o); }},
      {"mul", {{a, s23}, {b, s23}}, [](auto& x, kf_tensor_t* o) { return kf_mul(x[0], x[1], o); }},
      {"div", {{a, s23}, {b, s23}}, [](auto& x, kf_tensor_t* o) { return kf_div(x[0], x[1], o); }},
      {"pow", {{p, s23}, {b, s23}}, [](auto& x, kf_tensor_t* o) { return kf_pow(x[0], x[1], o); }},
      {"maximum", {{a, s23}, {b, s23}},
       [](auto& x, kf_tensor_t* o) { return kf_maximum(x[0], x[1], o); }},
      {"atan2", {{a, s23}, {b, s23}},
       [](auto& x, kf_tensor_t* o) { return kf_atan2(x[0], x[1], o); }},
      {"hypot", {{a, s23}, {b, s23}},
       [](auto& x, kf_tensor_t* o) { return kf_hypot(x[0], x[1], o); }},
      {"logaddexp", {{a, s23}, {b, s23}},
       [](auto& x, kf_tensor_t* o) { return kf_logaddexp(x[0], x[1], o); }},
      {"exp", {{a, s23}}, [](auto& x, kf_tensor_t* o) { return kf_exp(x[0], o); }},
      {"log", {{p, s23}}, [](auto& x, kf_tensor_t* o) { return kf_log(x[0], o); }},
      {"sqrt", {{p, s23}}, [](auto& x, kf_tensor_t* o) { return kf_sqrt(x[0], o); }},
      {"rsqrt", {{p, s23}}, [](auto& x, kf_tensor_t* o) { return kf_rsqrt(x[0], o); }},
      {"sigmoid", {{a, s23}}, [](auto& x, kf_tensor_t* o) { return kf_sigmoid(x[0], o); }},
      {"tanh", {{a, s23}}, [](auto& x, kf_tensor_t* o) { return kf_tanh(x[0], o); }},
  };
  for (const Case& c : cases) gradcheck(c);
}

TEST(AbiAutograd, GradientsMatchFiniteDifferencesUnaryAndReductions) {
  const Inputs in;
  [[maybe_unused]] const auto& [a, b, p, u, s23, s32, s3] = in;
  const std::vector<Case> cases = {
      {"sin", {{a, s23}}, [](auto& x, kf_tensor_t* o) { return kf_sin(x[0], o); }},
      {"cos", {{a, s23}}, [](auto& x, kf_tensor_t* o) { return kf_cos(x[0], o); }},
      {"tan", {{u, s23}}, [](auto& x, kf_tensor_t* o) { return kf_tan(x[0], o); }},
      {"asin", {{u, s23}}, [](auto& x, kf_tensor_t* o) { return kf_asin(x[0], o); }},
      {"atanh", {{u, s23}}, [](auto& x, kf_tensor_t* o) { return kf_atanh(x[0], o); }},
      {"erf", {{a, s23}}, [](auto& x, kf_tensor_t* o) { return kf_erf(x[0], o); }},
      {"gelu", {{a, s23}}, [](auto& x, kf_tensor_t* o) { return kf_gelu(x[0], false, o); }},
      {"gelu tanh", {{a, s23}}, [](auto& x, kf_tensor_t* o) { return kf_gelu(x[0], true, o); }},
      {"silu", {{a, s23}}, [](auto& x, kf_tensor_t* o) { return kf_silu(x[0], o); }},
      {"relu", {{a, s23}}, [](auto& x, kf_tensor_t* o) { return kf_relu(x[0], o); }},
      {"log1p", {{p, s23}}, [](auto& x, kf_tensor_t* o) { return kf_log1p(x[0], o); }},
      {"sum dim", {{a, s23}}, [](auto& x, kf_tensor_t* o) {
         const int64_t d[] = {1};
         return kf_sum(x[0], d, 1, false, KF_DTYPE_UNDEFINED, o);
       }},
      {"mean all", {{a, s23}}, [](auto& x, kf_tensor_t* o) {
         return kf_mean(x[0], nullptr, 0, false, KF_DTYPE_UNDEFINED, o);
       }},
  };
  for (const Case& c : cases) gradcheck(c);
}

TEST(AbiAutograd, GradientsMatchFiniteDifferencesViewsLinalgAndMasks) {
  const Inputs in;
  [[maybe_unused]] const auto& [a, b, p, u, s23, s32, s3] = in;
  const std::vector<Case> cases = {
      {"var dim keepdim", {{a, s23}}, [](auto& x, kf_tensor_t* o) {
         const int64_t d[] = {0};
         return kf_var(x[0], d, 1, nullptr, true, o);
       }},
      {"amax", {{a, s23}}, [](auto& x, kf_tensor_t* o) {
         const int64_t d[] = {1};
         return kf_amax(x[0], d, 1, false, o);
       }},
      {"softmax", {{a, s23}}, [](auto& x, kf_tensor_t* o) {
         return kf_softmax(x[0], 1, KF_DTYPE_UNDEFINED, o);
       }},
      {"log_softmax", {{a, s23}}, [](auto& x, kf_tensor_t* o) {
         return kf_log_softmax(x[0], 0, KF_DTYPE_UNDEFINED, o);
       }},
      {"logsumexp", {{a, s23}}, [](auto& x, kf_tensor_t* o) {
         const int64_t d[] = {1};
         return kf_logsumexp(x[0], d, 1, false, o);
       }},
      {"cumsum", {{a, s23}}, [](auto& x, kf_tensor_t* o) {
         return kf_cumsum(x[0], 1, KF_DTYPE_UNDEFINED, o);
       }},
      {"matmul (mm)", {{a, s23}, {b, s32}},
       [](auto& x, kf_tensor_t* o) { return kf_matmul(x[0], x[1], o); }},
      {"transpose then reshape", {{a, s23}}, [](auto& x, kf_tensor_t* o) {
         T t;
         if (kf_status_t st = kf_transpose(x[0], 0, 1, t.put()); st != KF_OK) return st;
         const int64_t shape[] = {6};
         return kf_reshape(t.get(), shape, 1, o);
       }},
      {"slice step 2", {{a, s23}}, [](auto& x, kf_tensor_t* o) {
         const int64_t start = 0;
         return kf_slice(x[0], 1, &start, nullptr, 2, o);
       }},
      {"select", {{a, s23}}, [](auto& x, kf_tensor_t* o) { return kf_select(x[0], 1, -1, o); }},
      {"expand", {{{0.1, 0.2, 0.3}, {1, 3}}}, [](auto& x, kf_tensor_t* o) {
         const int64_t shape[] = {4, 3};
         return kf_expand(x[0], shape, 2, o);
       }},
      {"clamp", {{a, s23}}, [](auto& x, kf_tensor_t* o) {
         const kf_scalar_t lo = kf_scalar_f64(-0.5), hi = kf_scalar_f64(1.0);
         return kf_clamp(x[0], &lo, &hi, o);
       }},
      {"where", {{a, s23}, {b, s23}}, [](auto& x, kf_tensor_t* o) {
         T c;
         if (kf_status_t st = kf_gt(x[0], x[1], c.put()); st != KF_OK) return st;
         return kf_where(c.get(), x[0], x[1], o);
       }},
  };
  for (const Case& c : cases) gradcheck(c);
}

TEST(AbiAutograd, BackwardOptionsAndErrors) {
  T x = tensor({1.0, 2.0, 3.0}, {3});
  T y, s;
  ASSERT_EQ(kf_mul(x.get(), x.get(), y.put()), KF_OK);
  // A gradient is made implicitly only for one element.
  EXPECT_TRUE(fails_with(kf_backward(y.put(), nullptr, 1, false, false), {KF_INVALID_ARGUMENT},
                         {{"one-element", "grad_output"}, {}}));
  ASSERT_EQ(kf_sum(y.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, s.put()), KF_OK);
  ASSERT_EQ(kf_backward(s.put(), nullptr, 1, true, false), KF_OK) << kf_last_error_message();
  ASSERT_EQ(kf_backward(s.put(), nullptr, 1, false, false), KF_OK) << kf_last_error_message();
  T g;
  ASSERT_EQ(kf_tensor_grad(x.get(), g.put()), KF_OK);
  EXPECT_EQ(values(g.get()), (std::vector<double>{4, 8, 12}));  // accumulated twice
  EXPECT_TRUE(fails_with(kf_backward(s.put(), nullptr, 1, false, false),
                         {KF_FAILED_PRECONDITION}, {{"second time", "retain_graph", "mul"}, {}}));
  // A tensor that does not require grad.
  T c = tensor({1.0}, {1}, false);
  EXPECT_TRUE(fails_with(kf_backward(c.put(), nullptr, 1, false, false), {KF_INVALID_ARGUMENT},
                         {{"does not require grad"}, {}}));
  // Integers cannot require grad; a non-leaf cannot be marked.
  T i;
  const int64_t shape[] = {2};
  ASSERT_EQ(kf_zeros(shape, 1, KF_INT64, kf_device_cpu(), i.put()), KF_OK);
  EXPECT_TRUE(fails_with(kf_tensor_set_requires_grad(i.get(), true), {KF_INVALID_ARGUMENT},
                         {{"floating-point and complex", "int64"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_set_requires_grad(y.get(), false), {KF_INVALID_ARGUMENT},
                         {{"not a leaf", "mul"}, {}}));
}

TEST(AbiAutograd, AnInPlaceChangeToASavedTensorIsCaught) {
  T x = tensor({1.0, 2.0}, {2});
  T y, z, s;
  ASSERT_EQ(kf_exp(x.get(), y.put()), KF_OK);          // saves its result
  ASSERT_EQ(kf_mul(y.get(), y.get(), z.put()), KF_OK);  // saves y
  ASSERT_EQ(kf_sum(z.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, s.put()), KF_OK);
  ASSERT_EQ(kf_add_(y.get(), y.get(), kf_scalar_i64(1)), KF_OK);  // y is not a leaf
  EXPECT_TRUE(fails_with(kf_backward(s.put(), nullptr, 1, false, false),
                         {KF_FAILED_PRECONDITION}, {{"modified by an in-place op", "mul"}, {}}));
  // A leaf that requires grad cannot be written in place.
  EXPECT_TRUE(fails_with(kf_add_(x.get(), x.get(), kf_scalar_i64(1)), {KF_INVALID_ARGUMENT},
                         {{"leaf", "in place", "add"}, {}}));
}

// An in-place op on a view of a tensor in the graph rebases the base's history (Note [In-place
// ops on views]): the gradient through the base, through the view and into the op's other
// argument, for a row of a product and for a column of a slice of a transpose.
TEST(AbiAutograd, InPlaceWritesOfViewsMatchFiniteDifferences) {
  const Inputs in;
  const std::vector<Case> cases = {
      {"mul_ of a row", {{in.a, in.s23}, {{0.4, -1.1, 0.8}, in.s3}},
       [](auto& x, kf_tensor_t* o) {
         T row;
         kf_status_t st = kf_mul(x[0], x[0], o);
         if (st == KF_OK) st = kf_select(*o, 0, 1, row.put());
         return st == KF_OK ? kf_mul_(row.get(), x[1]) : st;
       }},
      {"copy_ into a view of a view", {{in.a, in.s23}, {{0.4, -1.1}, {2}}},
       [](auto& x, kf_tensor_t* o) {
         T y, t, s, c;
         const int64_t start = 1, end = 3;
         kf_status_t st = kf_mul(x[0], x[0], y.put());
         if (st == KF_OK) st = kf_transpose(y.get(), 0, 1, t.put());
         if (st == KF_OK) st = kf_slice(t.get(), 0, &start, &end, 1, s.put());
         if (st == KF_OK) st = kf_select(s.get(), 1, 0, c.put());
         if (st == KF_OK) st = kf_copy_(c.get(), x[1]);
         return st == KF_OK ? kf_mul(y.get(), x[0], o) : st;
       }},
  };
  for (const Case& c : cases) gradcheck(c);
}

TEST(AbiAutograd, AViewWriteGivesTheBaseANewHistoryAndALeafRefusesIt) {
  T x = tensor({1.0, 2.0, 3.0}, {3});
  T y, v;
  ASSERT_EQ(kf_mul(x.get(), x.get(), y.put()), KF_OK);
  ASSERT_EQ(kf_select(y.get(), 0, 1, v.put()), KF_OK);
  ASSERT_EQ(kf_mul_(v.get(), v.get()), KF_OK) << kf_last_error_message();
  const char* name = nullptr;
  ASSERT_EQ(kf_tensor_grad_fn_name(y.get(), &name), KF_OK);
  EXPECT_STREQ(name, "CopySlices");
  T leaf_row;
  ASSERT_EQ(kf_select(x.get(), 0, 0, leaf_row.put()), KF_OK);
  EXPECT_TRUE(fails_with(kf_add_(leaf_row.get(), leaf_row.get(), kf_scalar_i64(1)),
                         {KF_INVALID_ARGUMENT}, {{"view of a leaf", "in place", "add"}, {}}));
}

TEST(AbiAutograd, NoGradRecordsNothingAndGradLeavesDotGradAlone) {
  T x = tensor({0.5, -1.0}, {2});
  bool previous = false;
  ASSERT_EQ(kf_set_grad_enabled(false, &previous), KF_OK);
  EXPECT_TRUE(previous);
  T y;
  ASSERT_EQ(kf_exp(x.get(), y.put()), KF_OK);
  bool rg = true, on = true;
  ASSERT_EQ(kf_tensor_requires_grad(y.get(), &rg), KF_OK);
  EXPECT_FALSE(rg);
  ASSERT_EQ(kf_is_grad_enabled(&on), KF_OK);
  EXPECT_FALSE(on);
  ASSERT_EQ(kf_set_grad_enabled(true, nullptr), KF_OK);

  T w = tensor({2.0, 3.0}, {2});
  T p, s;
  ASSERT_EQ(kf_mul(x.get(), w.get(), p.put()), KF_OK);
  ASSERT_EQ(kf_sum(p.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, s.put()), KF_OK);
  kf_tensor_t in[] = {x.get(), w.get()};
  kf_tensor_t out[2] = {nullptr, nullptr};
  ASSERT_EQ(kf_autograd_grad(s.put(), nullptr, 1, in, 2, false, false, false, out), KF_OK)
      << kf_last_error_message();
  T gx(out[0]), gw(out[1]);
  EXPECT_EQ(values(gx.get()), (std::vector<double>{2.0, 3.0}));
  EXPECT_EQ(values(gw.get()), (std::vector<double>{0.5, -1.0}));
  T none;
  ASSERT_EQ(kf_tensor_grad(x.get(), none.put()), KF_OK);
  EXPECT_EQ(none.get(), nullptr) << "grad() must not touch .grad";
}

TEST(AbiAutograd, AnOpWithoutAComplexFormulaIsAClearError) {
  T x = tensor({1.0, 2.0, 3.0, 4.0}, {2, 2});
  T z, y;
  ASSERT_EQ(kf_to_dtype(x.get(), KF_COMPLEX128, z.put()), KF_OK) << kf_last_error_message();
  EXPECT_TRUE(fails_with(kf_sign(z.get(), y.put()),  // sign's formula is `real_only`
                         {KF_UNIMPLEMENTED}, {{"sign", "complex gradient", "no_grad"}, {}}));
}

// A complex leaf gets dL/d(Re z) + i dL/d(Im z) of a real loss; a formula written for real
// dtypes refuses a complex input, naming the op.
TEST(AbiAutograd, AComplexLeafGetsTheConjugateWirtingerGradient) {
  const double parts[] = {1.0, 2.0, -0.5, 0.25};  // 1 + 2i, -0.5 + 0.25i
  const int64_t shape[] = {2};
  T z, a, sq, s, g;
  ASSERT_EQ(kf_tensor_from_data(parts, shape, 1, KF_COMPLEX128, kf_device_cpu(), z.put()), KF_OK);
  ASSERT_EQ(kf_tensor_set_requires_grad(z.get(), true), KF_OK) << kf_last_error_message();
  ASSERT_EQ(kf_abs(z.get(), a.put()), KF_OK);
  ASSERT_EQ(kf_mul(a.get(), a.get(), sq.put()), KF_OK);  // |z|^2: the gradient is 2 z
  ASSERT_EQ(kf_sum(sq.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, s.put()), KF_OK);
  ASSERT_EQ(kf_backward(s.put(), nullptr, 1, false, false), KF_OK) << kf_last_error_message();
  ASSERT_EQ(kf_tensor_grad(z.get(), g.put()), KF_OK);
  std::vector<double> got(4);
  ASSERT_EQ(kf_tensor_copy_to_host(g.get(), got.data(), got.size() * sizeof(double)), KF_OK);
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], 2 * parts[i], 1e-12) << i;
  T sg;
  EXPECT_TRUE(fails_with(kf_sign(z.get(), sg.put()), {KF_UNIMPLEMENTED},
                         {{"'sign'", "complex", "no_grad"}, {}}));
}

TEST(AbiAutograd, DoubleBackwardThroughCreateGraph) {
  T x = tensor({0.5, 2.0}, {2});
  T y, s;
  ASSERT_EQ(kf_mul(x.get(), x.get(), y.put()), KF_OK);
  T y3;
  ASSERT_EQ(kf_mul(y.get(), x.get(), y3.put()), KF_OK);  // x^3
  ASSERT_EQ(kf_sum(y3.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, s.put()), KF_OK);
  kf_tensor_t in[] = {x.get()};
  kf_tensor_t g1 = nullptr;
  ASSERT_EQ(kf_autograd_grad(s.put(), nullptr, 1, in, 1, false, true, false, &g1), KF_OK)
      << kf_last_error_message();
  T d1(g1), s1;
  EXPECT_EQ(values(d1.get()), (std::vector<double>{0.75, 12.0}));  // 3x^2
  ASSERT_EQ(kf_sum(d1.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, s1.put()), KF_OK);
  kf_tensor_t g2 = nullptr;
  ASSERT_EQ(kf_autograd_grad(s1.put(), nullptr, 1, in, 1, false, false, false, &g2), KF_OK)
      << kf_last_error_message();
  T d2(g2);
  EXPECT_EQ(values(d2.get()), (std::vector<double>{3.0, 12.0}));  // 6x
}

// Ops with several outputs: every floating-point output the formulas differentiate points at
// the node (as its output k), a gradient may start from any of them, and one that got no
// gradient reaches the formula as zeros or as None.
TEST(AbiAutograd, EveryDifferentiableOutputOfAMultiOutputOpHasAGradFn) {
  REQUIRE_LAPACK();
  const std::vector<double> spd = {4.0, 1.0, 0.5, 1.0, 3.0, -0.2, 0.5, -0.2, 2.0};
  T x = tensor(spd, {3, 3});
  T sign, logabs, values_, vectors;
  ASSERT_EQ(kf_linalg_slogdet(x.get(), sign.put(), logabs.put()), KF_OK);
  bool rg = true;
  ASSERT_EQ(kf_tensor_requires_grad(sign.get(), &rg), KF_OK);
  EXPECT_FALSE(rg) << "slogdet's sign is not differentiable";
  const char* name = nullptr;
  ASSERT_EQ(kf_tensor_grad_fn_name(logabs.get(), &name), KF_OK);
  EXPECT_STREQ(name, "linalg_slogdet");
  ASSERT_EQ(kf_linalg_eigh(x.get(), values_.put(), vectors.put()), KF_OK);
  for (kf_tensor_t t : {values_.get(), vectors.get()}) {
    ASSERT_EQ(kf_tensor_grad_fn_name(t, &name), KF_OK);
    EXPECT_STREQ(name, "linalg_eigh");
  }
  // d sum(S^2) / dS through grad() at output 1 of svd: 2 S.
  T u, s, vh, s2, total;
  ASSERT_EQ(kf_linalg_svd(x.get(), false, u.put(), s.put(), vh.put()), KF_OK);
  ASSERT_EQ(kf_mul(s.get(), s.get(), s2.put()), KF_OK);
  ASSERT_EQ(kf_sum(s2.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, total.put()), KF_OK);
  kf_tensor_t in[] = {s.get()};
  kf_tensor_t g = nullptr;
  ASSERT_EQ(kf_autograd_grad(total.put(), nullptr, 1, in, 1, false, false, false, &g), KF_OK)
      << kf_last_error_message();
  T gs(g);
  const std::vector<double> sv = values(s.get()), got = values(gs.get());
  for (size_t i = 0; i < sv.size(); ++i) EXPECT_NEAR(got[i], 2 * sv[i], 1e-12);
}

TEST(AbiAutograd, MultiOutputGradientsMatchFiniteDifferences) {
  REQUIRE_LAPACK();
  const std::vector<double> spd = {4.0, 1.0, 0.5, 1.0, 3.0, -0.2, 0.5, -0.2, 2.0};
  const std::vector<double> tall = {1.0, 0.2, 0.3, -1.2, 0.7, 0.4, -0.5, 0.9};
  const std::vector<Case> cases = {
      // eigenvalues + squared eigenvectors (free of the vectors' signs)
      {"linalg_eigh", {{spd, {3, 3}}}, [](auto& x, kf_tensor_t* o) {
         T l, v, vv, lu;
         kf_status_t st = kf_linalg_eigh(x[0], l.put(), v.put());
         if (st == KF_OK) st = kf_mul(v.get(), v.get(), vv.put());
         if (st == KF_OK) st = kf_unsqueeze(l.get(), -2, lu.put());
         return st == KF_OK ? kf_add(vv.get(), lu.get(), kf_scalar_i64(1), o) : st;
       }},
      // the singular values alone: U's and Vh's gradients never arrive
      {"linalg_svd S", {{tall, {4, 2}}}, [](auto& x, kf_tensor_t* o) {
         T u, vh;
         return kf_linalg_svd(x[0], false, u.put(), o, vh.put());
       }},
      {"linalg_qr R", {{tall, {4, 2}}}, [](auto& x, kf_tensor_t* o) {
         T q;
         return kf_linalg_qr(x[0], false, q.put(), o);
       }},
  };
  for (const Case& c : cases) gradcheck(c);
}

TEST(AbiAutograd, UndeterminedSingularVectorsAreAClearError) {
  REQUIRE_LAPACK();
  T x = tensor({1.0, 0.2, 0.3, -1.2, 0.7, 0.4}, {3, 2});
  T u, s, vh, total;
  ASSERT_EQ(kf_linalg_svd(x.get(), true, u.put(), s.put(), vh.put()), KF_OK);
  ASSERT_EQ(kf_sum(u.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, total.put()), KF_OK);
  EXPECT_TRUE(fails_with(kf_backward(total.put(), nullptr, 1, false, false), {KF_UNIMPLEMENTED},
                         {{"linalg_svd", "full_matrices=False"}, {}}));
}

}  // namespace
}  // namespace kfabi
