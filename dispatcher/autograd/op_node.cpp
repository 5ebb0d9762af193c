#include "autograd/op_node.hpp"

#include "autograd/autograd_meta.hpp"
#include "autograd/grad_mode.hpp"
#include "core/error.hpp"
#include "core_ops.hpp"

namespace kf::autograd {

OpNode::OpNode(const CallArgs& args, const Derivative& d)
    : def_(args.def), derivative_(&d), ordinal_(static_cast<size_t>(args.nargs), -1),
      result_meta_(static_cast<size_t>(args.def->nreturns)) {
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
// node, and a double backward (create_graph) differentiates through it. An output is saved
// as a view of its elements without autograd data, since the output holds this node and
// holding the output here would make a cycle; while the node runs under create_graph that view
// points at this node (as the output it is), so that what the formula computes from the
// output records as well.
void OpNode::save(TensorImpl& t, int32_t index, uint32_t pending) {
  SavedTensor s;
  if (index >= 0) {
    retain(&t);
    s.value = TensorRef(&t);
  } else {
    s.value = TensorRef(new_view(t, t.shape, t.strides, t.ndim, t.offset, def_->name));
  }
  s.version = version_of(t) + pending;
  s.index = index;
  saved_.push_back(std::move(s));
}

void OpNode::set_result_meta(int32_t k, const TensorImpl& r) {
  result_meta_[static_cast<size_t>(k)] = InputMeta{{r.shape, r.shape + r.ndim}, r.dtype,
                                                   r.device};
}

TensorImpl& OpNode::grad_or_zeros(TensorRef* in, int32_t k) const {
  TensorRef& g = in[k];
  if (!g) {
    const InputMeta& m = meta_at(-1 - k);
    g = ops::zeros(IntListView(m.shape.data(), static_cast<int32_t>(m.shape.size())), m.dtype,
                   m.device);
  }
  return *g;
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
           index < 0 ? fmt::format("output {}", -1 - index) : fmt::format("argument '{}'",
                                                               def_->args[index].name),
           def_->name, s.version, now);
    }
    return *s.value;
  }
  fail(KF_INTERNAL, "autograd: '{}' reads a tensor its formula did not save", def_->name);
}

const InputMeta& OpNode::meta_at(int32_t index) const noexcept {
  if (index < 0) return result_meta_[static_cast<size_t>(-1 - index)];
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

// Under create_graph the saved outputs point at this node while its formulas run (Note
// [Saved tensors]); `on` false detaches them again.
void OpNode::link_saved_outputs(bool on) {
  for (SavedTensor& s : saved_) {
    if (s.index >= 0) continue;
    if (!on) {
      if (AutogradMeta* m = meta_of(*s.value)) m->grad_fn.reset();
      continue;
    }
    AutogradMeta& m = ensure_meta(*s.value);
    m.grad_fn = shared_from_this();
    m.output_nr = -1 - s.index;
  }
}

void OpNode::apply(std::vector<TensorRef>& in, std::vector<TensorRef>& grads) {
  TensorRef out[kMaxTensorArgs];
  in.resize(static_cast<size_t>(def_->nreturns));
  const bool link = grad_enabled();
  if (link) link_saved_outputs(true);
  try {
    derivative_->fn(*this, in.data(), out);
  } catch (...) {
    if (link) link_saved_outputs(false);
    throw;
  }
  if (link) link_saved_outputs(false);
  for (size_t k = 0; k < grads.size() && k < kMaxTensorArgs; ++k) grads[k] = std::move(out[k]);
}

void OpNode::release_saved() noexcept {
  saved_.clear();
  released_ = true;
}

}  // namespace kf::autograd
