// fft_plans.hpp — VkFFT's OpenCL transforms for the fft kernels (fft_kernels.cpp): one VkFFT
// application per shape and queue, built on first use and kept, at most kMaxPlans of them.
//
// Note [VkFFT applications]: VkFFT (libvkfft-dev, MIT, one header) generates OpenCL C for a
// transform shape and builds it when the application is made: 0.1 to 0.2 s a shape on PoCL with its
// compiler cache warm, 0.5 to 3.5 s without. Applications are therefore cached. The key holds the
// queue, because an application owns a temporary buffer for its long and prime lengths (four-step
// and Bluestein): two queues running one application at once could share it. An application's
// kernels take their buffer as an argument, set when a transform is queued, so one transform at a
// time is queued per application (its mutex). An evicted application is deleted at once: OpenCL
// keeps its kernels and buffers alive until the commands queued on them have run.
//
// A transform runs on a cl_mem, which VkFFT takes as its buffer: the kernels make one from
// memory of their own (fft_kernels.cpp, Note [FFT scratch]).
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>

#include <CL/cl.h>

namespace kf::opencl {

/// One batched 1-D transform over a contiguous buffer seen as [batch, n, inner], along n.
struct FftShape {
  cl_command_queue queue = nullptr;
  bool real = false;  // r2c (forward) and c2r (inverse), in place, inner 1: each of the batch
                      // rows holds n reals in a row of n / 2 + 1 complex numbers
  bool fp64 = false;  // complex128 / float64, else complex64 / float32
  uint64_t n = 0;     // the transform's length (> 1)
  uint64_t inner = 1; // elements between two of a line (complex only)
  uint64_t batch = 1;
  bool operator==(const FftShape& o) const {
    return queue == o.queue && real == o.real && fp64 == o.fp64 && n == o.n && inner == o.inner &&
           batch == o.batch;
  }
};

/// The bytes a transform of `s` reads and writes.
uint64_t fft_buffer_bytes(const FftShape& s);

/// Whether the build has VkFFT (KF_OPENCL_FFT); without it the fft ops are the CPU fallback's.
bool fft_available() noexcept;

class FftPlans {
 public:
  static constexpr size_t kMaxPlans = 32;

  FftPlans();
  ~FftPlans();
  FftPlans(const FftPlans&) = delete;
  FftPlans& operator=(const FftPlans&) = delete;

  /// Queues the transform of `s` on `buffer` (fft_buffer_bytes(s) bytes) on s.queue: forward
  /// (exp(-2 pi i jk / n), r2c for a real shape) or inverse (exp(+...), c2r), unnormalized.
  /// Throws kf::plugin::KernelError with VkFFT's code when it cannot make or queue it.
  void run(const FftShape& s, cl_context context, cl_device_id device, cl_mem buffer,
           bool forward);

 private:
  struct Plan;
  std::shared_ptr<Plan> plan(const FftShape& s, cl_context context, cl_device_id device,
                             cl_mem buffer);

  std::mutex mutex_;                        // guards plans_
  std::list<std::shared_ptr<Plan>> plans_;  // most recently used first
};

}  // namespace kf::opencl
