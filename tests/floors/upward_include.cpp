// A deliberate upward include: the tensor floor (runtime/tensor) including the dispatcher,
// which stands above it. Built only by floors.upward_include_fails_the_build, which passes when
// the compiler cannot find the header (tests/floors/CMakeLists.txt).
#include "tensor/tensor_impl.hpp"

#include "dispatch/dispatch.hpp"
