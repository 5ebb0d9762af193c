// launch.hpp — one kernel launch as the shared OpenCL C kernels describe it, for any backend
// that can run them (opencl through an OpenCL queue, xpu through a Level Zero command list).
//
// A program is one kernel source file (a Family) built for one dtype (the -D KF_DT=<kf_dtype_t>
// the source is specialised with): ProgramKey names it. The backend builds or loads each
// program once per device and finds kernels in it by name. A Launch is everything a launch
// needs: the program, the kernel's name, its arguments in order and the range. Ranges are
// whole work-groups: global[i] is a multiple of local[i], and kernels check their bounds.
//
// Plain values, no ownership: a Launch points at the caller's argument bytes, which live until
// launch() returns (backends copy them into the launch, as clSetKernelArg and
// zeKernelSetArgumentValue do).
#pragma once

#include <cstddef>
#include <cstdint>

namespace kf::clk {

/// The kernel source files, one program each per dtype. kernels/<name>.cl for each.
enum class Family : int32_t {
  Copy, Fill, Binary, Unary, Reduce, Linalg, Softmax, Index, Scan, Sort, Count
};

constexpr int32_t kFamilyCount = static_cast<int32_t>(Family::Count);

/// "copy", "fill", ...: the source's file name without .cl.
const char* family_name(Family family) noexcept;

/// One program: a family built for one dtype (kf_dtype_t).
struct ProgramKey {
  Family family;
  int32_t dtype;
};

/// One kernel argument.
struct Arg {
  enum Kind : int32_t {
    kPointer,  // a device pointer (`pointer`): an SVM pointer (opencl), a USM pointer (xpu)
    kValue,    // `size` bytes at `bytes`, passed by value (scalars and the layout structs)
    kLocal     // `size` bytes of work-group local memory (no data)
  };
  Kind kind = kValue;
  const void* pointer = nullptr;
  const void* bytes = nullptr;
  size_t size = 0;
};

inline Arg pointer_arg(const void* p) { return Arg{Arg::kPointer, p, nullptr, sizeof(void*)}; }
template <class T>
inline Arg value_arg(const T& v) { return Arg{Arg::kValue, nullptr, &v, sizeof(T)}; }
inline Arg local_arg(size_t bytes) { return Arg{Arg::kLocal, nullptr, nullptr, bytes}; }

constexpr int32_t kMaxArgs = 12;

/// One launch: program, kernel, arguments and an NDRange of whole work-groups.
struct Launch {
  ProgramKey program{Family::Copy, 0};
  const char* kernel = "";
  Arg args[kMaxArgs];
  int32_t nargs = 0;
  uint32_t dims = 1;
  size_t global[3] = {1, 1, 1};
  size_t local[3] = {1, 1, 1};

  Launch& arg(const Arg& a) {
    args[nargs++] = a;
    return *this;
  }
};

}  // namespace kf::clk
