// The op argument tables at the C ABI (ABI 1.4): kf_op_arg_count, kf_op_arg_info,
// kf_op_is_inplace, kf_arg_kind_name. Bad input is a clean status naming the problem; the
// tables of core ops are their schemas', and so are those of ops a plugin defines (the dispatch
// tests' cdev plugin, not built on Windows).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "abi_util.hpp"

namespace kfabi {
namespace {

constexpr auto IA = KF_INVALID_ARGUMENT;

// The layout of ABI 2.0 on 64-bit targets (1.4's, with default_value grown by the 24-byte
// kf_scalar_t of 2.0); later minors only append fields.
#if UINTPTR_MAX == 0xffffffffffffffffu
static_assert(offsetof(kf_op_arg_info_t, name) == 8 && offsetof(kf_op_arg_info_t, kind) == 16 &&
                  offsetof(kf_op_arg_info_t, optional) == 20 &&
                  offsetof(kf_op_arg_info_t, kwarg_only) == 21 &&
                  offsetof(kf_op_arg_info_t, has_default) == 22 &&
                  offsetof(kf_op_arg_info_t, written) == 23 &&
                  offsetof(kf_op_arg_info_t, default_value) == 24 &&
                  sizeof(kf_value_t) == 32 && sizeof(kf_op_arg_info_t) == 56,
              "kf_op_arg_info_t of ABI 2.0");
#endif

kf_op_t find(const char* name) {
  kf_op_t op = nullptr;
  EXPECT_EQ(kf_op_find(name, &op), KF_OK) << kf_last_error_message();
  return op;
}

kf_op_arg_info_t arg(kf_op_t op, int32_t i) {
  kf_op_arg_info_t info{};
  info.struct_size = sizeof info;
  EXPECT_EQ(kf_op_arg_info(op, i, &info), KF_OK) << kf_last_error_message();
  return info;
}

// One argument as text: "Scalar alpha kwonly default=scalar i64 1", "Tensor(a!) self", ...
std::string text(const kf_op_arg_info_t& a) {
  std::string out = std::string(kf_arg_kind_name(a.kind)) + (a.written ? "(a!)" : "") +
                    (a.optional ? "?" : "") + " " + a.name + (a.kwarg_only ? " kwonly" : "");
  if (!a.has_default) return out;
  const kf_value_t& v = a.default_value;
  switch (v.tag) {
    case KF_VALUE_NONE: return out + " default=None";
    case KF_VALUE_INT: return out + " default=" + std::to_string(v.v.i);
    case KF_VALUE_FLOAT: return out + " default=" + std::to_string(v.v.f);
    case KF_VALUE_BOOL: return out + (v.v.b ? " default=True" : " default=False");
    case KF_VALUE_INT_LIST: {
      out += " default=[";
      for (int32_t i = 0; i < v.v.ints.len; ++i) {
        out += (i ? ", " : "") + std::to_string(v.v.ints.data[i]);
      }
      return out + "]";
    }
    case KF_VALUE_SCALAR:
      return out + " default=scalar " + (v.v.scalar.tag == KF_SCALAR_INT64
                                             ? std::to_string(v.v.scalar.v.i64)
                                             : std::to_string(v.v.scalar.v.f64));
    default: return out + " default=tag " + std::to_string(v.tag);
  }
}

std::string table(kf_op_t op) {
  std::string out;
  for (int32_t i = 0; i < kf_op_arg_count(op); ++i) out += (i ? ", " : "") + text(arg(op, i));
  return out;
}

TEST(AbiOpArgs, BadHandlesAndIndicesAreCleanStatuses) {
  kf_op_arg_info_t info{};
  info.struct_size = sizeof info;
  const kf_op_t bogus = reinterpret_cast<kf_op_t>(static_cast<uintptr_t>(1u << 20));
  EXPECT_EQ(kf_op_arg_count(nullptr), -1);
  EXPECT_EQ(kf_op_arg_count(bogus), -1);
  EXPECT_EQ(kf_op_is_inplace(nullptr), -1);
  EXPECT_EQ(kf_op_is_inplace(bogus), -1);
  const Words handle = {{"kf_op_arg_info", "handle"}, {}};
  EXPECT_TRUE(fails_with(kf_op_arg_info(nullptr, 0, &info), IA, handle));
  EXPECT_TRUE(fails_with(kf_op_arg_info(bogus, 0, &info), IA, handle));
  const kf_op_t add = find("add");
  ASSERT_EQ(kf_op_arg_count(add), 3);
  for (int32_t bad : {-1, 3, 1 << 30}) {
    EXPECT_TRUE(fails_with(kf_op_arg_info(add, bad, &info), KF_OUT_OF_RANGE,
                           {{"kf_op_arg_info", std::to_string(bad), "add", "3"}, {}}));
  }
  EXPECT_TRUE(fails_with(kf_op_arg_info(add, 0, nullptr), IA, {{"out", "struct_size"}, {}}));
  for (size_t small : {size_t{0}, sizeof(size_t), sizeof info - 1}) {
    kf_op_arg_info_t s{};
    s.struct_size = small;
    EXPECT_TRUE(fails_with(kf_op_arg_info(add, 0, &s), IA, {{"struct_size"}, {}})) << small;
    EXPECT_EQ(s.name, nullptr) << "nothing written into a refused struct";
  }
}

// A caller built against a newer minor passes a larger struct and keeps what follows ours.
TEST(AbiOpArgs, ALargerStructKeepsItsTail) {
  struct {
    kf_op_arg_info_t s;
    unsigned char beyond[32];
  } grown;
  std::memset(&grown, 0xCD, sizeof grown);
  grown.s.struct_size = sizeof grown;
  ASSERT_EQ(kf_op_arg_info(find("add"), 2, &grown.s), KF_OK) << kf_last_error_message();
  EXPECT_EQ(grown.s.struct_size, sizeof grown);
  EXPECT_STREQ(grown.s.name, "alpha");
  for (unsigned char b : grown.beyond) ASSERT_EQ(b, 0xCD);
}

TEST(AbiOpArgs, CoreOpsHaveTheirSchemasTables) {
  EXPECT_EQ(table(find("add")),
            "Tensor self, Tensor other, Scalar alpha kwonly default=scalar 1");
  EXPECT_EQ(table(find("empty")),
            "int[] size, ScalarType? dtype kwonly default=None, "
            "Device? device kwonly default=None");
  EXPECT_EQ(table(find("amax")), "Tensor self, int[] dim default=[], bool keepdim default=False");
  EXPECT_EQ(table(find("layer_norm")),
            "Tensor input, int[] normalized_shape, Tensor? weight default=None, "
            "Tensor? bias default=None, float eps default=0.000010");
  EXPECT_EQ(table(find("cat")), "Tensor[] tensors, int dim default=0");
  EXPECT_EQ(table(find("fill_")), "Tensor(a!) self, Scalar value");
  EXPECT_EQ(arg(find("layer_norm"), 4).default_value.v.f, 1e-05);
  EXPECT_EQ(kf_op_is_inplace(find("fill_")), 1);
  EXPECT_EQ(kf_op_is_inplace(find("copy_")), 1);
  EXPECT_EQ(kf_op_is_inplace(find("add")), 0);
  EXPECT_EQ(kf_op_num_returns(find("add")), 1);
}

// The type text of the argument that ends just before `at` in a schema: "Tensor(a!)?".
std::string type_before(const std::string& schema, size_t at) {
  const size_t comma = schema.rfind(',', at), open = schema.find('(');
  const size_t after = comma != std::string::npos && comma > open ? comma : open;
  const size_t start = schema.find_first_not_of(" *", after + 1);
  return schema.substr(start, at - start);
}

// Where " name" stands as a whole argument name in `schema`, from `from` on.
size_t find_name(const std::string& schema, const std::string& name, size_t from) {
  for (size_t at = schema.find(" " + name, from); at != std::string::npos;
       at = schema.find(" " + name, at + 1)) {
    const char next = schema[at + 1 + name.size()];
    if (next == '=' || next == ',' || next == ')') return at;
  }
  return std::string::npos;
}

// Every op's table names the schema's arguments with the schema's kinds, in order.
TEST(AbiOpArgs, EveryOpsTableFollowsItsSchemaText) {
  const int32_t n = kf_op_count();
  ASSERT_GT(n, 50);
  for (int32_t i = 0; i < n; ++i) {
    kf_op_t op = nullptr;
    ASSERT_EQ(kf_op_at(i, &op), KF_OK);
    const std::string schema = kf_op_schema(op);
    const int32_t nargs = kf_op_arg_count(op);
    ASSERT_GE(nargs, 0) << schema;
    size_t at = schema.find('(');
    for (int32_t j = 0; j < nargs; ++j) {
      const kf_op_arg_info_t a = arg(op, j);
      SCOPED_TRACE(std::string(a.name) + " in " + schema);
      at = find_name(schema, a.name, at);
      ASSERT_NE(at, std::string::npos);
      std::string type = type_before(schema, at);
      const size_t alias = type.find('(');
      const bool written = type.find("!)") != std::string::npos;
      if (alias != std::string::npos) type.erase(alias, type.find(')') - alias + 1);
      const bool optional = !type.empty() && type.back() == '?';
      if (optional) type.pop_back();
      EXPECT_EQ(type, kf_arg_kind_name(a.kind));
      EXPECT_EQ(a.optional, optional);
      EXPECT_EQ(a.written, written);
      EXPECT_EQ(a.kwarg_only, schema.rfind("*,", at) != std::string::npos);
      EXPECT_EQ(a.has_default, schema[at + 1 + std::strlen(a.name)] == '=');
      at += 1 + std::strlen(a.name);
    }
    // an op writing tensor lists, Tensor(a!)[], is not in place
    EXPECT_EQ(kf_op_is_inplace(op), schema.find("Tensor(a!) ") != std::string::npos ? 1 : 0)
        << schema;
  }
}

TEST(AbiOpArgs, KindsAreTheValueTagsAndNamedAsSchemasSpellThem) {
#define KF_ABI_TEST_KIND_(name, spelled, value_tag)          \
  EXPECT_EQ(static_cast<int32_t>(KF_ARG_KIND_##name), value_tag); \
  EXPECT_STREQ(kf_arg_kind_name(KF_ARG_KIND_##name), spelled);
  KF_ARG_KIND_LIST(KF_ABI_TEST_KIND_)
#undef KF_ABI_TEST_KIND_
  EXPECT_STREQ(kf_arg_kind_name(KF_ARG_KIND_INT_LIST), "int[]");
  EXPECT_STREQ(kf_arg_kind_name(KF_ARG_KIND_DTYPE), "ScalarType");
  EXPECT_STREQ(kf_arg_kind_name(KF_VALUE_NONE), "unknown");
  EXPECT_STREQ(kf_arg_kind_name(-1), "unknown");
  EXPECT_STREQ(kf_arg_kind_name(1000), "unknown");
}

#if defined(KF_ABI_TEST_PLUGIN_DIR)

TEST(AbiOpArgs, OpsAPluginDefinesHaveTheirSchemasTables) {
  const std::string manifest = std::string(KF_ABI_TEST_PLUGIN_DIR) + "/cdev.json";
  const kf_status_t s = kf_load_plugin(manifest.c_str());
  ASSERT_TRUE(s == KF_OK || s == KF_ALREADY_EXISTS) << kf_last_error_message();
  EXPECT_EQ(table(find("cdev::scale")), "Tensor self, float factor");
  EXPECT_EQ(table(find("cdev::axpy")),
            "Tensor self, Tensor other, Scalar alpha kwonly default=scalar 1");
  EXPECT_EQ(kf_op_is_inplace(find("cdev::axpy")), 0);
  EXPECT_EQ(kf_op_num_returns(find("cdev::axpy")), 1);
  const kf_op_arg_info_t alpha = arg(find("cdev::axpy"), 2);
  EXPECT_EQ(alpha.default_value.tag, KF_VALUE_SCALAR);
  EXPECT_EQ(alpha.default_value.v.scalar.tag, KF_SCALAR_INT64);
  kf_op_arg_info_t info{};
  info.struct_size = sizeof info;
  EXPECT_TRUE(fails_with(kf_op_arg_info(find("cdev::scale"), 2, &info), KF_OUT_OF_RANGE,
                         {{"cdev::scale", "2"}, {}}));
}

#endif

}  // namespace
}  // namespace kfabi
