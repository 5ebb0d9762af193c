// fft_plans.cpp — the VkFFT applications of Note [VkFFT applications] (fft_plans.hpp).
#include "fft_plans.hpp"

#include <string>

#include "kernforge/plugin.hpp"

#ifndef KF_OPENCL_FFT
#define KF_OPENCL_FFT 0  // a build without VkFFT (CMakeLists.txt)
#endif
#if KF_OPENCL_FFT
#define VKFFT_BACKEND 3  // OpenCL
#include <vkFFT.h>
#endif

namespace kf::opencl {

uint64_t fft_buffer_bytes(const FftShape& s) {
  const uint64_t part = s.fp64 ? 8 : 4;
  const uint64_t row = s.real ? (s.n / 2 + 1) : s.n * s.inner;  // complex numbers
  return s.batch * row * 2 * part;
}

bool fft_available() noexcept { return KF_OPENCL_FFT != 0; }

#if KF_OPENCL_FFT

namespace {

[[noreturn]] void fail(const char* what, const FftShape& s, int code) {
  throw kf::plugin::KernelError(
      KF_INTERNAL, std::string("VkFFT could not ") + what + " the " +
                       (s.real ? "real" : "complex") + " transform of length " +
                       std::to_string(s.n) + " (batch " + std::to_string(s.batch) + ", stride " +
                       std::to_string(s.inner) + "): VkFFTResult " + std::to_string(code));
}

}  // namespace

struct FftPlans::Plan {
  FftShape shape;
  VkFFTApplication app = {};
  std::mutex mutex;  // held while a transform is queued (VkFFTAppend sets kernel arguments)
  // VkFFT keeps the pointers it is given to these, so they live as long as the application.
  cl_device_id device;
  cl_context context;
  cl_mem buffer;
  cl_command_queue queue = nullptr;
  uint64_t bytes;

  Plan(const FftShape& s, cl_context ctx, cl_device_id dev, cl_mem buf)
      : shape(s), device(dev), context(ctx), buffer(buf), bytes(fft_buffer_bytes(s)) {
    VkFFTConfiguration c = {};
    // [batch, n, inner]: an inner stride is a second dimension whose transform is omitted.
    c.FFTdim = s.inner > 1 ? 2 : 1;
    c.size[0] = s.inner > 1 ? s.inner : s.n;
    c.size[1] = s.inner > 1 ? s.n : 1;
    c.omitDimension[0] = s.inner > 1 ? 1 : 0;
    c.numberBatches = s.batch;
    c.performR2C = s.real ? 1 : 0;
    c.doublePrecision = s.fp64 ? 1 : 0;
    c.useUint64 = bytes >= (uint64_t{1} << 31) ? 1 : 0;  // 64-bit indices past 2 GiB
    c.device = &device;
    c.context = &context;
    c.buffer = &buffer;
    c.bufferSize = &bytes;
    const VkFFTResult r = initializeVkFFT(&app, c);
    if (r != VKFFT_SUCCESS) fail("make", s, r);
  }
  ~Plan() { deleteVkFFT(&app); }
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
};

FftPlans::FftPlans() = default;
FftPlans::~FftPlans() = default;

std::shared_ptr<FftPlans::Plan> FftPlans::plan(const FftShape& s, cl_context context,
                                               cl_device_id device, cl_mem buffer) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = plans_.begin(); it != plans_.end(); ++it) {
      if ((*it)->shape == s) {
        plans_.splice(plans_.begin(), plans_, it);
        return plans_.front();
      }
    }
  }
  // Made outside the lock: building the programs takes a while (Note [VkFFT applications]).
  // Two threads making the same shape at once each make one; both are kept until evicted.
  auto made = std::make_shared<Plan>(s, context, device, buffer);
  std::lock_guard<std::mutex> lock(mutex_);
  plans_.push_front(made);
  if (plans_.size() > kMaxPlans) plans_.pop_back();
  return made;
}

void FftPlans::run(const FftShape& s, cl_context context, cl_device_id device, cl_mem buffer,
                   bool forward) {
  const std::shared_ptr<Plan> p = plan(s, context, device, buffer);
  std::lock_guard<std::mutex> lock(p->mutex);
  p->buffer = buffer;
  p->queue = s.queue;
  VkFFTLaunchParams launch = {};
  launch.commandQueue = &p->queue;
  launch.buffer = &p->buffer;
  // VkFFT's direction: -1 the forward transform, 1 the inverse.
  const VkFFTResult r = VkFFTAppend(&p->app, forward ? -1 : 1, &launch);
  if (r != VKFFT_SUCCESS) fail("queue", s, r);
}

#else

struct FftPlans::Plan {};
FftPlans::FftPlans() = default;
FftPlans::~FftPlans() = default;

void FftPlans::run(const FftShape& /*s*/, cl_context /*context*/, cl_device_id /*device*/,
                   cl_mem /*buffer*/, bool /*forward*/) {
  throw kf::plugin::KernelError(KF_UNIMPLEMENTED, "this opencl plugin was built without VkFFT");
}

#endif

}  // namespace kf::opencl
