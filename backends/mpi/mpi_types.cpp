#include "mpi_types.hpp"

#include <mutex>
#include <string>
#include <type_traits>

#include "float16.hpp"
#include "kernforge/dtypes.hpp"
#include "mpi_errors.hpp"

namespace kfmpi {
namespace {

constexpr int kOps = 4;  // sum (and avg), prod, min, max: kf_reduce_op_t's first four

MPI_Datatype integer_type(bool is_signed, unsigned bytes) {
  switch (bytes) {
    case 1: return is_signed ? MPI_INT8_T : MPI_UINT8_T;
    case 2: return is_signed ? MPI_INT16_T : MPI_UINT16_T;
    case 4: return is_signed ? MPI_INT32_T : MPI_UINT32_T;
    case 8: return is_signed ? MPI_INT64_T : MPI_UINT64_T;
    default: return MPI_DATATYPE_NULL;
  }
}

MPI_Datatype type_by_kind(char kind, unsigned bytes) {
  switch (kind) {
    case 'f':
      if (bytes == 2) return MPI_UINT16_T;  // float16 and bfloat16: the plugin's operations
      return bytes == 4 ? MPI_FLOAT : bytes == 8 ? MPI_DOUBLE : MPI_DATATYPE_NULL;
    case 'c': return bytes == 8 ? MPI_C_FLOAT_COMPLEX : bytes == 16 ? MPI_C_DOUBLE_COMPLEX
                                                                    : MPI_DATATYPE_NULL;
    case 'b': return bytes == sizeof(bool) ? MPI_C_BOOL : MPI_DATATYPE_NULL;
    case 'i': return integer_type(true, bytes);
    case 'u': return integer_type(false, bytes);
    default: return MPI_DATATYPE_NULL;
  }
}

// One step of a 16-bit float reduction: inout[i] = inout[i] (op) in[i], in float32.
template <class H, int Op>
void half_step(void* in, void* inout, int* len, MPI_Datatype*) {
  const H* a = static_cast<const H*>(in);
  H* b = static_cast<H*>(inout);
  for (int i = 0; i < *len; ++i) {
    const float x = kf::cpu::to_float(a[i]);
    const float y = kf::cpu::to_float(b[i]);
    float r = x + y;
    if (Op == KF_REDUCE_PROD) r = x * y;
    if (Op == KF_REDUCE_MIN) r = y < x ? y : x;
    if (Op == KF_REDUCE_MAX) r = y > x ? y : x;
    if constexpr (std::is_same_v<H, kf::Half>) b[i] = kf::cpu::to_half(r);
    else b[i] = kf::cpu::to_bf16(r);
  }
}

struct HalfOps {
  MPI_Op half[kOps];
  MPI_Op brain[kOps];
};

template <int Op>
void make_pair(HalfOps& ops) {
  check_mpi(MPI_Op_create(&half_step<kf::Half, Op>, 1, &ops.half[Op]), "MPI_Op_create");
  check_mpi(MPI_Op_create(&half_step<kf::BFloat16, Op>, 1, &ops.brain[Op]), "MPI_Op_create");
}

// Made once, after MPI started; MPI_Finalize frees them.
const HalfOps& half_ops() {
  static HalfOps ops;
  static std::once_flag once;
  std::call_once(once, [] {
    make_pair<KF_REDUCE_SUM>(ops);
    make_pair<KF_REDUCE_PROD>(ops);
    make_pair<KF_REDUCE_MIN>(ops);
    make_pair<KF_REDUCE_MAX>(ops);
  });
  return ops;
}

const char* reduce_name(int32_t op) {
  static const char* const names[] = {"sum", "prod", "min", "max", "avg"};
  return op >= 0 && op <= KF_REDUCE_AVG ? names[op] : "an unknown reduction";
}

[[noreturn]] void cannot_reduce(int32_t dtype, int32_t op, const char* why) {
  throw PluginError(KF_INVALID_ARGUMENT, std::string("the mpi engine does not reduce ") +
                    kf::dtype_text(dtype) + " tensors by " + reduce_name(op) + " (" +
                    why + ")");
}

MPI_Op builtin_op(int32_t op) {
  switch (op) {
    case KF_REDUCE_PROD: return MPI_PROD;
    case KF_REDUCE_MIN: return MPI_MIN;
    case KF_REDUCE_MAX: return MPI_MAX;
    default: return MPI_SUM;  // sum, and avg before its division
  }
}

}  // namespace

MPI_Datatype mpi_type(int32_t dtype) {
  const MPI_Datatype t = type_by_kind(kf::dtype_kind(dtype), kf::dtype_bytes(dtype));
  if (t == MPI_DATATYPE_NULL) {
    throw PluginError(KF_INVALID_ARGUMENT, std::string("the mpi engine has no MPI datatype for "
                      "dtype ") + kf::dtype_text(dtype) + " (" + std::to_string(dtype) + ")");
  }
  return t;
}

MPI_Op mpi_op(int32_t dtype, int32_t op) {
  const char kind = kf::dtype_kind(dtype);
  const int step = op == KF_REDUCE_AVG ? KF_REDUCE_SUM : op;
  if (kind == 'b') {
    if (op == KF_REDUCE_AVG) cannot_reduce(dtype, op, "bool has no average: sum is any, prod all");
    return op == KF_REDUCE_SUM || op == KF_REDUCE_MAX ? MPI_LOR : MPI_LAND;
  }
  if (kind == 'c' && (op == KF_REDUCE_MIN || op == KF_REDUCE_MAX)) {
    cannot_reduce(dtype, op, "complex numbers have no order: use sum, prod or avg");
  }
  if (kind == 'f' && kf::dtype_bytes(dtype) == 2) {
    const HalfOps& ops = half_ops();
    return kf::is_brain_float(dtype) ? ops.brain[step] : ops.half[step];
  }
  return builtin_op(op);
}

void divide(int32_t dtype, void* data, int64_t n, int world) {
  kf::for_each_dtype([&](auto tag) {
    using Tag = decltype(tag);
    using T = typename Tag::type;
    if (Tag::kDtype != dtype) return;
    T* p = static_cast<T*>(data);
    if constexpr (std::is_same_v<T, kf::Half>) {
      for (int64_t i = 0; i < n; ++i) p[i] = kf::cpu::to_half(kf::cpu::to_float(p[i]) / world);
    } else if constexpr (std::is_same_v<T, kf::BFloat16>) {
      for (int64_t i = 0; i < n; ++i) p[i] = kf::cpu::to_bf16(kf::cpu::to_float(p[i]) / world);
    } else if constexpr (!std::is_same_v<T, bool>) {
      for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(p[i] / static_cast<T>(world));
    }
  });
}

}  // namespace kfmpi
