// CTS: the boxed op path (kf_op_find / kf_op_count / kf_op_at / kf_op_name / kf_op_schema /
// kf_op_call), compared with the typed entry points.
#include <set>

#include "cts_util.hpp"

namespace cts {
namespace {

class Boxed : public CtsTest {};  // backend only

kf_value_t vtensor(const Tensor& t) {
  kf_value_t v{};
  v.tag = KF_VALUE_TENSOR;
  v.v.tensor = t.get();
  return v;
}
kf_value_t vscalar(kf_scalar_t s) {
  kf_value_t v{};
  v.tag = KF_VALUE_SCALAR;
  v.v.scalar = s;
  return v;
}
kf_value_t vnone() {
  kf_value_t v{};
  v.tag = KF_VALUE_NONE;
  return v;
}
kf_value_t vints(const int64_t* p, int32_t n) {
  kf_value_t v{};
  v.tag = KF_VALUE_INT_LIST;
  v.v.ints.data = p;
  v.v.ints.len = n;
  return v;
}
kf_value_t vint(int64_t i) {
  kf_value_t v{};
  v.tag = KF_VALUE_INT;
  v.v.i = i;
  return v;
}
kf_value_t vbool(bool b) {
  kf_value_t v{};
  v.tag = KF_VALUE_BOOL;
  v.v.b = b;
  return v;
}
kf_value_t vdtype(kf_dtype_t d) {
  kf_value_t v{};
  v.tag = KF_VALUE_DTYPE;
  v.v.dtype = d;
  return v;
}

/** Takes ownership of a tensor result. */
Tensor take(const kf_value_t& r) {
  EXPECT_EQ(r.tag, KF_VALUE_TENSOR);
  return Tensor(r.tag == KF_VALUE_TENSOR ? r.v.tensor : nullptr);
}

TEST_P(Boxed, RegistryListsEveryOpOnce) {
  const int32_t n = kf_op_count();
  ASSERT_GT(n, 0);
  std::set<std::string> names;
  kf_op_t add_at = nullptr;
  for (int32_t i = 0; i < n; ++i) {
    kf_op_t op = nullptr;
    CTS_ASSERT_OK(kf_op_at(i, &op));
    ASSERT_NE(op, nullptr);
    const std::string name = kf_op_name(op);
    EXPECT_TRUE(names.insert(name).second) << "op listed twice: " << name;
    const std::string schema = kf_op_schema(op);
    EXPECT_EQ(schema.rfind(name + "(", 0), 0u) << "schema of " << name << ": " << schema;
    if (name == "add") add_at = op;
  }
  // The ops of the first set (ops.yaml) are all there.
  for (const char* want : {"empty", "full", "zeros", "ones", "arange", "add", "sub", "mul", "div",
                           "eq", "lt", "gt", "where", "neg", "abs", "exp", "log", "sqrt", "relu",
                           "sigmoid", "tanh", "sum", "mean", "amax", "argmax", "mm", "bmm",
                           "matmul", "linear", "copy_", "to_dtype", "contiguous", "clone",
                           "reshape", "view", "transpose", "permute", "slice", "select", "expand",
                           "squeeze", "unsqueeze", "flatten"})
    EXPECT_EQ(names.count(want), 1u) << "missing op " << want;
  kf_op_t add = nullptr;
  CTS_ASSERT_OK(kf_op_find("add", &add));
  EXPECT_EQ(add, add_at) << "kf_op_find and kf_op_at disagree on add";
  EXPECT_STREQ(kf_op_name(add), "add");
  EXPECT_STREQ(kf_op_schema(add), "add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
}

TEST_P(Boxed, CallAddMatchesTyped) {
  kf_op_t add = nullptr;
  CTS_ASSERT_OK(kf_op_find("add", &add));
  const Values a{1, 2, 3, 4, 5, 6}, bb{0.5, -1, 2};
  Tensor ta = make(a, {2, 3}, KF_FLOAT32), tb = make(bb, {3}, KF_FLOAT32);
  // With alpha.
  {
    const kf_value_t args[3] = {vtensor(ta), vtensor(tb), vscalar(kf_scalar_f64(2.0))};
    kf_value_t res[1] = {vnone()};
    CTS_ASSERT_OK(kf_op_call(add, args, 3, res, 1));
    Tensor boxed = take(res[0]), typed;
    CTS_ASSERT_OK(kf_add(ta.get(), tb.get(), kf_scalar_f64(2.0), typed.put()));
    const Values want = ref_binary(a, {2, 3}, bb, {3},
                                   [](double x, double y) { return x + 2 * y; }, nullptr);
    EXPECT_TRUE(matches(boxed, want, {2, 3}, KF_FLOAT32));
    EXPECT_TRUE(matches(boxed, to_host_double(typed), {2, 3}, KF_FLOAT32));
    EXPECT_EQ(boxed.device().type, dev().type);
  }
  // Without the defaulted alpha, and with NONE standing for it.
  const Values want1 = ref_binary(a, {2, 3}, bb, {3}, std::plus<double>(), nullptr);
  {
    const kf_value_t args[2] = {vtensor(ta), vtensor(tb)};
    kf_value_t res[1] = {vnone()};
    CTS_ASSERT_OK(kf_op_call(add, args, 2, res, 1));
    EXPECT_TRUE(matches(take(res[0]), want1, {2, 3}, KF_FLOAT32));
  }
  {
    const kf_value_t args[3] = {vtensor(ta), vtensor(tb), vnone()};
    kf_value_t res[1] = {vnone()};
    CTS_ASSERT_OK(kf_op_call(add, args, 3, res, 1));
    EXPECT_TRUE(matches(take(res[0]), want1, {2, 3}, KF_FLOAT32));
  }
}

TEST_P(Boxed, CallSumWithIntList) {
  kf_op_t sum = nullptr;
  CTS_ASSERT_OK(kf_op_find("sum", &sum));
  const Values v = iota(6, 1);
  Tensor t = make(v, {2, 3}, KF_INT32);
  const int64_t dims[1] = {-1};
  const kf_value_t args[4] = {vtensor(t), vints(dims, 1), vbool(true), vdtype(KF_FLOAT64)};
  kf_value_t res[1] = {vnone()};
  CTS_ASSERT_OK(kf_op_call(sum, args, 4, res, 1));
  EXPECT_TRUE(matches(take(res[0]), Values{6, 15}, {2, 1}, KF_FLOAT64));
  // dim=None (omitted) sums everything into int64.
  const kf_value_t args1[1] = {vtensor(t)};
  kf_value_t res1[1] = {vnone()};
  CTS_ASSERT_OK(kf_op_call(sum, args1, 1, res1, 1));
  EXPECT_TRUE(matches(take(res1[0]), Values{21}, {}, KF_INT64));
}

TEST_P(Boxed, CallViewOp) {
  kf_op_t tr = nullptr;
  CTS_ASSERT_OK(kf_op_find("transpose", &tr));
  Tensor t = make(iota(6), {2, 3}, KF_FLOAT32);
  const kf_value_t args[3] = {vtensor(t), vint(0), vint(-1)};
  kf_value_t res[1] = {vnone()};
  CTS_ASSERT_OK(kf_op_call(tr, args, 3, res, 1));
  Tensor v = take(res[0]);
  EXPECT_EQ(v.shape(), (Shape{3, 2}));
  EXPECT_EQ(v.strides(), (Shape{1, 3}));
  EXPECT_EQ(v.data(), t.data());
}

TEST_P(Boxed, CallFactoryOnDevice) {
  kf_op_t full = nullptr;
  CTS_ASSERT_OK(kf_op_find("full", &full));
  const int64_t shape[2] = {2, 2};
  kf_value_t dv{};
  dv.tag = KF_VALUE_DEVICE;
  dv.v.device = dev();
  const kf_value_t args[4] = {vints(shape, 2), vscalar(kf_scalar_i64(3)), vnone(), dv};
  kf_value_t res[1] = {vnone()};
  CTS_ASSERT_OK(kf_op_call(full, args, 4, res, 1));
  Tensor t = take(res[0]);
  EXPECT_TRUE(matches(t, Values(4, 3.0), {2, 2}, KF_INT64));
  EXPECT_EQ(t.device().type, dev().type);
}

TEST_P(Boxed, KernelInfoForThisBackend) {
  kf_op_t add = nullptr, reshape = nullptr;
  CTS_ASSERT_OK(kf_op_find("add", &add));
  CTS_ASSERT_OK(kf_op_find("reshape", &reshape));
  kf_kernel_info_t info{};
  info.struct_size = sizeof info;
  CTS_ASSERT_OK(kf_op_kernel_info(add, GetParam().backend_index, &info));
  EXPECT_TRUE(info.kind == KF_KERNEL_BACKEND || info.kind == KF_KERNEL_COMPOSITE ||
              info.kind == KF_KERNEL_FALLBACK)
      << "add must be served on " << GetParam().backend << " (kind " << info.kind << ")";
  EXPECT_NE(info.provenance, nullptr);
  kf_kernel_info_t vi{};
  vi.struct_size = sizeof vi;
  CTS_ASSERT_OK(kf_op_kernel_info(reshape, GetParam().backend_index, &vi));
  EXPECT_EQ(vi.kind, KF_KERNEL_VIEW);
}

TEST_P(Boxed, EveryListedOpAnswersItsQueries) {
  // Core ops and ops plugins defined alike: found by name, a schema that starts with the name,
  // at least one return (none for an op that writes its tensor lists, "-> ()"), a kernel
  // answer for this backend.
  for (int32_t i = 0; i < kf_op_count(); ++i) {
    kf_op_t op = nullptr;
    CTS_ASSERT_OK(kf_op_at(i, &op));
    const std::string name = kf_op_name(op);
    SCOPED_TRACE(name);
    kf_op_t found = nullptr;
    CTS_EXPECT_OK(kf_op_find(name.c_str(), &found));
    EXPECT_EQ(found, op);
    EXPECT_EQ(std::string(kf_op_schema(op)).rfind(name + "(", 0), 0u) << kf_op_schema(op);
    const bool writes_lists = std::string(kf_op_schema(op)).find("-> ()") != std::string::npos;
    EXPECT_EQ(kf_op_num_returns(op) == 0, writes_lists) << kf_op_schema(op);
    EXPECT_NE(kf_op_doc(op), nullptr);
    const size_t colons = name.find("::");
    if (colons != std::string::npos) {
      EXPECT_GT(colons, 0u) << "a defined op's namespace is empty";
      EXPECT_LT(colons + 2, name.size()) << "a defined op's name is empty";
    }
    kf_kernel_info_t info{};
    info.struct_size = sizeof info;
    CTS_EXPECT_OK(kf_op_kernel_info(op, GetParam().backend_index, &info));
    EXPECT_NE(kf_kernel_kind_name(info.kind), nullptr);
  }
}

// The ops the project's C test plugin defines (cdev, tests/dispatch): cdev::scale with its own
// meta function, cdev::axpy with the core's broadcast_binary rule. They are defined only when
// that plugin is loaded (the CTest case cts.OnTestBackends loads it); a backend without kernels
// for them must answer KF_UNIMPLEMENTED naming the op, one with kernels the right numbers.
bool serves_float32(kf_op_t op, int32_t backend_index) {
  kf_kernel_info_t info{};
  info.struct_size = sizeof info;
  EXPECT_EQ(kf_op_kernel_info(op, backend_index, &info), KF_OK) << kf_last_error_message();
  return info.kind != KF_KERNEL_NONE && (info.dtype_mask & (1u << KF_FLOAT32)) != 0;
}

TEST_P(Boxed, OpsDefinedByThePlugins) {
  kf_op_t scale = nullptr, axpy = nullptr;
  if (kf_op_find("cdev::scale", &scale) != KF_OK || kf_op_find("cdev::axpy", &axpy) != KF_OK) {
    GTEST_SKIP() << "the cdev test plugin is not loaded (cts.OnTestBackends loads it)";
  }
  EXPECT_STREQ(kf_op_schema(scale), "cdev::scale(Tensor self, float factor) -> Tensor");
  const Values x{1, -2, 3, 4, 5, 6}, y{0.5, 1, -1};
  Tensor tx = make(x, {2, 3}, KF_FLOAT32), ty = make(y, {3}, KF_FLOAT32);
  kf_value_t factor{};
  factor.tag = KF_VALUE_FLOAT;
  factor.v.f = 2.5;
  const kf_value_t scale_args[2] = {vtensor(tx), factor};
  kf_value_t res[1] = {vnone()};
  const kf_status_t s = kf_op_call(scale, scale_args, 2, res, 1);
  if (!serves_float32(scale, GetParam().backend_index)) {
    EXPECT_EQ(s, KF_UNIMPLEMENTED) << status_text(s);
    EXPECT_NE(std::string(kf_last_error_message()).find("cdev::scale"), std::string::npos)
        << kf_last_error_message();
    EXPECT_EQ(res[0].tag, KF_VALUE_NONE);
    return;
  }
  CTS_ASSERT_OK(s);
  Values want(x);
  for (double& v : want) v *= 2.5;
  Tensor scaled = take(res[0]);
  EXPECT_TRUE(matches(scaled, want, {2, 3}, KF_FLOAT32));
  EXPECT_EQ(scaled.device().type, dev().type);

  const kf_value_t axpy_args[3] = {vtensor(tx), vtensor(ty), vscalar(kf_scalar_f64(2.0))};
  kf_value_t ares[1] = {vnone()};
  const kf_status_t as = kf_op_call(axpy, axpy_args, 3, ares, 1);
  if (!serves_float32(axpy, GetParam().backend_index)) {
    EXPECT_EQ(as, KF_UNIMPLEMENTED) << status_text(as);
    EXPECT_NE(std::string(kf_last_error_message()).find("cdev::axpy"), std::string::npos)
        << kf_last_error_message();
    return;
  }
  CTS_ASSERT_OK(as);
  const Values want_axpy = ref_binary(x, {2, 3}, y, {3},
                                      [](double a, double b) { return a + 2 * b; }, nullptr);
  EXPECT_TRUE(matches(take(ares[0]), want_axpy, {2, 3}, KF_FLOAT32));
}

CTS_INSTANTIATE(Boxed, params_any());

}  // namespace
}  // namespace cts
