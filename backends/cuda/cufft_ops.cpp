// cufft_ops.cpp — fft_c2c, fft_r2c and fft_c2r on cuFFT, as the CPU backend's fft_kernels.cpp:
// the passes of Note [FFT passes on cuFFT] (fft_layout.hpp) over dense buffers, each through a
// cached plan (Note [cuFFT plans and streams], fft_plans.hpp) executed on the call's stream.
// c2c's first pass reads self (or its dense copy) into the output's buffer, the others run in
// place there; r2c halves its last dim from self into the output, then runs the other dims in
// place; c2r runs the other dims (inverse) in a copy of self, zeroes the imaginary parts of the
// zero and Nyquist terms of its last dim, and halves back into the output (cuFFT's c2r
// overwrites its input, so it never reads self). The scale multiplies the result once.
// Any length runs: cuFFT has its own algorithms for lengths with large prime factors.
#include <cufftXt.h>

#include <memory>
#include <vector>

#include "fft_layout.hpp"
#include "fft_plans.hpp"
#include "kernel_scope.hpp"
#include "kernforge/plugin.hpp"
#include "kernforge/wrapped_dims.hpp"
#include "library_check.hpp"
#include "operands.hpp"
#include "solver_common.hpp"
#include "solver_launch.hpp"
#include "solver_ops.hpp"

