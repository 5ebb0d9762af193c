// fft_plan.cpp — the plans of Note [FFT plans] (fft_plan.hpp): their choice, their tables and
// their execution, for float and double.
#include "fft_plan.hpp"

#if KF_CPU_HAVE_FFT

#include <kissfft/kissfft.hh>

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <utility>

#include "parallel.hpp"

namespace kf::cpu {
namespace {

constexpr int64_t kFourStepFrom = int64_t{1} << 14;  // lengths from here on are split ...
constexpr int64_t kFourStepMin = 64;                 // ... into two sides at least this long
constexpr int64_t kBlock = 8;                        // lines a four-step gathers at a time
constexpr double kPi = 3.14159265358979323846;

/// The prime factors of n, ascending, with multiplicity.
std::vector<int64_t> prime_factors(int64_t n) {
  std::vector<int64_t> f;
  for (int64_t p = 2; p * p <= n; p += (p == 2 ? 1 : 2)) {
    while (n % p == 0) {
      f.push_back(p);
      n /= p;
    }
  }
  if (n > 1) f.push_back(n);
  return f;
}

/// KISS FFT's cost per element of a length-n transform, in radix-4 stages: it takes the factors
/// 4 first, then 2, 3, 5, 7, ...; a lone radix-2 stage costs about what a radix-4 one does (on
/// an EPYC: 2048 points take 24 ns per element, 1024 points 17), 3 and 5 a little more, and a
/// larger p about p / 2 (its generic butterfly).
double direct_cost_per_element(int64_t n) {
  double c = 0;
  int twos = 0;
  for (int64_t p : prime_factors(n)) {
    if (p == 2) ++twos;
    else c += p == 3 ? 1.2 : p == 5 ? 1.7 : double(p) / 2;
  }
  return c + twos / 2 + twos % 2;
}

/// The 2,3,5-smooth length m >= at_least that KISS FFT transforms cheapest (m * cost).
int64_t bluestein_length(int64_t at_least) {
  int64_t best = 0;
  double best_cost = 0;
  for (int64_t p5 = 1; p5 < 2 * at_least; p5 *= 5) {
    for (int64_t p35 = p5; p35 < 2 * at_least; p35 *= 3) {
      int64_t m = p35;
      while (m < at_least) m *= 2;
      const double cost = double(m) * direct_cost_per_element(m);
      if (best == 0 || cost < best_cost) best = m, best_cost = cost;
    }
  }
  return best;
}

/// The divisor n1 <= sqrt(n) of n, at least kFourStepMin, whose split n1 * (n / n1) is
/// cheapest for KISS FFT (0 when there is none).
int64_t four_step_divisor(int64_t n) {
  int64_t best = 0;
  double best_cost = 0;
  for (int64_t d = kFourStepMin; d * d <= n; ++d) {
    if (n % d != 0 || n / d < kFourStepMin) continue;
    const double cost = direct_cost_per_element(d) + direct_cost_per_element(n / d);
    if (best == 0 || cost < best_cost) best = d, best_cost = cost;
  }
  return best;
}

/// exp(sign * 2 pi i t / n), computed in double.
template <class T>
cpx<T> unit_root(int64_t t, int64_t n, double sign) {
  const double a = sign * 2.0 * kPi * double(t) / double(n);
  return {static_cast<T>(std::cos(a)), static_cast<T>(std::sin(a))};
}

/// A small cache of immutable plans by key, built outside the lock (a plan's construction
/// asks the cache for its sub-plans); emptied when it holds kCapacity plans.
template <class Key, class Plan>
class PlanCache {
 public:
  template <class Build>
  std::shared_ptr<const Plan> get(const Key& key, Build build) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = plans_.find(key);
      if (it != plans_.end()) return it->second;
    }
    std::shared_ptr<const Plan> made = build();
    std::lock_guard<std::mutex> lock(mu_);
    if (plans_.size() >= kCapacity) plans_.clear();
    return plans_.emplace(key, std::move(made)).first->second;
  }

