// Ops plugins define with a backward (plugin ABI 2.1), through the C ABI on real plugins:
// toy::scale (examples/toy_device, a backward formula that calls toy::scale again) against
// finite differences and in a training loop; the C plugins of gradplug_plugin.c: gradc::cube's
// backward callback (with a gradient of the gradient, and the version check of what it saved),
// gradc::refuse's callback failing the backward with its message,
// gradc::mix's formulas for two tensors,
// gradc::plain without a backward refused under grad; gradbad, whose formula is wrong, refused
// with the place of the mistake while the process goes on; gradold, a plugin of ABI 2.0, loads.
#include "dispatch_util.hpp"

namespace dispatch_test {
namespace {

std::string grad_manifest(const char* name) {
  return std::string(KF_GRAD_PLUGIN_DIR) + "/" + name + ".json";
}

// The plugins, each loaded once per process; gradbad's load is expected to fail.
struct GradPlugins {
  kf_status_t toy = KF_INTERNAL, gradc = KF_INTERNAL, gradold = KF_INTERNAL;
  kf_status_t gradbad = KF_OK;
  std::string message, gradbad_message;
};

const GradPlugins& grad_plugins() {
  static const GradPlugins p = [] {
    GradPlugins g;
    g.toy = kf_load_plugin(KF_TOY_MANIFEST);
    if (g.toy != KF_OK) g.message += "toy: " + last_error() + " ";
    g.gradc = kf_load_plugin(grad_manifest("gradc").c_str());
    if (g.gradc != KF_OK) g.message += "gradc: " + last_error() + " ";
    g.gradold = kf_load_plugin(grad_manifest("gradold").c_str());
    if (g.gradold != KF_OK) g.message += "gradold: " + last_error();
    g.gradbad = kf_load_plugin(grad_manifest("gradbad").c_str());
    g.gradbad_message = last_error();
    return g;
  }();
  return p;
}

class PluginGrad : public ::testing::Test {
 protected:
  void SetUp() override {
    const GradPlugins& p = grad_plugins();
    ASSERT_EQ(p.toy, KF_OK) << p.message;
    ASSERT_EQ(p.gradc, KF_OK) << p.message;
    ASSERT_EQ(p.gradold, KF_OK) << p.message;
  }
  static kf_device_t device(const char* name) {
    kf_device_t d{};
    EXPECT_EQ(kf_device_parse(name, &d), KF_OK) << last_error();
    return d;
  }
};

/// op(args) through kf_op_call; the status, the result in `out`.
kf_status_t call(const char* name, std::vector<kf_value_t> args, T& out) {
  kf_op_t op = nullptr;
  if (kf_op_find(name, &op) != KF_OK) return KF_NOT_FOUND;
  kf_value_t result = kf_value_none();
  const kf_status_t s = kf_op_call(op, args.data(), static_cast<int32_t>(args.size()), &result, 1);
  out.h = s == KF_OK ? result.v.tensor : nullptr;
  return s;
}

void leaf(T& t, const std::vector<float>& v, kf_device_t d) {
  make<float>(t, v, {static_cast<int64_t>(v.size())}, KF_FLOAT32, d);
  ASSERT_EQ(kf_tensor_set_requires_grad(t, true), KF_OK) << last_error();
}

std::vector<float> grad_of(kf_tensor_t t) {
  T g;
  EXPECT_EQ(kf_tensor_grad(t, g.out()), KF_OK) << last_error();
  if (g.h == nullptr) return {};
  return host<float>(g);
}

// sum((toy::scale(x, factor) - target)^2), a one-element tensor.
kf_status_t toy_loss(kf_tensor_t x, double factor, kf_tensor_t target, T& loss) {
  T y, d, sq;
  kf_status_t s = call("toy::scale", {kf_value_tensor(x), kf_value_float(factor)}, y);
  if (s == KF_OK) s = call("sub", {kf_value_tensor(y), kf_value_tensor(target)}, d);
  if (s == KF_OK) s = call("mul", {kf_value_tensor(d), kf_value_tensor(d)}, sq);
  if (s == KF_OK) s = call("sum", {kf_value_tensor(sq)}, loss);
  return s;
}

float item(kf_tensor_t t) { return host<float>(t).at(0); }

TEST_F(PluginGrad, ToyScaleGradientMatchesFiniteDifferences) {
  const kf_device_t toy = device("toy");
  const std::vector<float> x0{0.5f, -1.25f, 2.0f, 0.75f};
  T x, target, loss;
  leaf(x, x0, toy);
  make<float>(target, {1, 2, -1, 0.5f}, {4}, KF_FLOAT32, toy);
  ASSERT_EQ(toy_loss(x, 1.5, target, loss), KF_OK) << last_error();
  const char* fn = nullptr;
  ASSERT_EQ(kf_tensor_grad_fn_name(loss, &fn), KF_OK);
  ASSERT_EQ(kf_backward(&loss.h, nullptr, 1, false, false), KF_OK) << last_error();
  const std::vector<float> g = grad_of(x);
  ASSERT_EQ(g.size(), x0.size());
  const float eps = 1e-2f;
  for (size_t i = 0; i < x0.size(); ++i) {
    float at[2];
    for (int side = 0; side < 2; ++side) {
      std::vector<float> xs = x0;
      xs[i] += side == 0 ? eps : -eps;
      T xp, lp;
      make<float>(xp, xs, {4}, KF_FLOAT32, toy);
      ASSERT_EQ(toy_loss(xp, 1.5, target, lp), KF_OK) << last_error();
      at[side] = item(lp);
    }
    const float numeric = (at[0] - at[1]) / (2 * eps);
    EXPECT_NEAR(g[i], numeric, 1e-2f * (1 + std::fabs(numeric))) << "element " << i;
  }
}

TEST_F(PluginGrad, APluginOpWithABackwardTrains) {
  const kf_device_t toy = device("toy");
  T target;
  make<float>(target, {3, -1.5f, 0.75f, 6}, {4}, KF_FLOAT32, toy);
  std::vector<float> w{0, 0, 0, 0};
  float first = 0, last = 0;
  for (int step = 0; step < 40; ++step) {
    T x, loss;
    leaf(x, w, toy);
    ASSERT_EQ(toy_loss(x, 3.0, target, loss), KF_OK) << last_error();
    last = item(loss);
    if (step == 0) first = last;
    ASSERT_EQ(kf_backward(&loss.h, nullptr, 1, false, false), KF_OK) << last_error();
    const std::vector<float> g = grad_of(x);
    ASSERT_EQ(g.size(), w.size());
    for (size_t i = 0; i < w.size(); ++i) w[i] -= 0.02f * g[i];  // SGD
  }
  EXPECT_GT(first, 10.f);
  EXPECT_LT(last, first * 1e-3f) << "the loss went from " << first << " to " << last;
  EXPECT_NEAR(w[3], 2.f, 1e-2f);  // 3 w = target
}

TEST_F(PluginGrad, ABackwardCallbackGivesTheGradientAndItsGradient) {
  const kf_device_t gradc = device("gradc");
  T x, y, g, s;
  leaf(x, {1, -2, 0.5f}, gradc);
  ASSERT_EQ(call("gradc::cube", {kf_value_tensor(x)}, y), KF_OK) << last_error();
  const char* fn = nullptr;
  ASSERT_EQ(kf_tensor_grad_fn_name(y, &fn), KF_OK);
  EXPECT_STREQ(fn, "gradc::cube");
  T ones;
  make<float>(ones, {1, 1, 1}, {3}, KF_FLOAT32, gradc);
  ASSERT_EQ(kf_autograd_grad(&y.h, &ones.h, 1, &x.h, 1, false, true, false, g.out()), KF_OK)
      << last_error();
  EXPECT_EQ(host<float>(g), (std::vector<float>{3, 12, 0.75f}));  // 3 x^2
  ASSERT_EQ(call("sum", {kf_value_tensor(g)}, s), KF_OK) << last_error();
  ASSERT_EQ(kf_backward(&s.h, nullptr, 1, false, false), KF_OK) << last_error();
  EXPECT_EQ(grad_of(x), (std::vector<float>{6, -12, 3}));  // 6 x, through the host's op calls
}

TEST_F(PluginGrad, ACallbackThatFailsFailsTheBackwardNamingTheOp) {
  const kf_device_t gradc = device("gradc");
  T x, y, s;
  leaf(x, {1, 2}, gradc);
  ASSERT_EQ(call("gradc::refuse", {kf_value_tensor(x)}, y), KF_OK) << last_error();
  ASSERT_EQ(call("sum", {kf_value_tensor(y)}, s), KF_OK) << last_error();
  EXPECT_EQ(kf_backward(&s.h, nullptr, 1, false, false), KF_UNIMPLEMENTED);
  EXPECT_HAS(last_error(), "the backward callback of 'gradc::refuse' (gradc: ");
  EXPECT_HAS(last_error(), "failed: gradc::refuse: this backward always fails (a test)");
  T z, s2;  // the process and autograd go on
  ASSERT_EQ(call("gradc::cube", {kf_value_tensor(x)}, z), KF_OK) << last_error();
  ASSERT_EQ(call("sum", {kf_value_tensor(z)}, s2), KF_OK) << last_error();
  EXPECT_EQ(kf_backward(&s2.h, nullptr, 1, false, false), KF_OK) << last_error();
}

TEST_F(PluginGrad, AnInputChangedInPlaceSinceTheCallIsRefusedAtBackward) {
  const kf_device_t gradc = device("gradc");
  T x, a, y, written, s;
  leaf(x, {1, 2}, gradc);
  ASSERT_EQ(call("mul", {kf_value_tensor(x), kf_value_tensor(x)}, a), KF_OK) << last_error();
  ASSERT_EQ(call("gradc::cube", {kf_value_tensor(a)}, y), KF_OK) << last_error();
  ASSERT_EQ(call("fill_", {kf_value_tensor(a), kf_value_scalar(kf_scalar_f64(3))}, written),
            KF_OK) << last_error();
  ASSERT_EQ(call("sum", {kf_value_tensor(y)}, s), KF_OK) << last_error();
  EXPECT_EQ(kf_backward(&s.h, nullptr, 1, false, false), KF_FAILED_PRECONDITION);
  EXPECT_HAS(last_error(), "argument 'self' of 'gradc::cube', saved for its backward, was "
                           "modified by an in-place op");
}

TEST_F(PluginGrad, FormulasGiveTheGradientOfEachTensor) {
  const kf_device_t gradc = device("gradc");
  T x, y, m, s;
  leaf(x, {1, 2}, gradc);
  leaf(y, {10, 20}, gradc);
  ASSERT_EQ(call("gradc::mix", {kf_value_tensor(x), kf_value_tensor(y), kf_value_float(0.25)}, m),
            KF_OK) << last_error();
  EXPECT_EQ(host<float>(m), (std::vector<float>{3.25f, 6.5f}));
  ASSERT_EQ(call("sum", {kf_value_tensor(m)}, s), KF_OK) << last_error();
  ASSERT_EQ(kf_backward(&s.h, nullptr, 1, false, false), KF_OK) << last_error();
  EXPECT_EQ(grad_of(x), (std::vector<float>{0.75f, 0.75f}));
  EXPECT_EQ(grad_of(y), (std::vector<float>{0.25f, 0.25f}));
}

TEST_F(PluginGrad, AnOpWithoutABackwardIsRefusedUnderGradNamingIt) {
  for (const char* name : {"gradc::plain", "gradold::twice"}) {
    const kf_device_t d = device(std::string(name).substr(0, std::string(name).find(':')).c_str());
    T x, y, detached, z;
    leaf(x, {1, 2}, d);
    EXPECT_EQ(call(name, {kf_value_tensor(x)}, y), KF_UNIMPLEMENTED) << name;
    const std::string m = last_error();
    EXPECT_HAS(m, std::string("'") + name + "' is an op a plugin defines");
    EXPECT_HAS(m, "without a backward");
    EXPECT_HAS(m, "the plugin must give its backward");
    EXPECT_HAS(m, "no_grad or on detached tensors");
    bool previous = true;  // under no_grad, and on a detached tensor, it runs
    ASSERT_EQ(kf_set_grad_enabled(false, &previous), KF_OK);
    EXPECT_EQ(call(name, {kf_value_tensor(x)}, y), KF_OK) << last_error();
    ASSERT_EQ(kf_set_grad_enabled(previous, nullptr), KF_OK);
    ASSERT_EQ(kf_tensor_detach(x, detached.out()), KF_OK);
    ASSERT_EQ(call(name, {kf_value_tensor(detached)}, z), KF_OK) << last_error();
    EXPECT_EQ(host<float>(z), (std::vector<float>{2, 4}));
  }
}

TEST_F(PluginGrad, ABadFormulaRefusesThePluginWithItsPlace) {
  const GradPlugins& p = grad_plugins();
  EXPECT_EQ(p.gradbad, KF_INVALID_ARGUMENT);
  EXPECT_HAS(p.gradbad_message, "plugin 'gradbad'");
  EXPECT_HAS(p.gradbad_message, "define_op(gradbad::scale)");
  EXPECT_HAS(p.gradbad_message, "the backward formula of 'self'");
  EXPECT_HAS(p.gradbad_message, "at column 11: unknown name 'factr'");
  kf_op_t op = nullptr;
  EXPECT_EQ(kf_op_find("gradbad::scale", &op), KF_NOT_FOUND);  // nothing of it was kept
  bool listed = false;  // kernforge doctor's list: rejected, with the reason
  for (int32_t i = 0; i < kf_backend_count(); ++i) {
    kf_backend_info_t info{};
    info.struct_size = sizeof info;
    if (kf_backend_info(i, &info) != KF_OK || std::string(info.name) != "gradbad") continue;
    listed = true;
    EXPECT_EQ(info.state, KF_BACKEND_REJECTED);
    EXPECT_HAS(info.reason, "unknown name 'factr'");
  }
  EXPECT_TRUE(listed);
}

}  // namespace
}  // namespace dispatch_test
