// cumsum_kernels.cpp — cumsum and cumprod along one dim (tag reduction) for every dtype but bool,
// complex ones included.
//
// The core hands over self already converted to the output's dtype (meta cumsum: bool and
// integers become int64 unless dtype= is given), and the output has self's shape. Element i of
// a line along dim is the sum (the product) of elements 0..i: integers in wrapping arithmetic
// of their width (two's complement, as PyTorch), floating types accumulated in double (complex
// ones in complex<double>) and rounded once per element (PyTorch's CPU accumulates float32 in
// double too, float16/bfloat16 in float). A 0-dim tensor is one line of one element. The output
// may be self exactly (each element is read before it is written).
//
// Schedules: lines split over threads; lines that lie next to each other in memory (dim not
// innermost in a contiguous tensor) in blocks of up to kBlock, walking dim once per block with
// one running sum per line (contiguous, vectorisable).
#include <algorithm>

#include "dtype_dispatch.hpp"
#include "elementwise.hpp"
#include "kernels.hpp"
#include "line_plan.hpp"
#include "reducer_util.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kCumsumMask = kNumericMask | kComplexMask;
constexpr int64_t kBlock = 256;

template <class T>
using CumAcc = std::conditional_t<
    std::is_integral_v<T>, Wrap<T>,
    std::conditional_t<is_complex_v<T>, std::complex<double>, double>>;

template <class T>
inline CumAcc<T> widen(T v) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<CumAcc<T>>(v);
  } else if constexpr (is_complex_v<T>) {
    return std::complex<double>(v.real(), v.imag());
  } else {
    return static_cast<double>(load(v));
  }
}

template <class T>
inline T narrow(CumAcc<T> acc) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(acc);
  } else {
    return convert<T>(acc);
  }
}

using CumPlan = LinePlan;

/// acc += x, or acc *= x for the product.
template <bool Prod, class A>
inline void accumulate(A& acc, A x) {
  if constexpr (Prod) {
    acc *= x;
  } else {
    acc += x;
  }
}

template <class T, bool Prod>
void cum_line(const CumPlan& p, char* in, char* out) {
  CumAcc<T> acc = Prod ? 1 : 0;
  for (int64_t i = 0; i < p.n; ++i) {
    accumulate<Prod>(acc, widen(at<T>(in, i, p.si)));
    at<T>(out, i, p.so) = narrow<T>(acc);
  }
}

/// w <= kBlock adjacent lines (element k of line j at in + k * si + j * sizeof(T)).
template <class T, bool Prod>
void cum_block(const CumPlan& p, char* in, char* out, int64_t w) {
  const int64_t ob = p.lines.k_out[0];
  CumAcc<T> acc[kBlock];
  for (int64_t j = 0; j < w; ++j) acc[j] = Prod ? 1 : 0;
  for (int64_t k = 0; k < p.n; ++k) {
    const T* x = reinterpret_cast<const T*>(in + k * p.si);
    for (int64_t j = 0; j < w; ++j) accumulate<Prod>(acc[j], widen(x[j]));
    char* o = out + k * p.so;
    if (ob == static_cast<int64_t>(sizeof(T))) {
      T* y = reinterpret_cast<T*>(o);
      for (int64_t j = 0; j < w; ++j) y[j] = narrow<T>(acc[j]);
    } else {
      for (int64_t j = 0; j < w; ++j) at<T>(o, j, ob) = narrow<T>(acc[j]);
    }
  }
}

template <class F>
void for_tasks(int64_t tasks, int nt, F&& one) {
  if (nt <= 1 || tasks == 1) {
    for (int64_t t = 0; t < tasks; ++t) one(t);
    return;
  }
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int64_t t = 0; t < tasks; ++t) one(t);
}

template <class T, bool Prod>
void run_cum(const CumPlan& p, const kf_tensor_view_t& in, const kf_tensor_view_t& out) {
  const ReducePlan& rp = p.lines;
  if (rp.numel_out == 0 || p.n == 0) return;
  char* in_data = static_cast<char*>(in.data);
  char* out_data = static_cast<char*>(out.data);
  const int nt = threads_for(rp.numel_out * p.n);
  const int64_t elem = static_cast<int64_t>(sizeof(T));
  if (rp.nk >= 1 && rp.k_in[0] == elem && rp.k_shape[0] >= 8 && p.si != elem) {
    const int64_t inner = rp.k_shape[0];
    const int64_t blocks = (inner + kBlock - 1) / kBlock;
    for_tasks(rp.numel_out / inner * blocks, nt, [&](int64_t task) {
      const int64_t j0 = (task % blocks) * kBlock;
      int64_t in_off = j0 * rp.k_in[0], out_off = j0 * rp.k_out[0], rest = task / blocks;
      for (int d = 1; d < rp.nk; ++d) {
        const int64_t i = rest % rp.k_shape[d];
        rest /= rp.k_shape[d];
        in_off += i * rp.k_in[d];
        out_off += i * rp.k_out[d];
      }
      cum_block<T, Prod>(p, in_data + in_off, out_data + out_off, std::min(kBlock, inner - j0));
    });
    return;
  }
  for_tasks(rp.numel_out, nt, [&](int64_t o) {
    int64_t in_off, out_off;
    kept_offsets(rp, o, in_off, out_off);
    cum_line<T, Prod>(p, in_data + in_off, out_data + out_off);
  });
}

template <bool Prod, class Args>
void cum_kernel(const Args& a, const char* op) {
  require_dtype(a.self, a.out.dtype, "self", op);
  dispatch<kCumsumMask>(a.out.dtype, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_cum<T, Prod>(make_line_plan(a.self, a.out, a.dim, sizeof(T), op), a.self, a.out);
  });
}

void cumsum_kernel(const ops::cumsum::Args& a) { cum_kernel<false>(a, "cumsum"); }

void cumprod_kernel(const ops::cumprod::Args& a) { cum_kernel<true>(a, "cumprod"); }

}  // namespace

kf_status_t register_cumsum_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, cumsum, cumsum_kernel, kCumsumMask);
  KF_CPU_KERNEL(reg, cumprod, cumprod_kernel, kCumsumMask);
  return KF_OK;
}

}  // namespace kf::cpu
