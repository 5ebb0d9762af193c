// element_read.hpp — how a kernel reads an input element: elem(x, i).
//
// Note [Bool bytes] (docs/reliability.md): a bool element is true when its byte is nonzero.
// Memory kernforge did not write itself (kf_tensor_from_blob, a DLPack import, bytes written
// through kf_tensor_data_ptr) may hold any byte in a bool, and reading a C++ bool whose byte is
// neither 0 nor 1 is undefined behaviour (in practice sum gives 258 and `b == true` is false).
// So every kernel that reads bool inputs reads them through elem, as `byte != 0`, and writes
// only 0 and 1; for every other type elem is the plain load. Header-only, no state.
#pragma once

#include <cstdint>
#include <type_traits>

namespace kf::cpu {

/// Element i of x (a pointer to an element type, possibly const).
template <class T>
inline std::remove_const_t<T> elem(const T* x, int64_t i = 0) {
  if constexpr (std::is_same_v<std::remove_const_t<T>, bool>) {
    return reinterpret_cast<const unsigned char*>(x)[i] != 0;
  } else {
    return x[i];
  }
}

/// Element i of a strided row at p (stride in bytes).
template <class T>
inline std::remove_const_t<T> elem_at(const char* p, int64_t i, int64_t stride) {
  return elem(reinterpret_cast<const T*>(p + i * stride));
}

}  // namespace kf::cpu
