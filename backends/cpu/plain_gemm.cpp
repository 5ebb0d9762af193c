// plain_gemm.cpp — see plain_gemm.hpp.
//
// Note [Plain GEMM]
// The GotoBLAS loop nest, in portable C++ that the compiler vectorises:
//   for each column block jc (kNc columns of B and C)
//     for each depth block pc (kKc)         B[pc.., jc..] packed into panels of kNr columns
//       for each row block ic (kMc)          A[ic.., pc..] packed into panels of kMr rows
//         for each kMr x kNr tile of C      (the tiles are split over threads)
//           acc = A panel · B panel         (acc stays in registers: kMr x kNr values)
//           C tile = acc (first depth block) or C tile += acc (the others)
// Packing makes the inner loop read two contiguous streams whatever the operands' strides, and
// pads ragged edges with zeros so that one micro-kernel serves every tile. The tile is 4 rows by
// 32 bytes of columns (8 floats, 4 doubles): with the baseline x86-64 instruction set that is 8
// accumulator registers of the 16, leaving room for the B row and the broadcast A value.
// Accuracy is a BLAS's: each element is a sum over k in T, blocked by kKc.
#include "plain_gemm.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

#include "parallel.hpp"

namespace kf::cpu {
namespace {

template <class T>
struct Blocking {
  static constexpr int64_t kMr = 4;
  static constexpr int64_t kNr = 32 / static_cast<int64_t>(sizeof(T));
  static constexpr int64_t kKc = 256;
  static constexpr int64_t kMc = 128;  // a multiple of kMr
  static constexpr int64_t kNc = 4096 / static_cast<int64_t>(sizeof(T));  // packed B: 1 MiB
};

template <class T>
struct Operand {
  const T* data;
  int64_t rs, cs;
  T at(int64_t i, int64_t j) const { return data[i * rs + j * cs]; }
};

int64_t round_up(int64_t x, int64_t to) { return (x + to - 1) / to * to; }

/// B[p0 + p, j0 + j] for p < kc, j < nc into kNr-column panels: panel q holds columns
/// q*kNr.. as kc rows of kNr values; columns past nc are zeros.
template <class T>
void pack_b(const Operand<T>& b, int64_t p0, int64_t kc, int64_t j0, int64_t nc, T* out, int nt) {
  constexpr int64_t nr = Blocking<T>::kNr;
  const int64_t panels = (nc + nr - 1) / nr;
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int64_t q = 0; q < panels; ++q) {
    T* dst = out + q * kc * nr;
    const int64_t cols = std::min(nr, nc - q * nr);
    for (int64_t p = 0; p < kc; ++p) {
      for (int64_t j = 0; j < nr; ++j) {
        dst[p * nr + j] = j < cols ? b.at(p0 + p, j0 + q * nr + j) : T(0);
      }
    }
  }
}

/// A[i0 + i, p0 + p] for i < mc, p < kc into kMr-row panels: panel q holds rows q*kMr.. as kc
/// columns of kMr values; rows past mc are zeros.
template <class T>
void pack_a(const Operand<T>& a, int64_t i0, int64_t mc, int64_t p0, int64_t kc, T* out, int nt) {
  constexpr int64_t mr = Blocking<T>::kMr;
  const int64_t panels = (mc + mr - 1) / mr;
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int64_t q = 0; q < panels; ++q) {
    T* dst = out + q * kc * mr;
    const int64_t rows = std::min(mr, mc - q * mr);
    for (int64_t p = 0; p < kc; ++p) {
      for (int64_t i = 0; i < mr; ++i) {
        dst[p * mr + i] = i < rows ? a.at(i0 + q * mr + i, p0 + p) : T(0);
      }
    }
  }
}

/// acc = (one kMr-row panel of A) · (one kNr-column panel of B), both kc deep.
template <class T>
void micro_kernel(int64_t kc, const T* __restrict a, const T* __restrict b,
                  T (&acc)[Blocking<T>::kMr][Blocking<T>::kNr]) {
  constexpr int64_t mr = Blocking<T>::kMr, nr = Blocking<T>::kNr;
  for (int64_t i = 0; i < mr; ++i) {
    for (int64_t j = 0; j < nr; ++j) acc[i][j] = T(0);
  }
  for (int64_t p = 0; p < kc; ++p) {
    const T* ap = a + p * mr;
    const T* bp = b + p * nr;
    for (int64_t i = 0; i < mr; ++i) {
      const T x = ap[i];
      for (int64_t j = 0; j < nr; ++j) acc[i][j] += x * bp[j];
    }
  }
}

