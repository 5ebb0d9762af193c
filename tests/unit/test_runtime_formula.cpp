// The reader of the backward formulas plugins give (plugin ABI 2.1,
// dispatcher/autograd/runtime_formula.cpp): what it accepts, and that every mistake is refused
// when the op is defined, naming the plugin, the op, the argument, the column and the problem.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "autograd/runtime_formula.hpp"
#include "core/error.hpp"

namespace {

kf::OpDefinition definition(const char* schema) {
  kf::OpDefinition d;
  d.schema = kf::parse_schema(schema);
  d.plugin = "myplug";
  return d;
}

const kf::OpDefinition& mix() {
  static const kf::OpDefinition d =
      definition("myplug::mix(Tensor self, Tensor other, float w, int[] dims) -> Tensor");
  return d;
}

// The message of the error compiling `text` as the gradient of `arg`, or "" when it compiles.
std::string problem(const std::string& text, const std::string& arg = "self",
                    const std::vector<kf::OpDefinition>& pending = {}) {
  try {
    kf::autograd::RuntimeFormula f(mix(), pending, arg, text);
    return "";
  } catch (const kf::Error& e) {
    EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
    return e.what();
  }
}

#define EXPECT_HAS(text, part) \
  EXPECT_NE(std::string(text).find(part), std::string::npos) << "no \"" << (part) << "\" in: " << (text)

TEST(RuntimeFormula, AcceptsTheGrammarOfDerivativesYaml) {
  for (const char* ok : {"grad", "mul(grad, other)", "sub(grad, scale(grad, w))",
                         "scale(grad, factor=w)", "sum_to(grad, self.shape)",
                         "sum(grad, [0, 1], True)", "sum(grad, dims, keepdim=False)",
                         "to_dtype(grad, self.dtype)", "mul(grad, result)",
                         "affine(grad, 2, -0.5)", "myplug::mix(grad, grad, w, dims)",
                         "mul(grad,other)"}) {
    EXPECT_EQ(problem(ok), "") << ok;
  }
}

TEST(RuntimeFormula, SavesWhatItReadsAsTensors) {
  kf::autograd::RuntimeFormula f(mix(), {}, "other", "mul(grad, add(self, result))");
  EXPECT_EQ(f.arg_index(), 1);
  EXPECT_TRUE(f.reads(0));
  EXPECT_TRUE(f.reads(-1));
  EXPECT_FALSE(f.reads(1));
  kf::autograd::RuntimeFormula g(mix(), {}, "self", "sum_to(grad, other.shape)");
  EXPECT_FALSE(g.reads(1));  // a shape is kept without the tensor
}

TEST(RuntimeFormula, MistakesNameThePluginTheOpTheArgumentAndTheColumn) {
  const std::string m = problem("mul(grad, wieght)");
  EXPECT_HAS(m, "plugin 'myplug'");
  EXPECT_HAS(m, "define_op(myplug::mix)");
  EXPECT_HAS(m, "the backward formula of 'self'");
  EXPECT_HAS(m, "at column 11");
  EXPECT_HAS(m, "unknown name 'wieght' (the names: grad, result, self, other, w, dims)");
}

TEST(RuntimeFormula, RefusesEachKindOfMistake) {
  EXPECT_HAS(problem("mull(grad, other)"), "'mull' is neither an op with one output nor a helper");
  EXPECT_HAS(problem("mul(grad)"), "mul: argument 'other' is required");
  EXPECT_HAS(problem("mul(grad, other, self)"), "mul takes 2 arguments, 3 given");
  EXPECT_HAS(problem("scale(grad, fctor=w)"), "scale has no argument 'fctor'");
  EXPECT_HAS(problem("scale(grad, w, factor=w)"), "scale: 'factor' given twice");
  EXPECT_HAS(problem("scale(factor=w, grad)"), "a positional argument after a keyword");
  EXPECT_HAS(problem("mul(grad, 2)"), "mul: argument 'other' is a Tensor, given a number");
  EXPECT_HAS(problem("scale(grad, other)"), "scale: argument 'factor' is a Scalar, given a Tensor");
  EXPECT_HAS(problem("sum_to(grad, w)"), "argument 'shape' is a int[], given a number");
  EXPECT_HAS(problem("sum_to(grad, w.shape)"), "'w.shape': 'w' is not a tensor");
  EXPECT_HAS(problem("grad.size"), "only .shape and .dtype exist");
  EXPECT_HAS(problem("mul(grad, other"), "at column 16: the formula ends too early");
  EXPECT_HAS(problem("[1, 2"), "ends too early");
  EXPECT_EQ(problem("mul(grad other)"), "");  // separators are optional, as in derivatives.py
  EXPECT_HAS(problem("mul(grad, other))"), "at column 17: unexpected ')' after the formula");
  EXPECT_HAS(problem("mul(grad; other)"), "cannot read ';'");
  EXPECT_HAS(problem("w"), "the formula must give a tensor");
  EXPECT_HAS(problem("fill_(grad, 1)"), "'fill_' writes its input in place");
  EXPECT_HAS(problem("sum(grad, [0, w])"), "a list in a formula holds ints only");
  EXPECT_HAS(problem("other::mix(grad)"), "'other::mix' is neither an op");
  EXPECT_HAS(problem("grad", "w"), "'w' is not a tensor argument of myplug::mix");
  EXPECT_HAS(problem(""), "the formula ends too early");
  EXPECT_HAS(problem(std::string(100000, '[')), "nested more than 64 deep");
}

TEST(RuntimeFormula, CallsOpsTheSamePluginDefinesBefore) {
  const std::vector<kf::OpDefinition> pending{
      definition("myplug::half(Tensor self) -> Tensor"),
      definition("myplug::pair(Tensor self) -> (Tensor, Tensor)")};
  EXPECT_EQ(problem("myplug::half(grad)", "self", pending), "");
  EXPECT_HAS(problem("myplug::pair(grad)", "self", pending), "returns 2 tensors");
}

// Every formula of derivatives.yaml, printed back from the generator's tree
// (tools/codegen/gen_runtime_helpers.py): the run-time reader accepts each for its op, so the
// two readers of the grammar agree on what the core writes.
struct CoreFormula {
  const char* schema;
  const char* arg;
  const char* formula;
};

const CoreFormula kCoreFormulas[] = {
#include "core_formulas.inc"
};

TEST(RuntimeFormula, ReadsEveryFormulaOfTheCoreAsTheGeneratorDoes) {
  EXPECT_GT(sizeof(kCoreFormulas) / sizeof(kCoreFormulas[0]), 50u);
  for (const CoreFormula& f : kCoreFormulas) {
    kf::OpDefinition d;
    d.schema = kf::parse_schema(f.schema, kf::SchemaOrigin::Core);
    d.plugin = "core";
    try {
      kf::autograd::RuntimeFormula formula(d, {}, f.arg, f.formula);
    } catch (const kf::Error& e) {
      ADD_FAILURE() << e.what();
    }
  }
}

}  // namespace
