// Tensor.register_post_accumulate_grad_hook (C ABI 2.9): a Python callable run by backward
// right after it accumulated the leaf's .grad, as torch's. The callable is held by the core
// (the hook's user_data) until the hook is removed or the tensor freed. An exception the
// callable raises stops the backward: it is kept here, per thread, and raised again by the
// backward call as it was raised.
#include <memory>

#include "errors.hpp"
#include "tensor.hpp"

namespace nb = nanobind;

namespace kfpy {
namespace {

struct PyHook {
  nb::object fn;
};

thread_local std::unique_ptr<nb::python_error> t_hook_error;

kf_status_t keep_error(nb::python_error&& e) {
  t_hook_error = std::make_unique<nb::python_error>(std::move(e));
  return KF_FAILED_PRECONDITION;
}

kf_status_t call_hook(kf_tensor_t leaf, void* user_data) noexcept {
  nb::gil_scoped_acquire gil;
  try {
    check(kf_tensor_retain(leaf));
    nb::object result = static_cast<PyHook*>(user_data)->fn(wrap(leaf));
    if (!result.is_none()) {
      PyErr_SetString(PyExc_RuntimeError, "a post-accumulate-grad hook must return None: it "
                      "runs for its effect (on the leaf's .grad), not for a value");
      throw nb::python_error();
    }
    return KF_OK;
  } catch (nb::python_error& e) {
    return keep_error(std::move(e));
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
    return keep_error(nb::python_error());
  }
}

bool interpreter_gone() noexcept {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsInitialized() == 0 || Py_IsFinalizing() != 0;
#else
  return Py_IsInitialized() == 0 || _Py_IsFinalizing() != 0;
#endif
}

void release_hook(void* user_data) noexcept {
  auto* hook = static_cast<PyHook*>(user_data);
  if (interpreter_gone()) return;  // the callable goes with the interpreter
  nb::gil_scoped_acquire gil;
  delete hook;
}

/// What register_post_accumulate_grad_hook returns: remove() takes the hook off (again: no-op).
struct HookHandle {
  nb::object tensor;  // the leaf (held: the core needs it to find the hook)
  uint64_t id = 0;
  bool removed = false;

  void remove() {
    if (removed) return;
    removed = true;
    check(kf_tensor_remove_post_accumulate_grad_hook(tensor_of(tensor), id));
    tensor = nb::none();
  }
};

HookHandle register_hook(Tensor& self, nb::object fn) {
  if (!PyCallable_Check(fn.ptr())) {
    throw nb::type_error("register_post_accumulate_grad_hook: the hook must be callable, "
                         "as hook(tensor) -> None");
  }
  auto hook = std::make_unique<PyHook>(PyHook{std::move(fn)});
  HookHandle h;
  check(kf_tensor_register_post_accumulate_grad_hook(self.h, &call_hook, hook.get(),
                                                     &release_hook, &h.id));
  hook.release();  // the core holds it now
  h.tensor = nb::find(&self);
  return h;
}

}  // namespace

void raise_hook_error() {
  if (!t_hook_error) return;
  std::unique_ptr<nb::python_error> e = std::move(t_hook_error);
  e->restore();
  throw nb::python_error();
}

void clear_hook_error() noexcept { t_hook_error.reset(); }

void bind_grad_hooks(nb::module_& m, nb::class_<Tensor>& cls) {
  nb::class_<HookHandle>(m, "RemovableHandle",
                         "Takes a hook off again: remove(), or leaving a with block.")
      .def("remove", &HookHandle::remove, "Removes the hook (again: nothing happens).")
      .def("__enter__", [](nb::handle self) { return nb::borrow(self); })
      .def("__exit__", [](HookHandle& h, nb::args) { h.remove(); });
  cls.def("register_post_accumulate_grad_hook", &register_hook, nb::arg("hook"),
          "Registers hook(tensor) -> None on this leaf: backward calls it right after it "
          "accumulated the leaf's .grad (torch's Tensor.register_post_accumulate_grad_hook). "
          "Returns a handle whose remove() takes it off.");
}

}  // namespace kfpy
