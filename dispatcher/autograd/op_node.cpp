#include "autograd/op_node.hpp"

#include "autograd/autograd_meta.hpp"
#include "autograd/grad_mode.hpp"
#include "core/error.hpp"

namespace kf::autograd {

OpNode::OpNode(const CallArgs& args, const Derivative& d)
    : def_(args.def), derivative_(&d), ordinal_(static_cast<size_t>(args.nargs), -1) {
  args_.def = args.def;
  args_.nargs = args.nargs;
  lists_.resize(static_cast<size_t>(args.nargs));
  int32_t k = 0;
  for (int32_t i = 0; i < args.nargs; ++i) {
    kf_value_t v = args.v[i];
    if (v.tag == KF_VALUE_INT_LIST) {
      lists_[static_cast<size_t>(i)].assign(v.v.ints.data, v.v.ints.data + v.v.ints.len);
      v.v.ints.data = lists_[static_cast<size_t>(i)].data();
    } else if (v.tag == KF_VALUE_TENSOR) {
      v.v.tensor = nullptr;  // tensors are read through saved(), never through the copy
    }
    if (args.def->args[i].type == ArgType::Tensor) ordinal_[static_cast<size_t>(i)] = k++;
    args_.owned[i] = v;
  }
  args_.v = args_.owned;
}

// Note [Saved tensors]
// An input is saved as itself: the graph then holds it and the nodes before it, never this
// node, and a double backward (create_graph) differentiates through it. The result is saved
// as a view of its elements without autograd data, since the result holds this node and
// holding the result here would make a cycle; while the node runs under create_graph that view
// points at this node, so that what the formula computes from the result records as well.
void OpNode::save(TensorImpl& t, int32_t index) {
  SavedTensor s;
  if (index >= 0) {
    retain(&t);
    s.value = TensorRef(&t);
  } else {
    s.value = TensorRef(new_view(t, t.shape, t.strides, t.ndim, t.offset, def_->name));
  }
  s.version = version_of(t);
  s.index = index;
  saved_.push_back(std::move(s));
}

void OpNode::set_result_meta(const TensorImpl& r) {
  result_meta_ = InputMeta{{r.shape, r.shape + r.ndim}, r.dtype, r.device};
}

TensorImpl& OpNode::saved(int32_t index) const {
  if (released_) {
    fail(KF_FAILED_PRECONDITION, "autograd: trying to backward through the graph a second time: the "
         "tensors saved by '{}' were freed after the first backward; pass retain_graph=true to "
         "the first backward (or kf_backward) to backward twice", def_->name);
  }
  for (const SavedTensor& s : saved_) {
    if (s.index != index) continue;
    const uint32_t now = version_of(*s.value);
    if (now != s.version) {
      fail(KF_FAILED_PRECONDITION, "autograd: {} of '{}', saved for its backward, was modified by an "
           "in-place op afterwards (version {} when saved, {} now); clone it before the "
           "in-place op, or make the in-place op out of place",
           index < 0 ? std::string("the result") : fmt::format("argument '{}'",
                                                               def_->args[index].name),
           def_->name, s.version, now);
    }
    return *s.value;
  }
  fail(KF_INTERNAL, "autograd: '{}' reads a tensor its formula did not save", def_->name);
}

const InputMeta& OpNode::meta_at(int32_t index) const noexcept {
  if (index < 0) return result_meta_;
  return inputs[static_cast<size_t>(ordinal_[static_cast<size_t>(index)])];
}

IntListView OpNode::shape_of(int32_t index) const noexcept {
  const InputMeta& m = meta_at(index);
  return IntListView(m.shape.data(), static_cast<int32_t>(m.shape.size()));
}

kf_dtype_t OpNode::dtype_of(int32_t index) const noexcept { return meta_at(index).dtype; }

IntListView OpNode::optional_ints(int32_t index) const noexcept {
  return args_.none(index) ? IntListView{} : args_.ints(index);
}

std::optional<int64_t> OpNode::optional_int(int32_t index) const noexcept {
  if (args_.none(index)) return std::nullopt;
  return args_.int_arg(index);
}

std::optional<kf_scalar_t> OpNode::optional_scalar(int32_t index) const noexcept {
  if (args_.none(index)) return std::nullopt;
  return args_.scalar(index);
}

std::optional<double> OpNode::optional_float(int32_t index) const noexcept {
  if (args_.none(index)) return std::nullopt;
  return args_.float_arg(index);
}

void OpNode::apply(TensorImpl& grad, std::vector<TensorRef>& grads) {
  TensorRef out[kMaxTensorArgs];
  TensorImpl* result = nullptr;
  for (SavedTensor& s : saved_) {
    if (s.index < 0 && grad_enabled()) result = s.value.get();
  }
  if (result != nullptr) ensure_meta(*result).grad_fn = shared_from_this();
  try {
    derivative_->fn(*this, grad, out);
  } catch (...) {
    if (result != nullptr) meta_of(*result)->grad_fn.reset();
    throw;
  }
  if (result != nullptr) meta_of(*result)->grad_fn.reset();
  for (size_t k = 0; k < grads.size() && k < kMaxTensorArgs; ++k) grads[k] = std::move(out[k]);
}

void OpNode::release_saved() noexcept {
  saved_.clear();
  released_ = true;
}

}  // namespace kf::autograd