 private:
  static constexpr size_t kCapacity = 64;
  std::mutex mu_;
  std::map<Key, std::shared_ptr<const Plan>> plans_;
};

}  // namespace

template <class T>
struct FftPlan<T>::Direct {
  kissfft<T> kiss;
  bool generic;  // a prime factor above 5: kissfft's generic butterfly, with its scratch buffer
};

template <class T>
struct FftPlan<T>::Bluestein {
  int64_t m = 0;
  std::vector<cpx<T>> chirp;   // exp(-+ pi i j^2 / n), j < n
  std::vector<cpx<T>> kernel;  // the forward transform of conj(chirp) around 0, over m
  std::shared_ptr<const FftPlan<T>> sub;  // forward, length m
};

template <class T>
struct FftPlan<T>::FourStep {
  int64_t n1 = 0, n2 = 0;  // n = n1 * n2: n1 transforms of n2 points, then n2 of n1 points
  int shift = 0;           // the twiddle exp(-+2 pi i t / n) is high[t >> shift] * low[t & mask]
  std::vector<cpx<T>> high, low;
  std::shared_ptr<const FftPlan<T>> first, second;  // lengths n2 and n1

  cpx<T> twiddle(int64_t t) const {
    return high[static_cast<size_t>(t >> shift)] *
           low[static_cast<size_t>(t & ((int64_t{1} << shift) - 1))];
  }
};

template <class T>
FftPlan<T>::FftPlan(int64_t n, bool forward) : n_(n), forward_(forward), kind_(Kind::kDirect) {
  const double sign = forward ? -1.0 : 1.0;
  const int64_t n1 = n >= kFourStepFrom ? four_step_divisor(n) : 0;
  if (n1 != 0) {
    auto f = std::make_unique<FourStep>();
    f->n1 = n1;
    f->n2 = n / n1;
    while ((int64_t{1} << (2 * f->shift)) < n) ++f->shift;
    const int64_t low_size = int64_t{1} << f->shift;
    for (int64_t t = 0; t < low_size; ++t) f->low.push_back(unit_root<T>(t, n, sign));
    for (int64_t t = 0; t * low_size < n; ++t) f->high.push_back(unit_root<T>(t * low_size, n, sign));
    f->first = plan_for<T>(f->n2, forward);
    f->second = plan_for<T>(f->n1, forward);
    kind_ = Kind::kFourStep;
    four_step_ = std::move(f);
    return;
  }
  const int64_t m = n > 1 ? bluestein_length(2 * n - 1) : 1;
  const double direct = double(n) * direct_cost_per_element(n);
  const double bluestein = 2.0 * double(m) * direct_cost_per_element(m) + 6.0 * double(m);
  if (n > 5 && bluestein < direct) {
    auto b = std::make_unique<Bluestein>();
    b->m = m;
    b->chirp.resize(static_cast<size_t>(n));
    int64_t sq = 0;  // j^2 mod 2n, kept exact by (j + 1)^2 = j^2 + 2j + 1
    for (int64_t j = 0; j < n; ++j) {  // pi j^2 / n = 2 pi (j^2 mod 2n) / (2n)
      b->chirp[static_cast<size_t>(j)] = unit_root<T>(sq, 2 * n, sign);
      sq = (sq + 2 * j + 1) % (2 * n);
    }
    std::vector<cpx<T>> around(static_cast<size_t>(m), cpx<T>(0, 0));
    around[0] = std::conj(b->chirp[0]);
    for (int64_t j = 1; j < n; ++j) {
      around[static_cast<size_t>(j)] = around[static_cast<size_t>(m - j)] =
          std::conj(b->chirp[static_cast<size_t>(j)]);
    }
    b->sub = plan_for<T>(m, true);
    b->kernel.resize(static_cast<size_t>(m));
    std::vector<cpx<T>> scratch(static_cast<size_t>(b->sub->scratch_size()));
    b->sub->execute(around.data(), b->kernel.data(), scratch.data());
    const T inv_m = T(1) / static_cast<T>(m);
    for (auto& k : b->kernel) k *= inv_m;
    kind_ = Kind::kBluestein;
    bluestein_ = std::move(b);
    return;
  }
  bool generic = false;
  for (int64_t p : prime_factors(n)) generic = generic || p > 5;
  direct_.reset(new Direct{kissfft<T>(static_cast<size_t>(n), !forward), generic});
}

