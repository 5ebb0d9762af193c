// fft_kernels.cpp — fft_c2c, fft_r2c and fft_c2r: one pass per transformed dim over a
// contiguous buffer, each line transformed by the plans of Note [FFT plans] (fft_plan.hpp).
//
// Note [FFT passes]: a pass sees its buffer as [outer, n, inner] (n along the dim). Contiguous
// lines (inner == 1) go from the source straight into the destination. Other lines are
// gathered kLines at a time, side by side, into a buffer of the calling thread, transformed
// there and scattered back, so that every read and write moves whole cache lines. The lines
// are spread across threads, unless the plan spreads one transform across them itself (a
// four-step length). c2c's first pass reads self (or, when self is strided, its copy in the
// output) and the others run in place in the output; r2c halves its last dim from self (read
// in place when contiguous) into the output and runs the other dims there; c2r runs the other
// dims in a complex copy of self and its last dim from that into the output. The last pass
// applies the scale.
#include "kernels.hpp"

#if KF_CPU_HAVE_FFT

#include <algorithm>
#include <complex>
#include <vector>

#include "copy_elements.hpp"
#include "dtype_dispatch.hpp"
#include "fft_plan.hpp"
#include "parallel.hpp"
#include "strided.hpp"

#include "kernforge/wrapped_dims.hpp"

namespace kf::cpu {
namespace {

using kf::plugin::wrapped_dims;

namespace ops = kf::plugin::ops;

constexpr int64_t kLines = 8;  // lines gathered side by side when they are not contiguous
constexpr uint32_t kRealFftMask = dtype_bit(KF_FLOAT32) | dtype_bit(KF_FLOAT64);

/// A contiguous row-major buffer of `shape` (its own storage, or a tensor's when it already is
/// contiguous) and the view of it that copy_elements takes.
template <class E>
struct Dense {
  std::vector<int64_t> shape, strides;
  std::vector<E> storage;
  E* data = nullptr;
  kf_tensor_view_t view{};

