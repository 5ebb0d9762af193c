// test_registration_faults.cpp — what the registrar accepts and refuses from a plugin (plugin
// ABI 1.2): a kernel built for another signature (skipped with a warning), ops a plugin defines
// (callable, listed, chosen by kernel), a definition that conflicts with one loaded before, one
// without a namespace or with a core meta rule that does not fit, and kernels for a composite
// without a meta rule or for a view. Each refusal rejects the whole plugin, names what was wrong
// and leaves the CPU plugin working (the fixture's epilogue).
#include <string>
#include <vector>

#include "loader_fixture.hpp"

namespace loader_test {
namespace {

using RegistrationFaults = LoaderTest;

kf_device_t faultdev() {
  kf_device_t dev{};
  EXPECT_EQ(kf_device_parse("faultdev", &dev), KF_OK) << last_error();
  return dev;
}

/// kf_op_call of a one-tensor op on `input`; the status, and the result in `out`.
kf_status_t call1(const char* name, kf_tensor_t input, Tensor& out) {
  kf_op_t op = nullptr;
  const kf_status_t found = kf_op_find(name, &op);
  if (found != KF_OK) return found;
  const kf_value_t arg = kf_value_tensor(input);
  kf_value_t result = kf_value_none();
  const kf_status_t s = kf_op_call(op, &arg, 1, &result, 1);
  if (s == KF_OK) out.h = result.v.tensor;
  return s;
}

bool op_listed(const std::string& name) {
  for (int32_t i = 0; i < kf_op_count(); ++i) {
    kf_op_t op = nullptr;
    if (kf_op_at(i, &op) == KF_OK && name == kf_op_name(op)) return true;
  }
  return false;
}

TEST_F(RegistrationFaults, KernelBuiltForAnotherSignatureIsSkippedWithWarning) {
  const Staged s = stage(tmp() / "plugins", "schema_hash_mismatch");
  init_ok({s.folder});
  const BackendView b = backend("fault_schema_hash_mismatch");
  expect_state(b, KF_BACKEND_LOADED);
  bool warned = false;
  for (const json& st : steps(report(), b.name, "register")) {
    const std::string reason = str_of(st, "reason");
    warned = warned || (str_of(st, "result") == "warning" && contains(reason, "'add'") &&
                        contains(reason, "0123456789abcdef") && contains(reason, "signature"));
  }
  EXPECT_TRUE(warned) << "no register warning naming add and its schema hash: "
                      << report()["steps"].dump(2);
  kf_status_t st = KF_OK;
  const kf_kernel_info_t add = kernel_info("add", b.index, &st);
  EXPECT_EQ(st, KF_OK) << last_error();
  EXPECT_NE(add.kind, KF_KERNEL_BACKEND) << "the kernel with the wrong hash was registered";
  expect_faultdev_neg_works(b.name);
}

TEST_F(RegistrationFaults, DefinedOpsAreCallableListedAndServedByTheirKernels) {
  const Staged s = stage(tmp() / "plugins", "define_op");
  init_ok({s.folder});
  const BackendView b = backend("fault_define_op");
  expect_state(b, KF_BACKEND_LOADED);
  EXPECT_TRUE(op_listed("fault::twice"));
  EXPECT_TRUE(op_listed("fault::negate"));
  kf_op_t op = nullptr;
  ASSERT_EQ(kf_op_find("fault::twice", &op), KF_OK) << last_error();
  EXPECT_STREQ(kf_op_schema(op), "fault::twice(Tensor self) -> Tensor");
  EXPECT_STREQ(kf_op_doc(op), "A test op of the fault plugin.");
  const float x[3] = {1.0f, -2.5f, 4.0f};
  const int64_t shape[1] = {3};
  Tensor t, twice, negated;
  ASSERT_EQ(kf_tensor_from_data(x, shape, 1, KF_FLOAT32, faultdev(), t.out()), KF_OK);
  ASSERT_EQ(call1("fault::twice", t.h, twice), KF_OK) << last_error();
  EXPECT_EQ(to_host(twice.h, 3), (std::vector<float>{2.0f, -5.0f, 8.0f}));
  ASSERT_EQ(call1("fault::negate", t.h, negated), KF_OK) << last_error();
  EXPECT_EQ(to_host(negated.h, 3), (std::vector<float>{-1.0f, 2.5f, -4.0f}));
  kf_status_t st = KF_OK;
  const kf_kernel_info_t info = kernel_info("fault::twice", b.index, &st);
  EXPECT_EQ(info.kind, KF_KERNEL_BACKEND);
  EXPECT_HAS(info.provenance, "fault_plugin.cpp");
  // No other backend has a kernel: on the CPU the op is unimplemented, with its name.
  Tensor c, r;
  ASSERT_EQ(kf_tensor_from_data(x, shape, 1, KF_FLOAT32, kf_device_cpu(), c.out()), KF_OK);
  EXPECT_EQ(call1("fault::twice", c.h, r), KF_UNIMPLEMENTED);
  EXPECT_HAS(last_error(), "fault::twice");
  EXPECT_HAS(last_error(), "fault_define_op");
}

TEST_F(RegistrationFaults, RedefinitionWithAnotherSchemaRejectsThePlugin) {
  const Staged first = stage(tmp() / "first", "define_op");
  const Staged second = stage(tmp() / "second", "define_conflict");
  init_ok({first.folder, second.folder});
  expect_state(backend("fault_define_op"), KF_BACKEND_LOADED);
  const BackendView b = backend("fault_define_conflict");
  expect_state(b, KF_BACKEND_REJECTED, KF_ALREADY_EXISTS);
  EXPECT_HAS(b.reason, "fault::twice(Tensor self) -> Tensor");
  EXPECT_HAS(b.reason, "fault::twice(Tensor self, int n) -> Tensor");
  expect_message_names(b, {second.library});
  kf_op_t op = nullptr;
  ASSERT_EQ(kf_op_find("fault::twice", &op), KF_OK) << last_error();
  EXPECT_STREQ(kf_op_schema(op), "fault::twice(Tensor self) -> Tensor");
}

TEST_F(RegistrationFaults, DefinitionWithoutNamespaceIsRefused) {
  const Staged s = stage(tmp() / "plugins", "define_unnamespaced");
  init_ok({s.folder});
  const BackendView b = backend("fault_define_unnamespaced");
  expect_state(b, KF_BACKEND_REJECTED, KF_INVALID_ARGUMENT);
  EXPECT_HAS(b.reason, "'twice' has no namespace");
  EXPECT_HAS(b.reason, "fault_define_unnamespaced::twice");
  kf_op_t op = nullptr;
  EXPECT_EQ(kf_op_find("twice", &op), KF_NOT_FOUND);
}

TEST_F(RegistrationFaults, MetaRuleThatDoesNotFitIsRefused) {
  const Staged s = stage(tmp() / "plugins", "define_bad_rule");
  init_ok({s.folder});
  const BackendView b = backend("fault_define_bad_rule");
  expect_state(b, KF_BACKEND_REJECTED, KF_INVALID_ARGUMENT);
  EXPECT_HAS(b.reason, "meta rule 'unary'");
  EXPECT_HAS(b.reason, "Tensor, int -> 1");
}

TEST_F(RegistrationFaults, KernelForCompositeWithoutMetaRuleIsRefused) {
  const Staged s = stage(tmp() / "plugins", "composite_no_meta");
  init_ok({s.folder});
  const BackendView b = backend("fault_composite_no_meta");
  expect_state(b, KF_BACKEND_REJECTED, KF_INVALID_ARGUMENT);
  EXPECT_HAS(b.reason, "'clone' is a composite without a meta rule");
  EXPECT_HAS(b.reason, "fault_plugin.cpp:");
}

TEST_F(RegistrationFaults, KernelForViewIsRefused) {
  const Staged s = stage(tmp() / "plugins", "view_kernel");
  init_ok({s.folder});
  const BackendView b = backend("fault_view_kernel");
  expect_state(b, KF_BACKEND_REJECTED, KF_INVALID_ARGUMENT);
  EXPECT_HAS(b.reason, "'reshape' is a view");
}

}  // namespace
}  // namespace loader_test