struct Block {
  int64_t i0, mc;  // rows of C
  int64_t j0, nc;  // columns of C
  int64_t kc;      // depth
  bool first;      // the first depth block: store rather than accumulate
};

/// Every kMr x kNr tile of one block of C, from packed A and B, split over nt threads.
template <class T>
void multiply_block(const Block& blk, const T* ap, const T* bp, T* c, int64_t c_rs, int64_t c_cs,
                    int nt) {
  constexpr int64_t mr = Blocking<T>::kMr, nr = Blocking<T>::kNr;
  const int64_t row_panels = (blk.mc + mr - 1) / mr;
  const int64_t col_panels = (blk.nc + nr - 1) / nr;
  const int64_t tiles = row_panels * col_panels;
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int64_t t = 0; t < tiles; ++t) {
    const int64_t qi = t % row_panels, qj = t / row_panels;  // neighbours share a B panel
    T acc[mr][nr];
    micro_kernel<T>(blk.kc, ap + qi * blk.kc * mr, bp + qj * blk.kc * nr, acc);
    const int64_t rows = std::min(mr, blk.mc - qi * mr);
    const int64_t cols = std::min(nr, blk.nc - qj * nr);
    for (int64_t i = 0; i < rows; ++i) {
      T* crow = c + (blk.i0 + qi * mr + i) * c_rs + (blk.j0 + qj * nr) * c_cs;
      if (blk.first) {
        for (int64_t j = 0; j < cols; ++j) crow[j * c_cs] = acc[i][j];
      } else {
        for (int64_t j = 0; j < cols; ++j) crow[j * c_cs] += acc[i][j];
      }
    }
  }
}

template <class T>
void gemm_impl(int64_t m, int64_t n, int64_t k, Operand<T> a, Operand<T> b, T* c, int64_t c_rs,
               int64_t c_cs) {
  using B = Blocking<T>;
  if (m <= 0 || n <= 0) return;
  if (k <= 0) {  // an empty sum: zeros
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) c[i * c_rs + j * c_cs] = T(0);
    }
    return;
  }
  const int64_t kc_max = std::min(B::kKc, k);
  // Buffers are allocated here, never inside a parallel region (bad_alloc must not escape one).
  std::vector<T> b_pack(static_cast<size_t>(kc_max * round_up(std::min(B::kNc, n), B::kNr)));
  std::vector<T> a_pack(static_cast<size_t>(kc_max * round_up(std::min(B::kMc, m), B::kMr)));
  const int nt = threads_for(m * n * k);
  for (int64_t j0 = 0; j0 < n; j0 += B::kNc) {
    const int64_t nc = std::min(B::kNc, n - j0);
    for (int64_t p0 = 0; p0 < k; p0 += B::kKc) {
      const int64_t kc = std::min(B::kKc, k - p0);
      pack_b(b, p0, kc, j0, nc, b_pack.data(), nt);
      for (int64_t i0 = 0; i0 < m; i0 += B::kMc) {
        const int64_t mc = std::min(B::kMc, m - i0);
        pack_a(a, i0, mc, p0, kc, a_pack.data(), nt);
        multiply_block(Block{i0, mc, j0, nc, kc, p0 == 0}, a_pack.data(), b_pack.data(), c, c_rs,
                       c_cs, nt);
      }
    }
  }
}

}  // namespace

void plain_gemm(int64_t m, int64_t n, int64_t k, const float* a, int64_t a_rs, int64_t a_cs,
                const float* b, int64_t b_rs, int64_t b_cs, float* c, int64_t c_rs,
                int64_t c_cs) {
  gemm_impl<float>(m, n, k, {a, a_rs, a_cs}, {b, b_rs, b_cs}, c, c_rs, c_cs);
}

void plain_gemm(int64_t m, int64_t n, int64_t k, const double* a, int64_t a_rs, int64_t a_cs,
                const double* b, int64_t b_rs, int64_t b_cs, double* c, int64_t c_rs,
                int64_t c_cs) {
  gemm_impl<double>(m, n, k, {a, a_rs, a_cs}, {b, b_rs, b_cs}, c, c_rs, c_cs);
}

}  // namespace kf::cpu