template <class T>
FftPlan<T>::~FftPlan() = default;

template <class T>
FftPlan<T>::FftPlan(const FftPlan& o)
    : std::enable_shared_from_this<FftPlan<T>>(), n_(o.n_), forward_(o.forward_), kind_(o.kind_) {
  if (o.direct_) direct_.reset(new Direct(*o.direct_));
  if (o.bluestein_) bluestein_.reset(new Bluestein(*o.bluestein_));
  if (o.four_step_) four_step_.reset(new FourStep(*o.four_step_));
}

template <class T>
int64_t FftPlan<T>::scratch_size() const {
  switch (kind_) {
    case Kind::kBluestein: return 2 * bluestein_->m + bluestein_->sub->scratch_size();
    case Kind::kFourStep: return n_;
    case Kind::kDirect: break;
  }
  return 0;
}

template <class T>
bool FftPlan<T>::threads_inside() const {
  return kind_ == Kind::kFourStep || (kind_ == Kind::kBluestein && bluestein_->sub->threads_inside());
}

template <class T>
std::shared_ptr<const FftPlan<T>> FftPlan<T>::for_thread() const {
  if (kind_ == Kind::kDirect && direct_->generic) return std::make_shared<const FftPlan>(*this);
  return this->shared_from_this();
}

template <class T>
void FftPlan<T>::execute(const cpx<T>* in, cpx<T>* out, cpx<T>* scratch) const {
  switch (kind_) {
    case Kind::kBluestein: return execute_bluestein(in, out, scratch);
    case Kind::kFourStep: return execute_four_step(in, out, scratch);
    case Kind::kDirect: break;
  }
  if (n_ == 1) {
    out[0] = in[0];
    return;
  }
  direct_->kiss.transform(in, out);
}

// X[k] = c[k] sum_j (x[j] c[j]) conj(c[k - j]) with c[j] = exp(-+ pi i j^2 / n): a circular
// convolution of length m, its inverse transform done as conj(forward(conj(.))).
template <class T>
void FftPlan<T>::execute_bluestein(const cpx<T>* in, cpx<T>* out, cpx<T>* scratch) const {
  const Bluestein& b = *bluestein_;
  cpx<T>* a = scratch;
  cpx<T>* spectrum = scratch + b.m;
  cpx<T>* sub_scratch = scratch + 2 * b.m;
  for (int64_t j = 0; j < n_; ++j) a[j] = in[j] * b.chirp[static_cast<size_t>(j)];
  std::fill(a + n_, a + b.m, cpx<T>(0, 0));
  b.sub->execute(a, spectrum, sub_scratch);
  for (int64_t k = 0; k < b.m; ++k) {
    a[k] = std::conj(spectrum[k] * b.kernel[static_cast<size_t>(k)]);
  }
  b.sub->execute(a, spectrum, sub_scratch);
  for (int64_t k = 0; k < n_; ++k) {
    out[k] = b.chirp[static_cast<size_t>(k)] * std::conj(spectrum[k]);
  }
}

