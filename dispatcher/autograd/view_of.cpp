#include "autograd/view_of.hpp"

#include "dispatch/dispatch.hpp"

namespace kf::autograd {

ViewStep::ViewStep(const CallArgs& a) : def_(a.def), nargs_(a.nargs) {
  lists_.resize(static_cast<size_t>(a.nargs));
  for (int32_t i = 0; i < a.nargs; ++i) {
    kf_value_t v = a.v[i];
    if (v.tag == KF_VALUE_INT_LIST) {
      lists_[static_cast<size_t>(i)].assign(v.v.ints.data, v.v.ints.data + v.v.ints.len);
      v.v.ints.data = lists_[static_cast<size_t>(i)].data();
    } else if (v.tag == KF_VALUE_TENSOR) {
      v.v.tensor = nullptr;  // the view's input: given to apply()
    }
    args_[i] = v;
  }
}

TensorRef ViewStep::apply(TensorImpl& t) const {
  kf_value_t args[kMaxArgs];
  for (int32_t i = 0; i < nargs_; ++i) {
    args[i] = args_[i].tag == KF_VALUE_TENSOR ? kf_value_tensor(handle_of(&t)) : args_[i];
  }
  TensorImpl* out[kMaxOutputs] = {};
  run_boxed(*def_, args, nargs_, CallMode::Functional, nullptr, out);
  return TensorRef(out[0]);
}

TensorRef replay(const ViewChain& chain, TensorImpl& t) {
  retain(&t);
  TensorRef v(&t);
  for (const auto& s : chain) v = s->apply(*v);
  return v;
}

}  // namespace kf::autograd
