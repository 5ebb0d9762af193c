// fft_kernels.cpp — fft_c2c, fft_r2c and fft_c2r on VkFFT (fft_plans.hpp): the data is copied
// into scratch memory of the device in the layout a transform wants, each transformed dim is one
// batched VkFFT transform there, and the result is copied (and scaled) into the output. The
// copies are the shared kernels' (clkernels/movement.hpp), on the call's stream like the
// transforms, so nothing here waits for the device.
//
// Note [FFT scratch]: VkFFT takes cl_mem buffers, the backend's tensors are SVM pointers at any
// offset. A scratch block is SVM memory of its own (clSVMAlloc), wrapped whole in a cl_mem
// (clCreateBuffer with CL_MEM_USE_HOST_PTR, which OpenCL 2.0 defines for a pointer clSVMAlloc
// returned: the buffer is that memory), so the copy kernels reach it by pointer and VkFFT by
// buffer. It is freed by clEnqueueSVMFree behind the work queued on it. One element after the
// data holds the scale, which multiply() reads with zero strides.
//
// Layouts (Note [FFT passes] of the CPU backend says the same of its buffers):
//   c2c: the output's shape, contiguous; each dim is a transform over [batch, n, inner] in place.
//   r2c: self's dims permuted so the last transformed dim is innermost, each row of n reals in a
//        row of n / 2 + 1 complex numbers (VkFFT's in-place real layout); the real transform
//        turns the rows into their spectra, the other dims are then complex transforms there.
//   c2r: the reverse: the complex spectrum in that permuted layout, the other dims transformed
//        first, then the rows turned into real ones. The imaginary parts of the zero (and
//        Nyquist) frequencies are set to zero first: VkFFT reads them for some lengths, the
//        transform is defined without them.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "backend.hpp"
#include "cl_status.hpp"
#include "clkernels/movement.hpp"
#include "fft_kernels.hpp"
#include "fft_plans.hpp"
#include "kernforge/dtypes.hpp"
#include "kernforge/plugin.hpp"
#include "kernforge/wrapped_dims.hpp"

namespace kf::opencl {
namespace {

namespace ops = kf::plugin::ops;
using kf::plugin::KernelError;

/// The device and queue of a call, and the backend's plans.
struct Where {
  const kf_kernel_call_t& call;
  ClDevice& device;
  cl_command_queue queue;
  FftPlans& plans;
};

Where where_of(const kf_kernel_call_t& call, const kf_tensor_view_t& out) {
  ClBackend* backend = backend_of(call.plugin_state);
  ClDevice* device = backend->get(out.device.index);
  if (device == nullptr) {
    throw KernelError(KF_INVALID_ARGUMENT, "fft: no opencl device " +
                                               std::to_string(out.device.index));
  }
  return Where{call, *device, device->queue(call.stream), backend->fft_plans};
}

/// Note [FFT scratch]: `elements` numbers of `element_size` bytes and one more for the scale.
class Scratch {
 public:
  Scratch(const Where& w, int64_t elements, size_t element_size)
      : context_(w.device.context()), queue_(w.queue),
        bytes_((static_cast<size_t>(elements) + 1) * element_size) {
    ptr_ = clSVMAlloc(context_, CL_MEM_READ_WRITE, bytes_, 0);
    if (ptr_ == nullptr) {
      throw KernelError(KF_OUT_OF_MEMORY, "fft: clSVMAlloc of " + std::to_string(bytes_) +
                                              " bytes of scratch memory failed on " +
                                              w.device.info().name);
    }
    cl_int e = CL_SUCCESS;
    mem_ = clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes_, ptr_, &e);
    if (e != CL_SUCCESS) {
      clSVMFree(context_, ptr_);
      throw KernelError(cl_status(e), "fft: " + cl_failure("clCreateBuffer over SVM", e));
    }
  }
  ~Scratch() {
    clReleaseMemObject(mem_);
    if (clEnqueueSVMFree(queue_, 1, &ptr_, nullptr, nullptr, 0, nullptr, nullptr) != CL_SUCCESS) {
      clFinish(queue_);
      clSVMFree(context_, ptr_);
    }
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  char* data() const { return static_cast<char*>(ptr_); }
  cl_mem mem() const { return mem_; }
  size_t bytes() const { return bytes_; }

 private:
  cl_context context_;
  cl_command_queue queue_;
  size_t bytes_;
  void* ptr_ = nullptr;
  cl_mem mem_ = nullptr;
};

/// A view's shape and strides, owned.
struct Layout {
  std::vector<int64_t> shape, strides;

