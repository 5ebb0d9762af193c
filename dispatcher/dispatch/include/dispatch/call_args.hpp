// The arguments of one op call after normalisation: every schema argument present (defaults
// filled in), tags checked, tensor handles validated. Meta functions, composites, views and
// the dispatcher read arguments through it by schema index.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "registry/op_def.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf {

/// A borrowed list of int64 (an int[] argument). {nullptr, 0} is None for an int[]? argument.
struct IntListView {
  const int64_t* data = nullptr;
  int32_t len = 0;
  IntListView() = default;
  IntListView(const int64_t* d, int32_t n) noexcept : data(d), len(n) {}
  IntListView(const std::vector<int64_t>& v) noexcept  // NOLINT: implicit by design
      : data(v.data()), len(static_cast<int32_t>(v.size())) {}
  // For arguments only: the list lives until the end of the call's full expression.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  IntListView(std::initializer_list<int64_t> l) noexcept  // NOLINT: implicit by design
      : data(l.begin()), len(static_cast<int32_t>(l.size())) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
};

/// A borrowed list of tensors (a Tensor[] argument): handles, as the boxed value holds them.
struct TensorListView {
  const kf_tensor_t* data = nullptr;
  int32_t len = 0;
};

struct CallArgs {
  const OpDef* def = nullptr;
  int32_t nargs = 0;
  // The arguments in schema order: the typed entry point's own array, or `owned` after
  // normalisation of a boxed call. Tensors in it are handles; `tensors` has them decoded.
  const kf_value_t* v = nullptr;
  kf_value_t owned[kMaxArgs];
  // By schema index, set for Tensor arguments only (nullptr for None); not initialised for
  // the others, so that the hot path writes only what it uses.
  TensorImpl* tensors[kMaxArgs];
  int32_t tensor_index[kMaxTensorArgs];         // tensor ordinal -> schema index

  const char* name() const noexcept { return def->name; }
  bool none(int32_t i) const noexcept { return v[i].tag == KF_VALUE_NONE; }
  TensorImpl& tensor(int32_t i) const noexcept { return *tensors[i]; }
  TensorImpl* optional_tensor(int32_t i) const noexcept { return tensors[i]; }
  int64_t int_arg(int32_t i) const noexcept { return v[i].v.i; }
  double float_arg(int32_t i) const noexcept { return v[i].v.f; }
  bool bool_arg(int32_t i) const noexcept { return v[i].v.b; }
  kf_scalar_t scalar(int32_t i) const noexcept { return v[i].v.scalar; }
  IntListView ints(int32_t i) const noexcept { return {v[i].v.ints.data, v[i].v.ints.len}; }
  kf_dtype_t dtype_or(int32_t i, kf_dtype_t d) const noexcept {
    return none(i) ? d : v[i].v.dtype;
  }
  kf_device_t device_or(int32_t i, kf_device_t d) const noexcept {
    return none(i) ? d : v[i].v.device;
  }
};

/// A step of the call path that runs a call: its arguments, its mode, the written tensors
/// given (Out: the outputs; Inplace: self) and where a Functional call's results go.
using RunCall = void (*)(const CallArgs&, CallMode, TensorImpl* const*, TensorImpl**);

/// Fills `out` from the caller's boxed arguments; throws KF_INVALID_ARGUMENT naming the op,
/// the argument and what was expected.
void normalize_args(const OpDef& def, const kf_value_t* args, int32_t nargs, CallArgs& out);

/// The typed entry points' path: `args` has every argument with its exact tag (generated
/// code), so only handles and list/dtype values are checked and nothing is copied.
void bind_typed_args(const OpDef& def, const kf_value_t* args, CallArgs& out);

/// Makes `args.v` a private, writable copy (for code that rewrites arguments).
inline void own_args(CallArgs& args) {
  if (args.v == args.owned) return;
  for (int32_t i = 0; i < args.nargs; ++i) args.owned[i] = args.v[i];
  args.v = args.owned;
}

}  // namespace kf
