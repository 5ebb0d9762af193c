// fft_plans.cpp — making and caching cuFFT plans (fft_plans.hpp, Note [cuFFT plans and
// streams]).
#include "fft_plans.hpp"

#include <cufftXt.h>

#include <string>

#include "kernforge/plugin.hpp"
#include "library_check.hpp"

namespace kf::cuda {
namespace {

/// The input, output and execution types of a pass of `kind` in `complex_dtype`'s precision.
void plan_types(FftKind kind, int32_t complex_dtype, cudaDataType& in, cudaDataType& out,
                cudaDataType& exec) {
  const bool wide = complex_dtype == KF_COMPLEX128;
  const cudaDataType c = wide ? CUDA_C_64F : CUDA_C_32F;
  const cudaDataType r = wide ? CUDA_R_64F : CUDA_R_32F;
  in = kind == FftKind::kR2C ? r : c;
  out = kind == FftKind::kC2R ? r : c;
  exec = c;
}

std::shared_ptr<FftPlan> make_plan(int32_t complex_dtype, const FftPass& p) {
  auto plan = std::make_shared<FftPlan>();
  check(cufftCreate(&plan->handle), "cufftCreate");
  check(cufftSetAutoAllocation(plan->handle, 0), "cufftSetAutoAllocation");
  long long n[3], inembed[3], onembed[3];  // NOLINT(google-runtime-int): cuFFT's type
  for (int i = 0; i < 3; ++i) {
    n[i] = p.n[i];
    inembed[i] = p.inembed[i];
    onembed[i] = p.onembed[i];
  }
  cudaDataType in, out, exec;
  plan_types(p.kind, complex_dtype, in, out, exec);
  size_t work = 0;
  check(cufftXtMakePlanMany(plan->handle, p.rank, n, inembed, p.istride, p.idist, in, onembed,
                            p.ostride, p.odist, out, p.batch, &work, exec),
        "cufftXtMakePlanMany");
  plan->work_bytes = work;
  return plan;
}

}  // namespace

FftPlan::~FftPlan() {
  if (handle != 0) (void)cufftDestroy(handle);
}

FftPlans::FftPlans(size_t devices) {
  for (size_t d = 0; d < devices; ++d) {
    caches_.push_back(std::make_unique<Cache>(kFftPlanCacheSize));
  }
}

std::shared_ptr<FftPlan> FftPlans::get(int32_t device, int32_t complex_dtype,
                                       const FftPass& pass) {
  if (device < 0 || static_cast<size_t>(device) >= caches_.size()) {
    throw kf::plugin::KernelError(KF_INTERNAL, "cuFFT plan cache: no device " +
                                                   std::to_string(device));
  }
  Cache& cache = *caches_[static_cast<size_t>(device)];
  const FftPlanKey key = plan_key(device, complex_dtype, pass);
  if (std::shared_ptr<FftPlan> found = cache.find(key)) return found;
  return cache.insert(key, make_plan(complex_dtype, pass));  // made outside the cache's lock
}

size_t FftPlans::size(int32_t device) const {
  if (device < 0 || static_cast<size_t>(device) >= caches_.size()) return 0;
  return caches_[static_cast<size_t>(device)]->size();
}

}  // namespace kf::cuda
