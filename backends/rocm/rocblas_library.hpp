// rocblas_library.hpp — rocBLAS, found at run time: Debian 12's ROCm has no rocBLAS, so the
// plugin neither links nor includes it. When a ROCm installation provides librocblas, init opens
// it (dlopen, by the SONAMEs of ROCm 5 and 6) and the floating-point GEMM goes through
// rocblas_gemm_strided_batched_ex; without it, through the shared tiled kernel (rocm_gemm.cpp).
// The C declarations below are rocBLAS's public API (rocblas-types.h, rocblas-functions.h):
// the values of its enums are part of that ABI.
//
// Lifetime: opened by open_rocblas at init, closed with the plugin's state. Thread safety: the
// function pointers are read-only after open; handles come from a pool guarded by a mutex, one
// handle per stream in use at a time (as cuBLAS's pool on cuda).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace kf::cuda {

namespace rocblas {
using Handle = void*;        // rocblas_handle
using Status = int32_t;      // rocblas_status; 0 is rocblas_status_success
constexpr Status kSuccess = 0;
constexpr int32_t kOperationNone = 111;  // rocblas_operation_none
constexpr int32_t kOperationTranspose = 112;
constexpr int32_t kF16 = 150, kF32 = 151, kF64 = 152, kBF16 = 168;  // rocblas_datatype_*_r
constexpr int32_t kAlgoStandard = 0;  // rocblas_gemm_algo_standard

struct Api {
  Status (*create_handle)(Handle*) = nullptr;
  Status (*destroy_handle)(Handle) = nullptr;
  Status (*set_stream)(Handle, void*) = nullptr;
  Status (*get_version_string)(char*, size_t) = nullptr;
  Status (*gemm_strided_batched_ex)(Handle, int32_t, int32_t, int32_t, int32_t, int32_t,
                                    const void*, const void*, int32_t, int32_t, int64_t,
                                    const void*, int32_t, int32_t, int64_t, const void*,
                                    const void*, int32_t, int32_t, int64_t, void*, int32_t,
                                    int32_t, int64_t, int32_t, int32_t, int32_t, int32_t,
                                    uint32_t) = nullptr;
};
}  // namespace rocblas

/// The SONAMEs tried, newest first (ROCm 6: librocblas.so.4; ROCm 5: .so.3, .so.0).
const std::vector<std::string>& rocblas_sonames();

class RocblasLibrary {
 public:
  ~RocblasLibrary();
  RocblasLibrary(const RocblasLibrary&) = delete;
  RocblasLibrary& operator=(const RocblasLibrary&) = delete;

  /// rocBLAS opened from `soname` (dlopen), or null with `why` saying what was missing.
  static std::unique_ptr<RocblasLibrary> open(const std::string& soname, std::string& why);

  const rocblas::Api& api() const { return api_; }
  const std::string& path() const { return path_; }
  const std::string& version() const { return version_; }

  /// A handle for `stream` (the current device's), made or reused; null when rocBLAS cannot
  /// make one.
  rocblas::Handle acquire(int32_t device, void* stream);
  void release(int32_t device, void* stream, rocblas::Handle h) noexcept;

 private:
  RocblasLibrary() = default;
  void* lib_ = nullptr;
  rocblas::Api api_;
  std::string path_, version_;
  std::mutex mutex_;
  std::map<std::pair<int32_t, void*>, std::vector<rocblas::Handle>> free_;
};

/// rocBLAS from the first SONAME that opens, or null; `why` then lists what was tried.
std::unique_ptr<RocblasLibrary> open_rocblas(std::string& why);

}  // namespace kf::cuda