namespace kf::cuda {
namespace {

using kf::plugin::wrapped_dims;
namespace ops = kf::plugin::ops;

constexpr uint32_t kComplexFft = (1u << KF_COMPLEX64) | (1u << KF_COMPLEX128);
constexpr uint32_t kRealFft = (1u << KF_FLOAT32) | (1u << KF_FLOAT64);

int32_t complex_of(int32_t dtype) {
  return dtype == KF_FLOAT32 || dtype == KF_COMPLEX64 ? KF_COMPLEX64 : KF_COMPLEX128;
}

/// A dense buffer of one tensor's shape and dtype: the tensor's own memory when it is dense,
/// else stream scratch.
struct Dense {
  std::vector<int64_t> shape;
  int32_t dtype;
  std::unique_ptr<StreamScratch> scratch;
  void* data = nullptr;
  Dense(const std::vector<int64_t>& s, int32_t d, const kf_tensor_view_t* own, cudaStream_t st)
      : shape(s), dtype(d) {
    if (own != nullptr && is_contiguous(*own)) {
      data = own->data;
      return;
    }
    scratch = std::make_unique<StreamScratch>(
        static_cast<size_t>(product_of(s)) * kf_dtype_itemsize(d), st);
    data = scratch->get();
  }
  ViewLayout layout() const { return dense_layout(shape, dtype); }
};

/// Runs one plan over its loops from `in` to `out` (Note [cuFFT plans and streams]).
void execute(FftPlan& plan, const FftPass& p, const void* in, size_t in_item, void* out,
             size_t out_item, int direction, cudaStream_t stream) {
  std::lock_guard<std::mutex> lock(plan.mutex);
  check(cufftSetStream(plan.handle, stream), "cufftSetStream");
  StreamScratch work(plan.work_bytes, stream);
  check(cufftSetWorkArea(plan.handle, work.get()), "cufftSetWorkArea");
  for (int64_t l = 0; l < p.loops; ++l) {
    const auto* from = static_cast<const unsigned char*>(in) + l * p.in_step * in_item;
    auto* to = static_cast<unsigned char*>(out) + l * p.out_step * out_item;
    check(cufftXtExec(plan.handle, const_cast<unsigned char*>(from), to, direction),
          "cufftXtExec");
  }
}

/// One pass from buffer `in` (of in.shape) to `out`, through a moved copy when it says so.
void run_pass(const KernelScope& scope, int32_t device, const FftPass& p, const Dense& in,
              const Dense& out, int direction) {
  const cudaStream_t stream = scope.stream();
  const size_t in_item = kf_dtype_itemsize(in.dtype), out_item = kf_dtype_itemsize(out.dtype);
  const std::shared_ptr<FftPlan> plan =
      scope.backend().blas.fft.get(device, complex_of(in.dtype), p);
  if (!p.move_last) return execute(*plan, p, in.data, in_item, out.data, out_item, direction,
                                   stream);
  ViewLayout in_moved, out_moved;
  in_moved.dtype = in.dtype;
  out_moved.dtype = out.dtype;
  moved_last(in.shape, p.axis, in_moved.shape, in_moved.strides);
  moved_last(out.shape, p.axis, out_moved.shape, out_moved.strides);
  const Dense a(in_moved.shape, in.dtype, nullptr, stream);
  const Dense b(out_moved.shape, out.dtype, nullptr, stream);
  copy_view(a.layout(), a.data, in_moved, in.data, stream);
  execute(*plan, p, a.data, in_item, b.data, out_item, direction, stream);
  copy_view(out_moved, out.data, b.layout(), b.data, stream);
}

/// Runs `passes`: the first from `first_in`, each later one in place in `work`.
void run_passes(const KernelScope& scope, int32_t device, const std::vector<FftPass>& passes,
                const Dense& first_in, const Dense& work, int direction) {
  for (size_t i = 0; i < passes.size(); ++i) {
    run_pass(scope, device, passes[i], i == 0 ? first_in : work, work, direction);
  }
}

std::vector<int64_t> shape_of(const kf_tensor_view_t& v) {
  return std::vector<int64_t>(v.shape, v.shape + v.ndim);
}

/// The output's buffer after the passes: scaled, and copied out when it is not the output.
void finish(const KernelScope& scope, const Dense& work, const kf_tensor_view_t& out,
            double scale) {
  if (scale != 1.0) launch_scale(work.data, work.dtype, out.numel, scale, scope.stream());
  if (work.data != out.data) {
    copy_view(layout_of(out), out.data, work.layout(), work.data, scope.stream());
  }
}

/// self as a dense buffer (its own memory when it is dense, else a copy).
Dense dense_input(const kf_tensor_view_t& self, cudaStream_t stream) {
  Dense in(shape_of(self), self.dtype, &self, stream);
  if (in.data != self.data) copy_view(in.layout(), in.data, layout_of(self), self.data, stream);
  return in;
}

void c2c_kernel(const ops::fft_c2c::Args& a) {
  KernelScope scope(a.call, a.out);
  if (a.out.numel == 0) return;
  const Dense in = dense_input(a.self, scope.stream());
  const Dense work(shape_of(a.out), a.out.dtype, &a.out, scope.stream());
  const std::vector<FftPass> passes =
      plan_fft(FftKind::kC2C, in.shape, work.shape, wrapped_dims(a.dim, a.self.ndim));
  run_passes(scope, a.out.device.index, passes, in, work,
             a.forward ? CUFFT_FORWARD : CUFFT_INVERSE);
  finish(scope, work, a.out, a.scale);
  scope.check("fft_c2c");
}

void r2c_kernel(const ops::fft_r2c::Args& a) {
  KernelScope scope(a.call, a.out);
  if (a.out.numel == 0) return;
  const Dense in = dense_input(a.self, scope.stream());
  const Dense work(shape_of(a.out), a.out.dtype, &a.out, scope.stream());
  const std::vector<FftPass> passes =
      plan_fft(FftKind::kR2C, in.shape, work.shape, wrapped_dims(a.dim, a.self.ndim));
  run_passes(scope, a.out.device.index, passes, in, work, CUFFT_FORWARD);
  finish(scope, work, a.out, a.scale);
  scope.check("fft_r2c");
}

void c2r_kernel(const ops::fft_c2r::Args& a) {
  KernelScope scope(a.call, a.out);
  if (a.out.numel == 0) return;
  const cudaStream_t stream = scope.stream();
  const Dense spectrum(shape_of(a.self), a.self.dtype, nullptr, stream);  // c2r overwrites it
  copy_view(spectrum.layout(), spectrum.data, layout_of(a.self), a.self.data, stream);
  const Dense work(shape_of(a.out), a.out.dtype, &a.out, stream);
  const std::vector<int32_t> dims = wrapped_dims(a.dim, a.self.ndim);
  const std::vector<FftPass> passes = plan_fft(FftKind::kC2R, spectrum.shape, work.shape, dims);
  for (size_t i = 0; i + 1 < passes.size(); ++i) {  // the c2c passes, in place
    run_pass(scope, a.out.device.index, passes[i], spectrum, spectrum, CUFFT_INVERSE);
  }
  const size_t last = static_cast<size_t>(dims.back());
  int64_t outer = 1, inner = 1;
  for (size_t d = 0; d < spectrum.shape.size(); ++d) {
    if (d < last) outer *= spectrum.shape[d];
    if (d > last) inner *= spectrum.shape[d];
  }
  launch_hermitian_edges(spectrum.data, spectrum.dtype, outer, spectrum.shape[last], inner,
                         a.last_dim_size % 2 == 0, stream);
  if (!passes.empty()) {
    run_pass(scope, a.out.device.index, passes.back(), spectrum, work, CUFFT_INVERSE);
  }
  finish(scope, work, a.out, a.scale);
  scope.check("fft_c2r");
}

}  // namespace

kf_status_t register_fft_ops(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, fft_c2c, c2c_kernel, kComplexFft);
  KF_REGISTER_KERNEL(reg, fft_r2c, r2c_kernel, kRealFft);
  KF_REGISTER_KERNEL(reg, fft_c2r, c2r_kernel, kComplexFft);
  return KF_OK;
}

}  // namespace kf::cuda
