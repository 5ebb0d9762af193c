// The op-schema parser's rule for written arguments (ops plugins define): the self of an
// in-place op is marked written and is not optional; further written arguments of an in-place
// op are lettered in order (b!, c!, ...), and the op returns exactly what it writes. The core
// writes nothing else, after the overlap check (Note [Written tensors that overlap]).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/error.hpp"
#include "registry/defined_op.hpp"
#include "registry/schema_parser.hpp"

namespace kf {
namespace {

// The message of parse_schema's refusal, or "" when it parses.
std::string refusal(const std::string& schema) {
  try {
    (void)parse_schema(schema);
    return "";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT) << schema;
    return e.what();
  }
}

TEST(SchemaWritten, InplaceSelfIsTheWrittenArgument) {
  EXPECT_EQ(refusal("toy::scale_(Tensor(a!) self, float f) -> Tensor(a!)"), "");
  EXPECT_EQ(refusal("toy::axpy_(Tensor(a!) self, Tensor(a) x, Scalar alpha=1) -> Tensor(a!)"),
            "");
}

TEST(SchemaWritten, FurtherWrittenArgumentsOfAnInplaceOpAreReturned) {
  EXPECT_EQ(refusal("toy::step_(Tensor(a!) self, Tensor g, Tensor(b!) m) -> "
                    "(Tensor(a!), Tensor(b!))"),
            "");
  const std::string m = refusal("toy::fill(Tensor(a!) x, Scalar v) -> Tensor");
  EXPECT_NE(m.find("'x'"), std::string::npos) << m;
  EXPECT_NE(m.find("written"), std::string::npos) << m;
  EXPECT_NE(refusal("toy::add_(Tensor(a!) self, Tensor(b!) other) -> Tensor(a!)")
                .find("(Tensor(a!), Tensor(b!))"),
            std::string::npos)
      << "the op must return what it writes";
  EXPECT_NE(refusal("toy::add_(Tensor(a!) self, Tensor(c!) other) -> (Tensor(a!), Tensor(c!))")
                .find("'other'"),
            std::string::npos)
      << "lettered in order";
}

TEST(SchemaWritten, InplaceSelfMustBeATensor) {
  EXPECT_NE(refusal("toy::fill_(Tensor(a!)? self, Scalar v) -> Tensor(a!)")
                .find("Tensor(a!) self"),
            std::string::npos)
      << "an in-place op needs a self to write";
}

TEST(SchemaWritten, InplaceOpReturnsWhatItWrites) {
  for (const char* schema : {"toy::fill_(Tensor(a!) self) -> (Tensor, Tensor)",
                             "toy::fill_(Tensor(a!) self) -> Tensor"}) {
    EXPECT_NE(refusal(schema).find("return what it writes"), std::string::npos) << schema;
  }
}

// The op's argument table (what kf_op_arg_info reports) marks the written self, and nothing else.
TEST(SchemaWritten, TheTableOfAnInplaceOpMarksItsSelfWritten) {
  OpDefinition d;
  d.schema = parse_schema("toy::axpy_(Tensor(a!) self, Tensor(a) x, Scalar alpha=1) -> Tensor(a!)");
  const std::unique_ptr<DefinedOp> op = make_op(d, nullptr);
  ASSERT_EQ(op->def.nargs, 3);
  EXPECT_TRUE(op->def.args[0].written);
  EXPECT_FALSE(op->def.args[1].written) << "(a) is an alias, not a write";
  EXPECT_FALSE(op->def.args[2].written);
  d.schema = parse_schema("toy::scale(Tensor self, float f) -> Tensor");
  EXPECT_FALSE(make_op(d, nullptr)->def.args[0].written);
}

}  // namespace
}  // namespace kf
