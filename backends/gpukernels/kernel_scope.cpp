// kernel_scope.cpp — DeviceGuard, KernelScope and StreamScratch (kernel_scope.hpp).
#include "kernel_scope.hpp"

#include <string>

#include "cuda_check.hpp"
#include "kernforge/plugin.hpp"

namespace kf::cuda {

DeviceGuard::DeviceGuard(int32_t ordinal) {
  int current = -1;
  check(cudaGetDevice(&current), KF_GPU_NAME(cudaGetDevice));
  if (current != ordinal) {
    check(cudaSetDevice(ordinal), KF_GPU_NAME(cudaSetDevice));
    previous_ = current;
  }
}

DeviceGuard::~DeviceGuard() {
  if (previous_ >= 0) (void)cudaSetDevice(previous_);
}

namespace {

const DeviceInfo& device_of(CudaBackend* b, const kf_tensor_view_t& anchor) {
  const DeviceInfo* d = b != nullptr ? b->device(anchor.device.index) : nullptr;
  if (d == nullptr) {
    throw kf::plugin::KernelError(
        KF_INVALID_ARGUMENT, KF_GPU_VENDOR ":" + std::to_string(anchor.device.index) +
                                 " is not a device of this backend (it has " +
                                 std::to_string(b != nullptr ? b->devices.size() : 0) + ")");
  }
  return *d;
}

}  // namespace

KernelScope::KernelScope(const kf_kernel_call_t& call, const kf_tensor_view_t& anchor)
    : backend_(backend_of(call.plugin_state)),
      device_(&device_of(backend_, anchor)),
      guard_(device_->ordinal),
      stream_(static_cast<cudaStream_t>(call.stream)) {
  // An earlier failure this thread already reported (a slot's, or a failed allocation) must not
  // be taken for this call's launch error by check(); a sticky error (a kernel fault) stays
  // and fails this call's launches again.
  (void)cudaGetLastError();
}

void KernelScope::check(const char* op) const {
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) throw_error(e, op);
}

StreamScratch::StreamScratch(size_t bytes, cudaStream_t stream) : stream_(stream) {
  if (bytes == 0) return;
  const cudaError_t e = cudaMallocAsync(&ptr_, bytes, stream);
  if (e != cudaSuccess) {
    // The failure is also the thread's last error (an allocation failure is not sticky):
    // cleared, or the next op's KernelScope::check would report it as its own launch failure.
    (void)cudaGetLastError();
    ptr_ = nullptr;
    throw_error(e, "scratch memory (" KF_GPU_NAME(cudaMallocAsync) ")");
  }
}

StreamScratch::~StreamScratch() {
  if (ptr_ != nullptr) (void)cudaFreeAsync(ptr_, stream_);
}

}  // namespace kf::cuda
