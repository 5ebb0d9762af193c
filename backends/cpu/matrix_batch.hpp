// matrix_batch.hpp — stacks of matrices for the LAPACK kernels: where matrix b of a view
// [..., rows, cols] starts (batch dims broadcast against the output's), its copy into and out of
// a column-major buffer (LAPACK's layout; the routines overwrite their input, so a copy is made
// anyway), and the loop over the batch.
//
// Note [Batches in parallel]: numpy calls LAPACK once per matrix on one thread, and OpenBLAS
// threads a single call only when the matrix is large. So a batch of small matrices runs one
// matrix per thread here (each call then stays single-threaded inside OpenBLAS), and a batch of
// large ones one after another, each call threaded by OpenBLAS itself. A failure (an `info` of
// LAPACK, or an exception such as out-of-memory) never escapes a parallel region: each matrix
// records its own, and after the loop the lowest failing batch index is reported. While such a
// loop runs, OpenBLAS is held at one thread (SingleThreadedBlas): OpenBLAS decides per BLAS
// call whether to wake its own threads, and calls from two of our threads at once then queue
// on its one pool (measured: a batch of 256 64 x 64 Cholesky factorisations 3x slower than one
// after another). Other threads' BLAS calls made meanwhile run on one thread too.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <type_traits>
#include <vector>

#include "kernforge/plugin.h"
#include "lapack_status.hpp"
#include "parallel.hpp"

namespace kf::cpu {

/// The matrices of a view whose last `matrix_dims` (0, 1 or 2) dims form each matrix, indexed
/// by the batch dims of a `batch` shape (the output's) that the view's broadcast to.
class MatrixStack {
 public:
  MatrixStack(const kf_tensor_view_t& v, int32_t matrix_dims, const int64_t* batch_shape,
              int32_t batch_ndim);

  int64_t rows() const { return rows_; }
  int64_t cols() const { return cols_; }
  /// Element stride between rows, and between columns.
  int64_t row_stride() const { return row_stride_; }
  int64_t col_stride() const { return col_stride_; }
  /// The element offset of matrix b (b row-major over the batch shape).
  int64_t offset(int64_t b) const;
  /// Element (i, j) of matrix b (offset(b) walks the batch dims: in loops over a matrix's
  /// elements, take matrix(b) once and step by the strides).
  template <class T>
  T* at(int64_t b, int64_t i, int64_t j) const {
    return matrix<T>(b) + i * row_stride_ + j * col_stride_;
  }
  /// Element (0, 0) of matrix b.
  template <class T>
  T* matrix(int64_t b) const {
    return static_cast<T*>(data_) + offset(b);
  }

