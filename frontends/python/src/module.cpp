// kernforge._C: the Python extension. It includes only the C ABI (kernforge/kernforge.h, with
// the generated typed entry points) and holds no C++ type of the core: tensors are kf_tensor_t
// handles, ops are kf_op_t. The package's __init__.py loads the native libraries in order and
// calls init() before anything here touches the runtime.
#include <nanobind/nanobind.h>

#include "errors.hpp"
#include "tensor.hpp"

namespace nb = nanobind;

namespace kfpy {
void bind_ops(nb::module_& m);
void bind_runtime(nb::module_& m);
void bind_dlpack(nb::module_& m);
}  // namespace kfpy

NB_MODULE(_C, m) {
  m.doc() = "kernforge's native extension (over the C ABI kernforge.h)";
  kfpy::bind_errors(m);
  kfpy::bind_tensor(m);
  kfpy::bind_buffers(m);
  kfpy::bind_ops(m);
  kfpy::bind_runtime(m);
  kfpy::bind_dlpack(m);
}