// With j = j1 + n1 j2 and k = k2 + n2 k1: X[k] = sum_j1 w^(j1 k2) W_n1^(j1 k1)
// [sum_j2 x[j] W_n2^(j2 k2)]. Step one reads the columns j1 of x seen as [n2][n1] and writes
// the rows of y = [n1][n2] (times the twiddle); step two transforms y's columns k2 into the
// same columns of the output seen as [n1][n2]. Each step gathers kBlock lines side by side.
template <class T>
void FftPlan<T>::execute_four_step(const cpx<T>* in, cpx<T>* out, cpx<T>* y) const {
  const FourStep& f = *four_step_;
  const int64_t n1 = f.n1, n2 = f.n2;
  const int64_t blocks1 = (n1 + kBlock - 1) / kBlock, blocks2 = (n2 + kBlock - 1) / kBlock;
  const int threads = threads_for(n_ * 8);
#pragma omp parallel num_threads(threads)
  {
    const auto first = f.first->for_thread(), second = f.second->for_thread();
    const int64_t longest = std::max(n1, n2);
    std::vector<cpx<T>> lines(static_cast<size_t>(2 * kBlock * longest));
    std::vector<cpx<T>> sub(static_cast<size_t>(
        std::max<int64_t>(1, std::max(first->scratch_size(), second->scratch_size()))));
    cpx<T>* gathered = lines.data();
    cpx<T>* done = lines.data() + kBlock * longest;
#pragma omp for schedule(static)
    for (int64_t blk = 0; blk < blocks1; ++blk) {
      const int64_t j1 = blk * kBlock, count = std::min(kBlock, n1 - j1);
      for (int64_t j2 = 0; j2 < n2; ++j2) {
        const cpx<T>* row = in + j2 * n1 + j1;
        for (int64_t b = 0; b < count; ++b) gathered[b * n2 + j2] = row[b];
      }
      for (int64_t b = 0; b < count; ++b) {
        cpx<T>* yrow = y + (j1 + b) * n2;
        first->execute(gathered + b * n2, yrow, sub.data());
        int64_t t = 0;
        for (int64_t k2 = 0; k2 < n2; ++k2) {
          yrow[k2] *= f.twiddle(t);
          t += j1 + b;
          if (t >= n_) t -= n_;
        }
      }
    }
#pragma omp for schedule(static)
    for (int64_t blk = 0; blk < blocks2; ++blk) {
      const int64_t k2 = blk * kBlock, count = std::min(kBlock, n2 - k2);
      for (int64_t j1 = 0; j1 < n1; ++j1) {
        const cpx<T>* row = y + j1 * n2 + k2;
        for (int64_t b = 0; b < count; ++b) gathered[b * n1 + j1] = row[b];
      }
      for (int64_t b = 0; b < count; ++b) {
        second->execute(gathered + b * n1, done + b * n1, sub.data());
      }
      for (int64_t k1 = 0; k1 < n1; ++k1) {
        cpx<T>* row = out + k1 * n2 + k2;
        for (int64_t b = 0; b < count; ++b) row[b] = done[b * n1 + k1];
      }
    }
  }
}

template <class T>
std::shared_ptr<const FftPlan<T>> plan_for(int64_t n, bool forward) {
  static PlanCache<std::pair<int64_t, bool>, FftPlan<T>> cache;
  return cache.get({n, forward}, [&] { return std::make_shared<const FftPlan<T>>(n, forward); });
}

// ------------------------------------------------------------------------ real transforms

template <class T>
RealFftPlan<T>::RealFftPlan(int64_t n, bool forward) : n_(n) {
  inner_ = plan_for<T>(n % 2 == 0 ? n / 2 : n, forward);
  if (n % 2 == 0) {
    static PlanCache<std::pair<int64_t, bool>, std::vector<cpx<T>>> twiddles;
    twiddle_ = twiddles.get({n, forward}, [&] {
      auto w = std::make_shared<std::vector<cpx<T>>>();
      for (int64_t k = 0; k <= n / 2; ++k) w->push_back(unit_root<T>(k, n, forward ? -1.0 : 1.0));
      return std::shared_ptr<const std::vector<cpx<T>>>(std::move(w));
    });
  }
}

template <class T>
int64_t RealFftPlan<T>::scratch_size() const {
  // the complex line (n / 2 + 1 or n points), the inner transform's output, its scratch
  return 2 * (n_ + 1) + inner_->scratch_size();
}

