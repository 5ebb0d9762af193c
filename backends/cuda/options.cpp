// options.cpp — the cuda backend's options (vendor_discovery.hpp): KERNFORGE_CUDA_ALLOW_TF32=1
// lets float32 GEMM round its inputs to TF32 (10-bit mantissa), as PyTorch's
// torch.backends.cuda.matmul.allow_tf32; describe says which is in force.
#include <cstdlib>
#include <cstring>
#include <string>

#include "vendor_discovery.hpp"

namespace kf::cuda {

void configure(CudaBackend& b) {
  const char* v = secure_getenv("KERNFORGE_CUDA_ALLOW_TF32");
  b.allow_tf32 = v != nullptr && std::strcmp(v, "1") == 0;
}

std::string describe_options(const CudaBackend& b) {
  return b.allow_tf32 ? "; TF32 on (KERNFORGE_CUDA_ALLOW_TF32=1)" : "; TF32 off";
}

}  // namespace kf::cuda
