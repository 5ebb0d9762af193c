// Fuzz target for the op-schema parser that reads the signatures plugins define
// (kf_registrar_t.define_op): any bytes must either parse into a consistent schema or be
// rejected with kf::Error(KF_INVALID_ARGUMENT); never crash, hang or read out of bounds.
//
// Built like fuzz_manifest.cpp: a libFuzzer target with clang, a corpus replay driver otherwise.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "registry/schema_parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const kf::ParsedSchema p = kf::parse_schema(text);
    // A parsed schema is self-consistent: its canonical text parses to the same schema.
    const kf::ParsedSchema again = kf::parse_schema(p.canonical);
    if (again.canonical != p.canonical || again.hash != p.hash) __builtin_trap();
    if (p.nreturns < 1 || p.name.empty() || p.args.size() > 16) __builtin_trap();
    for (const kf::ParsedArg& a : p.args) (void)kf::default_value(a);
  } catch (const kf::Error& e) {
    if (e.status() != KF_INVALID_ARGUMENT) __builtin_trap();
  }
  return 0;
}