template <class T>
RealFftPlan<T> RealFftPlan<T>::for_thread() const {
  RealFftPlan copy = *this;
  copy.inner_ = inner_->for_thread();
  return copy;
}

// Even n: z[j] = x[2j] + i x[2j + 1] has Z = E + i O (the transforms of the even and odd
// samples), and X[k] = E[k] + w^k O[k] with E[k] = (Z[k] + conj(Z[h - k])) / 2 and
// O[k] = (Z[k] - conj(Z[h - k])) / 2i, h = n / 2.
template <class T>
void RealFftPlan<T>::forward(const T* x, cpx<T>* spectrum, cpx<T>* scratch) const {
  cpx<T>* line = scratch;
  cpx<T>* z = scratch + n_ + 1;
  cpx<T>* sub = scratch + 2 * (n_ + 1);
  if (n_ % 2 != 0) {
    for (int64_t j = 0; j < n_; ++j) line[j] = cpx<T>(x[j], 0);
    inner_->execute(line, z, sub);
    std::copy(z, z + bins(), spectrum);
    return;
  }
  const int64_t h = n_ / 2;
  for (int64_t j = 0; j < h; ++j) line[j] = cpx<T>(x[2 * j], x[2 * j + 1]);
  inner_->execute(line, z, sub);
  const std::vector<cpx<T>>& w = *twiddle_;
  const cpx<T> minus_half_i(0, T(-0.5));
  for (int64_t k = 0; k <= h; ++k) {
    const cpx<T> zk = z[k % h], zc = std::conj(z[(h - k) % h]);
    spectrum[k] = T(0.5) * (zk + zc) + w[static_cast<size_t>(k)] * (minus_half_i * (zk - zc));
  }
}

// Even n, the forward's steps backwards: 2Z[k] = (X[k] + conj(X[h - k])) +
// i w^-k (X[k] - conj(X[h - k])), whose unscaled inverse transform is n z (an inverse plan's
// twiddle is w^-k = exp(2 pi i k / n)).
template <class T>
void RealFftPlan<T>::inverse(const cpx<T>* spectrum, T* x, cpx<T>* scratch) const {
  cpx<T>* line = scratch;
  cpx<T>* z = scratch + n_ + 1;
  cpx<T>* sub = scratch + 2 * (n_ + 1);
  const int64_t h = n_ / 2;
  const auto term = [&](int64_t k) {  // the spectrum, with real zero and Nyquist terms
    const cpx<T> s = spectrum[k];
    return k == 0 || 2 * k == n_ ? cpx<T>(s.real(), 0) : s;
  };
  if (n_ % 2 != 0) {
    line[0] = term(0);
    for (int64_t k = 1; k <= h; ++k) {
      line[k] = term(k);
      line[n_ - k] = std::conj(line[k]);
    }
    inner_->execute(line, z, sub);
    for (int64_t j = 0; j < n_; ++j) x[j] = z[j].real();
    return;
  }
  const std::vector<cpx<T>>& w = *twiddle_;
  const cpx<T> i(0, 1);
  for (int64_t k = 0; k < h; ++k) {
    const cpx<T> xk = term(k), xc = std::conj(term(h - k));
    line[k] = (xk + xc) + i * w[static_cast<size_t>(k)] * (xk - xc);
  }
  inner_->execute(line, z, sub);
  for (int64_t j = 0; j < h; ++j) {
    x[2 * j] = z[j].real();
    x[2 * j + 1] = z[j].imag();
  }
}

template class FftPlan<float>;
template class FftPlan<double>;
template class RealFftPlan<float>;
template class RealFftPlan<double>;
template std::shared_ptr<const FftPlan<float>> plan_for<float>(int64_t, bool);
template std::shared_ptr<const FftPlan<double>> plan_for<double>(int64_t, bool);

}  // namespace kf::cpu

#endif  // KF_CPU_HAVE_FFT
