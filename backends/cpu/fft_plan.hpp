// fft_plan.hpp — how the CPU plugin computes one discrete Fourier transform of length n.
//
// Note [FFT plans]: a plan is chosen once per (length, direction, precision) and cached
// (plan_for). Three kinds, by a cost estimate in butterfly operations:
//   - Direct: KISS FFT's mixed-radix kissfft<T> (kissfft.hh, BSD; Debian's libkissfft-dev),
//     when n's prime factors are small. Its radix-2/3/4/5 butterflies are specialised; a larger
//     factor p takes p operations per element, and its generic butterfly writes a scratch
//     buffer inside the object, so such a plan is copied for each thread (for_thread).
//   - Bluestein: any length with a large prime factor (primes included) as a convolution of
//     a 2,3,5-smooth length m >= 2n - 1, so the cost grows as n log n.
//   - Four-step: a long length n = n1 * n2 (both at least kFourStepMin) as n1 transforms of
//     length n2, a twiddle, and n2 transforms of length n1, each block of lines gathered into
//     a buffer that fits the cache, the blocks spread across threads. KISS FFT's recursion runs
//     out of cache past some 10^4 points; this keeps every line in it.
// Plans are immutable once built; execute is const and may run on several threads at once
// (but a Direct plan with a generic butterfly only through its for_thread copy).
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <vector>

namespace kf::cpu {

template <class T>
using cpx = std::complex<T>;

template <class T>
class FftPlan;

/// The cached plan of a length-n complex transform: forward is exp(-2 pi i jk / n), the
/// inverse exp(+2 pi i jk / n), neither scaled.
template <class T>
std::shared_ptr<const FftPlan<T>> plan_for(int64_t n, bool forward);

template <class T>
class FftPlan : public std::enable_shared_from_this<FftPlan<T>> {
 public:
  enum class Kind { kDirect, kBluestein, kFourStep };

  FftPlan(int64_t n, bool forward);
  ~FftPlan();
  FftPlan(const FftPlan&);
  FftPlan& operator=(const FftPlan&) = delete;

  int64_t size() const { return n_; }
  Kind kind() const { return kind_; }
  /// Whether execute spreads its work across threads itself (run its lines one at a time).
  bool threads_inside() const;
  /// Elements of scratch execute needs.
  int64_t scratch_size() const;
  /// This plan, or a private copy where the plan keeps state while it runs (a thread runs the
  /// copy it got here).
  std::shared_ptr<const FftPlan> for_thread() const;
  /// out = the transform of in (n contiguous elements each, distinct arrays); scratch holds
  /// scratch_size() elements.
  void execute(const cpx<T>* in, cpx<T>* out, cpx<T>* scratch) const;

 private:
  struct Direct;
  struct Bluestein;
  struct FourStep;
  void execute_bluestein(const cpx<T>* in, cpx<T>* out, cpx<T>* scratch) const;
  void execute_four_step(const cpx<T>* in, cpx<T>* out, cpx<T>* scratch) const;

  int64_t n_;
  bool forward_;
  Kind kind_;
  std::unique_ptr<Direct> direct_;
  std::unique_ptr<Bluestein> bluestein_;
  std::unique_ptr<FourStep> four_step_;
};

/// A transform between n reals and their n / 2 + 1 non-negative frequencies: even n through a
/// complex transform of n / 2 points (the real input read as pairs) and a twiddle, odd n
/// through the full complex one.
template <class T>
class RealFftPlan {
 public:
  RealFftPlan(int64_t n, bool forward);
  int64_t size() const { return n_; }
  int64_t bins() const { return n_ / 2 + 1; }
  bool threads_inside() const { return inner_->threads_inside(); }
  int64_t scratch_size() const;
  /// A copy for one thread (see FftPlan::for_thread).
  RealFftPlan for_thread() const;
  /// Forward plans: spectrum[0, bins) of the n reals x.
  void forward(const T* x, cpx<T>* spectrum, cpx<T>* scratch) const;
  /// Inverse plans: the n reals x of the Hermitian spectrum[0, bins) (the imaginary parts of
  /// its zero and, for even n, Nyquist terms are ignored), unscaled.
  void inverse(const cpx<T>* spectrum, T* x, cpx<T>* scratch) const;

 private:
  int64_t n_;
  std::shared_ptr<const FftPlan<T>> inner_;  // n / 2 points for even n, else n
  std::shared_ptr<const std::vector<cpx<T>>> twiddle_;  // exp(-+2 pi i k / n), k <= n / 2
};

}  // namespace kf::cpu
