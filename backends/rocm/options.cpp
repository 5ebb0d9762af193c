// options.cpp — the rocm backend's options (vendor_discovery.hpp): rocBLAS is opened here,
// once devices were found (rocblas_library.hpp), and describe names the GEMM engine: "; GEMM
// rocBLAS 4.1.0 (/opt/rocm/lib/librocblas.so.4)" or "; GEMM tiled kernel (no rocBLAS:
// librocblas.so.4 not found; ...)".
#include <string>

#include "vendor_discovery.hpp"

namespace kf::cuda {

void configure(CudaBackend& b) { b.blas.rocblas = open_rocblas(b.blas.why_tiled); }

std::string describe_options(const CudaBackend& b) {
  const RocblasLibrary* lib = b.blas.rocblas.get();
  if (lib == nullptr) return "; GEMM tiled kernel (no rocBLAS: " + b.blas.why_tiled + ")";
  return "; GEMM rocBLAS " + (lib->version().empty() ? std::string("?") : lib->version()) +
         " (" + lib->path() + ")";
}

}  // namespace kf::cuda