 private:
  void* data_;
  int64_t rows_ = 1, cols_ = 1, row_stride_ = 0, col_stride_ = 0;
  int32_t ndim_ = 0;
  int64_t shape_[KF_MAX_NDIM] = {};
  int64_t strides_[KF_MAX_NDIM] = {};  // 0 along a broadcast dim
};

/// The batch dims of an output view: all but its last `matrix_dims`.
struct BatchShape {
  const int64_t* shape;
  int32_t ndim;
  int64_t count;
};
BatchShape batch_of(const kf_tensor_view_t& out, int32_t matrix_dims);

/// A column-major n x n (or rows x cols) buffer with LAPACK's leading dimension (at least 1).
template <class T>
struct ColumnMajor {
  int64_t rows, cols, ld;
  std::vector<T> data;
  ColumnMajor(int64_t r, int64_t c, int64_t lead = 0)
      : rows(r), cols(c), ld(std::max<int64_t>({int64_t{1}, r, lead})),
        data(static_cast<size_t>(ld * std::max<int64_t>(c, 1))) {}
  T& operator()(int64_t i, int64_t j) { return data[static_cast<size_t>(i + j * ld)]; }
};

/// The complex conjugate of v (v itself for a real type).
template <class T>
T conj_of(T v) {
  if constexpr (std::is_floating_point_v<T>) return v;
  else return std::conj(v);
}

/// Matrix b of s, rows x cols, into column-major dst with leading dimension ld.
/// Copies a rows x cols matrix between two layouts, element (i, j) at src[i * srs + j * scs]
/// and dst[i * drs + j * dcs], in tiles of 32 x 32 so that a transposing copy stays in cache.
template <class T>
void copy_tiles(const T* src, int64_t srs, int64_t scs, T* dst, int64_t drs, int64_t dcs,
                int64_t rows, int64_t cols) {
  constexpr int64_t kTile = 32;
  for (int64_t i0 = 0; i0 < rows; i0 += kTile) {
    const int64_t i1 = std::min(rows, i0 + kTile);
    for (int64_t j0 = 0; j0 < cols; j0 += kTile) {
      const int64_t j1 = std::min(cols, j0 + kTile);
      for (int64_t j = j0; j < j1; ++j) {
        for (int64_t i = i0; i < i1; ++i) dst[i * drs + j * dcs] = src[i * srs + j * scs];
      }
    }
  }
}

template <class T>
void read_matrix(const MatrixStack& s, int64_t b, T* dst, int64_t ld) {
  copy_tiles(s.matrix<T>(b), s.row_stride(), s.col_stride(), dst, 1, ld, s.rows(), s.cols());
}

/// Column-major src (leading dimension ld) into matrix b of s (its rows x cols).
template <class T>
void write_matrix(const MatrixStack& s, int64_t b, const T* src, int64_t ld) {
  copy_tiles(src, 1, ld, s.matrix<T>(b), s.row_stride(), s.col_stride(), s.rows(), s.cols());
}

/// Whether the column-major rows x cols matrix `a` holds only finite numbers.
template <class T>
bool all_finite(const T* a, int64_t rows, int64_t cols, int64_t ld) {
  for (int64_t j = 0; j < cols; ++j) {
    for (int64_t i = 0; i < rows; ++i) {
      const T v = a[i + j * ld];
      if (!std::isfinite(std::real(v)) || !std::isfinite(std::imag(v))) return false;
    }
  }
  return true;
}

/// Holds OpenBLAS at one thread while at least one instance lives (process-wide, counted), and
/// gives it back its thread count when the last one goes. Without OpenBLAS it does nothing.
class SingleThreadedBlas {
 public:
  SingleThreadedBlas();
  ~SingleThreadedBlas();
  SingleThreadedBlas(const SingleThreadedBlas&) = delete;
  SingleThreadedBlas& operator=(const SingleThreadedBlas&) = delete;
};

/// Runs fn(b) for every matrix b < count (Note [Batches in parallel]); fn returns its
/// LapackFailure (info 0 when it succeeded). `size` is the matrices' larger dimension.
/// Throws the failure of the lowest batch index, if any.
template <class Fn>
void for_each_matrix(const char* op, int64_t count, int64_t size, Fn fn) {
  constexpr int64_t kLargeMatrix = 192;  // from here OpenBLAS threads one call itself
  const int nt = count > 1 && size < kLargeMatrix ? num_threads() : 1;
  std::vector<LapackFailure> failures(static_cast<size_t>(nt));
  std::exception_ptr error;
  int64_t error_batch = count;
  std::mutex error_mutex;
  std::optional<SingleThreadedBlas> blas;
  if (nt > 1) blas.emplace();
#pragma omp parallel for num_threads(nt) if (nt > 1) schedule(dynamic, 1)
  for (int64_t b = 0; b < count; ++b) {
    LapackFailure& mine = failures[static_cast<size_t>(omp_get_thread_num())];
    if (mine.info != 0 && mine.batch < b) continue;
    try {
      LapackFailure f = fn(b);
      if (f.info != 0 && (mine.info == 0 || b < mine.batch)) {
        f.batch = b;
        mine = f;
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (b < error_batch) {
        error_batch = b;
        error = std::current_exception();
      }
    }
  }
  const LapackFailure* first = nullptr;
  for (const LapackFailure& f : failures) {
    if (f.info != 0 && (first == nullptr || f.batch < first->batch)) first = &f;
  }
  if (error && (first == nullptr || error_batch < first->batch)) std::rethrow_exception(error);
  if (first != nullptr) throw_lapack_failure(op, *first);
}

}  // namespace kf::cpu