  Dense(const int64_t* dims, int32_t ndim, int32_t dtype) : shape(dims, dims + ndim) {
    strides.assign(static_cast<size_t>(ndim), 1);
    int64_t numel = 1;
    for (int32_t d = ndim - 1; d >= 0; --d) {
      strides[static_cast<size_t>(d)] = numel;
      numel *= shape[static_cast<size_t>(d)];
    }
    view = kf_tensor_view_t{nullptr, dtype, ndim, shape.data(), strides.data(), {}, numel};
  }
  void allocate() {
    storage.resize(static_cast<size_t>(view.numel));
    data = storage.data();
    view.data = data;
  }
  /// The memory of t (of this shape and element type) when it is contiguous, else its own.
  void use_or_allocate(const kf_tensor_view_t& t);
};

/// Whether v is row-major contiguous (its size-1 dims' strides do not matter).
bool contiguous(const kf_tensor_view_t& v) {
  int64_t expected = 1;
  for (int32_t d = v.ndim - 1; d >= 0; --d) {
    if (v.shape[d] != 1 && v.strides[d] != expected) return false;
    expected *= v.shape[d];
  }
  return true;
}

template <class E>
void Dense<E>::use_or_allocate(const kf_tensor_view_t& t) {
  if (!contiguous(t)) return allocate();
  data = static_cast<E*>(t.data);
  view.data = t.data;
}

/// The pass geometry of Note [FFT passes]: [outer, n, inner] around `dim` of `shape`.
struct Pass {
  int64_t outer = 1, inner = 1;
  Pass(const std::vector<int64_t>& shape, int32_t dim) {
    for (int32_t d = 0; d < dim; ++d) outer *= shape[static_cast<size_t>(d)];
    for (size_t d = static_cast<size_t>(dim) + 1; d < shape.size(); ++d) inner *= shape[d];
  }
};

/// Lines that are contiguous (inner == 1): each is transformed from src straight into dst,
/// through a buffer only when they are the same memory, and scaled there.
template <class R, class In, class Out, class MakeLine>
void run_contiguous_lines(int64_t lines, const In* src, int64_t in_len, Out* dst,
                          int64_t out_len, R scale, int threads, int64_t scratch,
                          MakeLine make_line) {
  const bool in_place = static_cast<const void*>(src) == static_cast<const void*>(dst);
#pragma omp parallel num_threads(threads)
  {
    auto line = make_line();
    std::vector<Out> done(static_cast<size_t>(in_place ? out_len : 0));
    std::vector<cpx<R>> work(static_cast<size_t>(std::max<int64_t>(scratch, 1)));
#pragma omp for schedule(static)
    for (int64_t o = 0; o < lines; ++o) {
      Out* to = dst + o * out_len;
      Out* result = in_place ? done.data() : to;
      line(src + o * in_len, result, work.data());
      if (in_place || scale != R(1)) {
        for (int64_t k = 0; k < out_len; ++k) to[k] = result[k] * scale;
      }
    }
  }
}

/// Runs one pass: line (o, i) of src, in_len elements at src[(o * in_len + j) * inner + i],
/// becomes line (o, i) of dst, out_len elements, through line(in, out, scratch) and times
/// scale. make_line() gives each thread its own line transform; threads_inside says whether
/// that transform spreads across threads itself. src may be dst (every line is gathered
/// before its results are written back).
template <class R, class In, class Out, class MakeLine>
void run_pass(const Pass& p, const In* src, int64_t in_len, Out* dst, int64_t out_len, R scale,
              bool threads_inside, int64_t scratch, MakeLine make_line) {
  if (p.outer * p.inner == 0 || in_len == 0 || out_len == 0) return;
  const int64_t width = std::min(p.inner, kLines);
  const int64_t per_outer = (p.inner + width - 1) / width, jobs = p.outer * per_outer;
  const int64_t work = jobs * width * std::max(in_len, out_len) * 4;
  const int threads = threads_inside ? 1 : threads_for(work);
  if (p.inner == 1) {
    return run_contiguous_lines(p.outer, src, in_len, dst, out_len, scale, threads, scratch,
                                make_line);
  }
#pragma omp parallel num_threads(threads)
  {
    auto line = make_line();
    std::vector<In> gathered(static_cast<size_t>(width * in_len));
    std::vector<Out> done(static_cast<size_t>(width * out_len));
    std::vector<cpx<R>> work(static_cast<size_t>(std::max<int64_t>(scratch, 1)));
#pragma omp for schedule(static)
    for (int64_t job = 0; job < jobs; ++job) {
      const int64_t o = job / per_outer, i0 = (job % per_outer) * width;
      const int64_t count = std::min(width, p.inner - i0);
      const In* from = src + o * in_len * p.inner + i0;
      for (int64_t j = 0; j < in_len; ++j) {
        for (int64_t b = 0; b < count; ++b) {
          gathered[static_cast<size_t>(b * in_len + j)] = from[j * p.inner + b];
        }
      }
      for (int64_t b = 0; b < count; ++b) {
        line(gathered.data() + b * in_len, done.data() + b * out_len, work.data());
      }
      Out* to = dst + o * out_len * p.inner + i0;
      for (int64_t k = 0; k < out_len; ++k) {
        for (int64_t b = 0; b < count; ++b) {
          to[k * p.inner + b] = done[static_cast<size_t>(b * out_len + k)] * scale;
        }
      }
    }
  }
}

/// The complex passes over `dims` (in order): the first from src (contiguous, of `shape`) into
/// data, the others in place in data; the last one scales.
template <class R>
void complex_passes(const cpx<R>* src, cpx<R>* data, const std::vector<int64_t>& shape,
                    const std::vector<int32_t>& dims, bool forward, R scale) {
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t n = shape[static_cast<size_t>(dims[i])];
    if (n == 0) return;
    const auto plan = plan_for<R>(n, forward);
    const R s = i + 1 == dims.size() ? scale : R(1);
    run_pass(Pass(shape, dims[i]), i == 0 ? src : data, n, data, n, s, plan->threads_inside(),
             plan->scratch_size(), [&] {
               return [mine = plan->for_thread()](const cpx<R>* in, cpx<R>* out, cpx<R>* w) {
                 mine->execute(in, out, w);
               };
             });
  }
}

void c2c_kernel(const ops::fft_c2c::Args& a) {
  check_ndim(a.self);
  if (a.out.numel == 0) return;  // no plan for an empty batch's lengths, however long
  dispatch<kComplexMask>(a.self.dtype, "fft_c2c", [&](auto tag) {
    using C = typename decltype(tag)::type;
    using R = typename C::value_type;
    Dense<cpx<R>> buffer(a.out.shape, a.out.ndim, a.out.dtype);
    buffer.use_or_allocate(a.out);
    const cpx<R>* src = static_cast<const cpx<R>*>(a.self.data);
    if (!contiguous(a.self)) {  // its copy in the output is the first pass's input
      copy_elements(buffer.view, a.self, "fft_c2c");
      src = buffer.data;
    }
    complex_passes<R>(src, buffer.data, buffer.shape, wrapped_dims(a.dim, a.self.ndim),
                      a.forward, static_cast<R>(a.scale));
    if (buffer.data != a.out.data) copy_elements(a.out, buffer.view, "fft_c2c");
  });
}

void r2c_kernel(const ops::fft_r2c::Args& a) {
  check_ndim(a.self);
  if (a.out.numel == 0) return;  // no plan for an empty batch's lengths, however long
  dispatch<kRealFftMask>(a.self.dtype, "fft_r2c", [&](auto tag) {
    using R = typename decltype(tag)::type;
    const std::vector<int32_t> dims = wrapped_dims(a.dim, a.self.ndim);
    Dense<R> input(a.self.shape, a.self.ndim, a.self.dtype);
    input.use_or_allocate(a.self);
    if (input.data != a.self.data) copy_elements(input.view, a.self, "fft_r2c");
    Dense<cpx<R>> output(a.out.shape, a.out.ndim, a.out.dtype);
    output.use_or_allocate(a.out);
    const int32_t last = dims.back();
    const int64_t n = input.shape[static_cast<size_t>(last)];
    const R scale = static_cast<R>(a.scale);
    if (n > 0) {
      const RealFftPlan<R> plan(n, true);
      run_pass(Pass(input.shape, last), input.data, n, output.data, plan.bins(),
               dims.size() == 1 ? scale : R(1), plan.threads_inside(), plan.scratch_size(), [&] {
                 return [mine = plan.for_thread()](const R* in, cpx<R>* out, cpx<R>* w) {
                   mine.forward(in, out, w);
                 };
               });
      const std::vector<int32_t> rest(dims.begin(), dims.end() - 1);
      complex_passes<R>(output.data, output.data, output.shape, rest, true, scale);
    }
    if (output.data != a.out.data) copy_elements(a.out, output.view, "fft_r2c");
  });
}

void c2r_kernel(const ops::fft_c2r::Args& a) {
  check_ndim(a.self);
  if (a.out.numel == 0) return;  // no plan for an empty batch's lengths, however long
  dispatch<kComplexMask>(a.self.dtype, "fft_c2r", [&](auto tag) {
    using C = typename decltype(tag)::type;
    using R = typename C::value_type;
    const std::vector<int32_t> dims = wrapped_dims(a.dim, a.self.ndim);
    Dense<cpx<R>> spectrum(a.self.shape, a.self.ndim, a.self.dtype);
    spectrum.allocate();
    copy_elements(spectrum.view, a.self, "fft_c2r");
    const std::vector<int32_t> rest(dims.begin(), dims.end() - 1);
    complex_passes<R>(spectrum.data, spectrum.data, spectrum.shape, rest, false, R(1));
    Dense<R> output(a.out.shape, a.out.ndim, a.out.dtype);
    output.use_or_allocate(a.out);
    const int32_t last = dims.back();
    const RealFftPlan<R> plan(a.last_dim_size, false);
    run_pass(Pass(spectrum.shape, last), spectrum.data, plan.bins(), output.data, plan.size(),
             static_cast<R>(a.scale), plan.threads_inside(), plan.scratch_size(), [&] {
               return [mine = plan.for_thread()](const cpx<R>* in, R* out, cpx<R>* w) {
                 mine.inverse(in, out, w);
               };
             });
    if (output.data != a.out.data) copy_elements(a.out, output.view, "fft_c2r");
  });
}

}  // namespace

kf_status_t register_fft_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, fft_c2c, c2c_kernel, kComplexMask);
  KF_CPU_KERNEL(reg, fft_r2c, r2c_kernel, kRealFftMask);
  KF_CPU_KERNEL(reg, fft_c2r, c2r_kernel, kComplexMask);
  return KF_OK;
}

}  // namespace kf::cpu

#else  // no KISS FFT: the transforms have no cpu kernel (kernforge ops says so)

namespace kf::cpu {
kf_status_t register_fft_kernels(const kf_registrar_t*) { return KF_OK; }
}  // namespace kf::cpu

#endif  // KF_CPU_HAVE_FFT
