// Autograd on the Python Tensor: requires_grad, grad, is_leaf, grad_fn, detach, backward, and
// the module functions kernforge.autograd and the grad-mode context managers call. Everything
// goes through the C ABI's autograd functions (2.4).
#include <vector>

#include <nanobind/stl/vector.h>

#include "errors.hpp"
#include "tensor.hpp"

namespace nb = nanobind;

namespace kfpy {
namespace {

kf_tensor_t handle_of(nb::handle o, const char* what) {
  const kf_tensor_t h = tensor_of(o);
  if (h == nullptr) {
    throw nb::type_error((std::string(what) + " must be a Tensor, not " +
                          nb::type_name(o.type()).c_str()).c_str());
  }
  return h;
}

// A list of tensors (None entries allowed when `nulls`).
std::vector<kf_tensor_t> handles(nb::handle seq, const char* what, bool nulls) {
  std::vector<kf_tensor_t> out;
  for (nb::handle o : seq) {
    out.push_back(nulls && o.is_none() ? nullptr : handle_of(o, what));
  }
  return out;
}

nb::object grad_of(const Tensor& t) {
  kf_tensor_t g = nullptr;
  check(kf_tensor_grad(t.h, &g));
  return g == nullptr ? nb::none() : wrap(g);
}

void set_grad(const Tensor& t, nb::handle g) {
  check(kf_tensor_set_grad(t.h, g.is_none() ? nullptr : handle_of(g, "grad")));
}

nb::object grad_fn_of(const Tensor& t) {
  const char* name = nullptr;
  check(kf_tensor_grad_fn_name(t.h, &name));
  if (name == nullptr) return nb::none();
  return nb::str(name);
}

void run_backward(nb::handle outputs, nb::handle grads, bool retain_graph, bool create_graph) {
  std::vector<kf_tensor_t> outs = handles(outputs, "outputs", false);
  std::vector<kf_tensor_t> gs;
  if (!grads.is_none()) gs = handles(grads, "grad_tensors", true);
  if (!gs.empty() && gs.size() != outs.size()) {
    throw nb::value_error("backward: grad_tensors must have one entry per output");
  }
  clear_hook_error();
  const kf_status_t status = kf_backward(outs.data(), gs.empty() ? nullptr : gs.data(),
                                         static_cast<int32_t>(outs.size()), retain_graph,
                                         create_graph);
  if (status != KF_OK) raise_hook_error();  // a hook's own exception, as it raised it
  check(status);
}

nb::list run_grad(nb::handle outputs, nb::handle inputs, nb::handle grads, bool retain_graph,
                  bool create_graph, bool allow_unused) {
  std::vector<kf_tensor_t> outs = handles(outputs, "outputs", false);
  std::vector<kf_tensor_t> ins = handles(inputs, "inputs", false);
  std::vector<kf_tensor_t> gs;
  if (!grads.is_none()) gs = handles(grads, "grad_outputs", true);
  if (!gs.empty() && gs.size() != outs.size()) {
    throw nb::value_error("grad: grad_outputs must have one entry per output");
  }
  std::vector<kf_tensor_t> result(ins.size(), nullptr);
  check(kf_autograd_grad(outs.data(), gs.empty() ? nullptr : gs.data(),
                         static_cast<int32_t>(outs.size()), ins.data(),
                         static_cast<int32_t>(ins.size()), retain_graph, create_graph,
                         allow_unused, result.data()));
  nb::list out;
  for (kf_tensor_t g : result) out.append(g == nullptr ? nb::none() : wrap(g));
  return out;
}

}  // namespace

void bind_autograd(nb::module_& m, nb::class_<Tensor>& cls) {
  cls.def_prop_rw(
         "requires_grad",
         [](const Tensor& t) {
           bool r = false;
           check(kf_tensor_requires_grad(t.h, &r));
           return r;
         },
         [](Tensor& t, bool r) { check(kf_tensor_set_requires_grad(t.h, r)); },
         "Whether gradients flow to this tensor (set it on a leaf).")
      .def_prop_rw("grad", &grad_of, &set_grad, nb::arg("value").none(),
                   "The gradient backward accumulated, or None.")
      .def_prop_ro("is_leaf", [](const Tensor& t) {
        bool leaf = true;
        check(kf_tensor_is_leaf(t.h, &leaf));
        return leaf;
      }, "Whether no recorded op made this tensor.")
      .def_prop_ro("grad_fn", &grad_fn_of,
                   "The name of the op that made this tensor under autograd, or None.")
      .def("detach", [](const Tensor& t) {
        kf_tensor_t out = nullptr;
        check(kf_tensor_detach(t.h, &out));
        return wrap(out);
      }, "A view of the same elements that does not require grad.");
  bind_grad_hooks(m, cls);
  m.def("_backward", &run_backward, nb::arg("outputs"), nb::arg("grads").none(),
        nb::arg("retain_graph"), nb::arg("create_graph"));
  m.def("_autograd_grad", &run_grad, nb::arg("outputs"), nb::arg("inputs"),
        nb::arg("grads").none(), nb::arg("retain_graph"), nb::arg("create_graph"),
        nb::arg("allow_unused"));
  m.def("_set_grad_enabled", [](bool on) {
    bool previous = true;
    check(kf_set_grad_enabled(on, &previous));
    return previous;
  });
  m.def("_is_grad_enabled", [] {
    bool on = true;
    check(kf_is_grad_enabled(&on));
    return on;
  });
}

}  // namespace kfpy
