// kernforge._C: the Python extension. It includes only the C ABI (kernforge/kernforge.h, with
// the generated typed entry points) and holds no C++ type of the core: tensors are kf_tensor_t
// handles, ops are kf_op_t. The package's __init__.py loads the native libraries in order and
// calls init() before anything here touches the runtime.
#include <cstdlib>
#include <cstring>

#include <nanobind/nanobind.h>

#include "errors.hpp"
#include "tensor.hpp"

namespace nb = nanobind;

namespace kfpy {
void bind_ops(nb::module_& m);
void bind_runtime(nb::module_& m);
void bind_dlpack(nb::module_& m);
void bind_safetensors(nb::module_& m);
void bind_distributed(nb::module_& m);
}  // namespace kfpy

NB_MODULE(_C, m) {
  m.doc() = "kernforge's native extension (over the C ABI kernforge.h)";
  m.attr("MAX_NDIM") = KF_MAX_NDIM;
  // Note [nanobind's leak report]: at exit nanobind lists the instances of its types that are
  // still alive. The extension keeps none (each op's function holds only its own op; the
  // dtypes live in module globals), so what it would list is what the program itself still
  // referenced when the interpreter stopped: a daemon thread's frame, a cycle through a numpy
  // object array (which CPython never frees). It calls that "a reference counting issue in the
  // binding code", which misleads users; KERNFORGE_LEAK_WARNINGS=1 turns the report on, as the
  // tests do (python.test_leaks).
  const char* leaks = std::getenv("KERNFORGE_LEAK_WARNINGS");
  nb::set_leak_warnings(leaks != nullptr && std::strcmp(leaks, "1") == 0);
  kfpy::bind_errors(m);
  kfpy::bind_tensor(m);
  kfpy::bind_buffers(m);
  kfpy::bind_sequences(m);
  kfpy::bind_factories(m);
  kfpy::bind_ops(m);
  kfpy::bind_runtime(m);
  kfpy::bind_dlpack(m);
  kfpy::bind_safetensors(m);
  kfpy::bind_distributed(m);
}
