// Fuzz target for the reader of the backward formulas plugins give (plugin ABI 2.1,
// dispatcher/autograd/runtime_formula.cpp): any bytes, read as the formula of one tensor argument
// of a fixed op, must either compile (its reads within the op's arguments) or be refused with
// kf::Error(KF_INVALID_ARGUMENT); never crash, hang or read out of bounds (nesting is bounded
// by the reader).
//
// Built over the core's objects, as fuzz_ld_so_cache.cpp is: callees are checked against the
// core's op registry and the helpers' table.
#include <cstddef>
#include <cstdint>
#include <string>

#include "autograd/runtime_formula.hpp"
#include "core/error.hpp"

namespace {

const kf::OpDefinition& definition() {
  static const kf::OpDefinition d = [] {
    kf::OpDefinition o;
    o.schema = kf::parse_schema(
        "fz::f(Tensor self, Tensor other, float w, int[] dims, Scalar? s=None) -> Tensor");
    o.plugin = "fz";
    return o;
  }();
  return d;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const kf::autograd::RuntimeFormula f(definition(), {}, size % 2 == 0 ? "self" : "other",
                                         text);
    for (int32_t i = 2; i < 5; ++i) {
      if (f.reads(i)) __builtin_trap();  // only tensors (and the result) are ever saved
    }
  } catch (const kf::Error& e) {
    if (e.status() != KF_INVALID_ARGUMENT) __builtin_trap();
  }
  return 0;
}
