// random_ops.cpp — rand and randn on CUDA with the generator of CudaBackend::random, as the
// CPU backend's random_kernels.cpp: each call reserves the next philox::blocks_for(numel)
// counters with one fetch_add on the offset (so concurrent calls never share counters, and a
// call's values depend only on the seed, its offset and each element's row-major index), then
// queues the kernel (random.cu). The output dtype is floating (the meta rule refuses others).
#include <atomic>
#include <string>

#include "kernel_scope.hpp"
#include "kernforge/philox.hpp"
#include "kernforge/plugin.hpp"
#include "random_launch.hpp"

namespace kf::cuda {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kRandomMask = kFloatDtypes;  // the CPU's kAllFloatMask

void random_kernel(const kf_kernel_call_t& call, const kf_tensor_view_t& out, bool normal,
                   const char* op) {
  if (out.dtype < 0 || out.dtype >= KF_DTYPE_COUNT || ((kRandomMask >> out.dtype) & 1u) == 0) {
    throw kf::plugin::KernelError(KF_UNIMPLEMENTED,
                                  std::string("dtype ") + kf_dtype_string(out.dtype) +
                                      " is not supported by " KF_GPU_VENDOR " " + op);
  }
  KernelScope scope(call, out);
  Random& g = scope.backend().random;
  const uint64_t blocks = philox::blocks_for(out.numel, out.dtype == KF_FLOAT64);
  RandomLaunch r;
  r.seed = g.seed.load(std::memory_order_relaxed);
  r.offset = g.offset.fetch_add(blocks, std::memory_order_relaxed);
  if (out.numel == 0) return;
  r.p = make_operands({&out});
  r.dtype = out.dtype;
  r.normal = normal ? 1 : 0;
  launch_random(r, scope.stream());
  scope.check(op);
}

void rand_kernel(const ops::rand::Args& a) { random_kernel(a.call, a.out, false, "rand"); }
void randn_kernel(const ops::randn::Args& a) { random_kernel(a.call, a.out, true, "randn"); }

}  // namespace

kf_status_t register_random_ops(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, rand, rand_kernel, kRandomMask);
  KF_REGISTER_KERNEL(reg, randn, randn_kernel, kRandomMask);
  return KF_OK;
}

}  // namespace kf::cuda
