// The node of one recorded op call: its formulas (derivative.hpp), a copy of the call's
// non-tensor arguments, and the tensors the formulas read, saved with their versions.
#pragma once

#include <optional>
#include <vector>

#include "autograd/derivative.hpp"
#include "autograd/node.hpp"
#include "dispatch/call_args.hpp"

namespace kf::autograd {

/// A tensor a formula reads (Note [Saved tensors]) and the version it had when it was saved
/// (Note [Version counters]).
struct SavedTensor {
  TensorRef value;
  uint32_t version = 0;
  int32_t index = -1;  // the schema argument, or -1 - k for output k
};

class OpNode final : public Node {
 public:
  OpNode(const CallArgs& args, const Derivative& d);
  void apply(std::vector<TensorRef>& in, std::vector<TensorRef>& grads) override;
  const char* name() const noexcept override { return def_->name; }
  int32_t num_outputs() const noexcept override { return def_->nreturns; }
  void release_saved() noexcept override;

  /// Saves t as argument `index` (or output -1 - index); `pending`: the writes of t the call
  /// still makes after this (the dispatcher bumps an in-place call's self once it returns).
  void save(TensorImpl& t, int32_t index, uint32_t pending = 0);
  const Derivative& derivative() const noexcept { return *derivative_; }

  // What the generated formulas read (schema argument indices).
  const CallArgs& args() const noexcept { return args_; }
  TensorImpl& saved(int32_t index) const;
  TensorImpl& result(int32_t k) const { return saved(-1 - k); }
  IntListView shape_of(int32_t index) const noexcept;
  IntListView result_shape(int32_t k) const noexcept { return shape_of(-1 - k); }
  kf_dtype_t dtype_of(int32_t index) const noexcept;
  kf_dtype_t result_dtype(int32_t k) const noexcept { return dtype_of(-1 - k); }
  /// Output k's gradient, made zeros of the output's shape and dtype where none arrived.
  TensorImpl& grad_or_zeros(TensorRef* in, int32_t k) const;
  IntListView optional_ints(int32_t index) const noexcept;
  std::optional<int64_t> optional_int(int32_t index) const noexcept;
  std::optional<kf_scalar_t> optional_scalar(int32_t index) const noexcept;
  std::optional<double> optional_float(int32_t index) const noexcept;

  /// Output k's layout, set when the call returns.
  void set_result_meta(int32_t k, const TensorImpl& result);

 private:
  const InputMeta& meta_at(int32_t index) const noexcept;
  void link_saved_outputs(bool on);

  const OpDef* def_;
  const Derivative* derivative_;
  CallArgs args_;
  std::vector<std::vector<int64_t>> lists_;  // the int[] arguments' values
  std::vector<int32_t> ordinal_;             // schema index -> tensor ordinal (-1: none)
  std::vector<InputMeta> result_meta_;  // per output
  std::vector<SavedTensor> saved_;
  bool released_ = false;
};

}  // namespace kf::autograd