  /// Row-major over `shape`, the rows of its innermost dim `row` elements apart (row >= its
  /// size; 0: contiguous).
  static Layout dense(std::vector<int64_t> shape, int64_t row = 0) {
    Layout l{std::move(shape), {}};
    l.strides.assign(l.shape.size(), 1);
    int64_t step = row != 0 ? row : l.shape.back();
    for (size_t d = l.shape.size(); d-- > 0;) {
      if (d + 1 < l.shape.size()) {
        l.strides[d] = step;
        step *= l.shape[d];
      }
    }
    return l;
  }
  /// The same memory with dim perm[i] of the original at position i undone: position perm[i]
  /// of the result is position i of this.
  Layout unpermuted(const std::vector<int32_t>& perm) const {
    Layout l{shape, strides};
    for (size_t i = 0; i < perm.size(); ++i) {
      l.shape[static_cast<size_t>(perm[i])] = shape[i];
      l.strides[static_cast<size_t>(perm[i])] = strides[i];
    }
    return l;
  }
  kf_tensor_view_t view(void* data, int32_t dtype, kf_device_t device) const {
    const int64_t numel =
        std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<int64_t>());
    return kf_tensor_view_t{data, dtype, static_cast<int32_t>(shape.size()), shape.data(),
                            strides.data(), device, numel};
  }
};

/// The dims in the order that puts `last` innermost.
std::vector<int32_t> last_innermost(int32_t ndim, int32_t last) {
  std::vector<int32_t> perm;
  for (int32_t d = 0; d < ndim; ++d) {
    if (d != last) perm.push_back(d);
  }
  perm.push_back(last);
  return perm;
}

/// Where the dims of `dims` but its last are in the permuted order `perm`.
std::vector<int32_t> other_positions(const std::vector<int32_t>& dims,
                                     const std::vector<int32_t>& perm) {
  std::vector<int32_t> out;
  for (size_t i = 0; i + 1 < dims.size(); ++i) {
    out.push_back(
        static_cast<int32_t>(std::find(perm.begin(), perm.end(), dims[i]) - perm.begin()));
  }
  return out;
}

int32_t real_of(int32_t complex) { return complex == KF_COMPLEX128 ? KF_FLOAT64 : KF_FLOAT32; }

/// Complex transforms over `dims` of the contiguous complex `layout` in the scratch, in place.
void complex_passes(const Where& w, const Scratch& s, const Layout& layout, bool fp64,
                    const std::vector<int32_t>& dims, bool forward) {
  const int64_t numel = std::accumulate(layout.shape.begin(), layout.shape.end(), int64_t{1},
                                        std::multiplies<int64_t>());
  for (const int32_t d : dims) {
    const int64_t n = layout.shape[static_cast<size_t>(d)];
    if (n <= 1) continue;  // the transform of one number is that number
    const int64_t inner = layout.strides[static_cast<size_t>(d)];
    FftShape shape;
    shape.queue = w.queue;
    shape.fp64 = fp64;
    shape.n = static_cast<uint64_t>(n);
    shape.inner = static_cast<uint64_t>(inner);
    shape.batch = static_cast<uint64_t>(numel / (n * inner));
    w.plans.run(shape, w.device.context(), w.device.info().device, s.mem(), forward);
  }
}

/// The real transforms of `rows` rows of length n > 1 in VkFFT's in-place real layout: r2c
/// (forward) or c2r.
void real_rows(const Where& w, const Scratch& s, bool fp64, int64_t n, int64_t rows,
               bool forward) {
  FftShape shape;
  shape.queue = w.queue;
  shape.real = true;
  shape.fp64 = fp64;
  shape.n = static_cast<uint64_t>(n);
  shape.batch = static_cast<uint64_t>(rows);
  w.plans.run(shape, w.device.context(), w.device.info().device, s.mem(), forward);
}

/// out = src * scale, src a view into the scratch; the scale goes in its last element.
void scaled_into(const Where& w, const Scratch& s, const kf_tensor_view_t& out,
                 const kf_tensor_view_t& src, double scale) {
  if (scale == 1.0) return kf::clk::copy_converting(w.call, out, src);
  const size_t element = kf_dtype_itemsize(out.dtype);
  const std::vector<int64_t> zeros(static_cast<size_t>(out.ndim), 0);
  const kf_tensor_view_t slot{s.data() + s.bytes() - element, out.dtype, 0, nullptr, nullptr,
                              out.device, 1};
  kf::clk::fill_with(w.call, slot, kf_scalar_f64(scale));
  kf_tensor_view_t factor = slot;
  factor.ndim = out.ndim;
  factor.shape = out.shape;
  factor.strides = zeros.data();
  factor.numel = out.numel;
  kf::clk::multiply(w.call, out, src, factor);
}

/// Sets the imaginary parts of column `k` of the rows of `h` complex numbers to zero.
void zero_imaginary(const Where& w, const Scratch& s, int32_t real_dtype, int64_t rows,
                    int64_t h, int64_t k, kf_device_t device) {
  const Layout column{{rows}, {2 * h}};
  const size_t part = kf_dtype_itemsize(real_dtype);
  kf::clk::fill_with(w.call,
                     column.view(s.data() + (2 * k + 1) * part, real_dtype, device),
                     kf_scalar_f64(0.0));
}

void c2c_kernel(const ops::fft_c2c::Args& a) {
  if (a.out.numel == 0) return;
  const Where w = where_of(a.call, a.out);
  const bool fp64 = a.out.dtype == KF_COMPLEX128;
  const Scratch s(w, a.out.numel, kf_dtype_itemsize(a.out.dtype));
  const Layout work = Layout::dense(std::vector<int64_t>(a.out.shape, a.out.shape + a.out.ndim));
  const kf_tensor_view_t view = work.view(s.data(), a.out.dtype, a.out.device);
  kf::clk::copy_converting(a.call, view, a.self);
  complex_passes(w, s, work, fp64, kf::plugin::wrapped_dims(a.dim, a.self.ndim), a.forward);
  scaled_into(w, s, a.out, view, a.scale);
}

void r2c_kernel(const ops::fft_r2c::Args& a) {
  if (a.out.numel == 0) return;
  const Where w = where_of(a.call, a.out);
  const bool fp64 = a.self.dtype == KF_FLOAT64;
  const std::vector<int32_t> dims = kf::plugin::wrapped_dims(a.dim, a.self.ndim);
  const int32_t last = dims.back();
  const std::vector<int32_t> perm = last_innermost(a.self.ndim, last);
  std::vector<int64_t> shape;
  for (const int32_t d : perm) shape.push_back(a.self.shape[d]);
  const int64_t n = shape.back(), h = n / 2 + 1, rows = a.self.numel / n;
  const Scratch s(w, rows * h, kf_dtype_itemsize(a.out.dtype));
  // The real rows, 2h reals apart, filled from self in its own dim order.
  const Layout reals = Layout::dense(shape, 2 * h).unpermuted(perm);
  kf::clk::copy_converting(a.call, reals.view(s.data(), a.self.dtype, a.self.device), a.self);
  if (n > 1) {
    real_rows(w, s, fp64, n, rows, true);
  } else {
    zero_imaginary(w, s, a.self.dtype, rows, h, 0, a.self.device);  // X[0] = x[0] + 0i
  }
  shape.back() = h;
  const Layout spectrum = Layout::dense(shape);
  complex_passes(w, s, spectrum, fp64, other_positions(dims, perm), true);
  scaled_into(w, s, a.out,
              spectrum.unpermuted(perm).view(s.data(), a.out.dtype, a.out.device), a.scale);
}

void c2r_kernel(const ops::fft_c2r::Args& a) {
  if (a.out.numel == 0) return;
  const Where w = where_of(a.call, a.out);
  const bool fp64 = a.self.dtype == KF_COMPLEX128;
  const int32_t real = real_of(a.self.dtype);
  const std::vector<int32_t> dims = kf::plugin::wrapped_dims(a.dim, a.self.ndim);
  const int32_t last = dims.back();
  const std::vector<int32_t> perm = last_innermost(a.self.ndim, last);
  std::vector<int64_t> shape;
  for (const int32_t d : perm) shape.push_back(a.self.shape[d]);
  const int64_t h = shape.back(), length = a.last_dim_size, rows = a.self.numel / h;
  const Scratch s(w, rows * h, kf_dtype_itemsize(a.self.dtype));
  const Layout spectrum = Layout::dense(shape);
  kf::clk::copy_converting(
      a.call, spectrum.unpermuted(perm).view(s.data(), a.self.dtype, a.self.device), a.self);
  complex_passes(w, s, spectrum, fp64, other_positions(dims, perm), false);
  zero_imaginary(w, s, real, rows, h, 0, a.self.device);
  if (length % 2 == 0) zero_imaginary(w, s, real, rows, h, length / 2, a.self.device);
  if (length > 1) real_rows(w, s, fp64, length, rows, false);  // length 1: x[0] = Re X[0]
  shape.back() = length;
  const Layout reals = Layout::dense(shape, 2 * h).unpermuted(perm);
  scaled_into(w, s, a.out, reals.view(s.data(), real, a.out.device), a.scale);
}

}  // namespace

kf_status_t register_fft_kernels(const kf_registrar_t* reg, uint32_t mask) {
  if (!fft_available()) return KF_OK;  // the CPU fallback's (kernforge ops says so)
  const uint32_t complex = mask & kf::kComplexDtypes;
  const uint32_t reals = mask & (kf::dtype_bit(KF_FLOAT32) | kf::dtype_bit(KF_FLOAT64));
  if (complex != 0u) {
    KF_REGISTER_KERNEL(reg, fft_c2c, c2c_kernel, complex);
    KF_REGISTER_KERNEL(reg, fft_c2r, c2r_kernel, complex);
  }
  if (reals != 0u) KF_REGISTER_KERNEL(reg, fft_r2c, r2c_kernel, reals);
  return KF_OK;
}

}  // namespace kf::opencl
