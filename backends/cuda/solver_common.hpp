// solver_common.hpp — what the cuSOLVER ops share (solver_factor_ops.cpp,
// solver_spectral_ops.cpp): the routines' types, column-major scratch batches read from and
// written to kernforge views of any strides, the per-matrix info array and the handle.
//
// Note [Reading info back]
// cuSOLVER reports a singular matrix, a minor that is not positive-definite or no convergence
// in an `info` per matrix, in device memory. The ops must fail with that error rather than
// return garbage with KF_OK (as the CPU's do), so after queuing a routine the op copies the
// infos to the host and waits for its stream (InfoArray::read): one stream synchronisation per
// call of these ops, as PyTorch's linalg_*_ex checks do. linalg_det and linalg_slogdet do not
// fail on a singular matrix and never wait.
#pragma once

#include <cuda_runtime_api.h>
#include <cusolverDn.h>
#include <library_types.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "blas_state.hpp"
#include "kernel_scope.hpp"
#include "kernforge/plugin.h"
#include "view_layout.hpp"

namespace kf::cuda {

/// The dtypes of the ops: the CPU's kLapackMask.
constexpr uint32_t kSolverDtypes = (1u << KF_FLOAT32) | (1u << KF_FLOAT64) |
                                   (1u << KF_COMPLEX64) | (1u << KF_COMPLEX128);

cudaDataType solver_type(int32_t dtype);       // CUDA_R_32F ... CUDA_C_64F
cudaDataType solver_real_type(int32_t dtype);  // the real type of eigenvalues, singular values
int32_t real_dtype_of(int32_t dtype);          // KF_FLOAT32 or KF_FLOAT64

/// The batch dims of `v` (all but its last `matrix_dims`).
std::vector<int64_t> batch_shape_of(const kf_tensor_view_t& v, int matrix_dims);

/// Copies `src` (any strides, broadcast to dst's shape) into `dst` of one dtype on `stream`.
void copy_view(const ViewLayout& dst, void* dst_data, const ViewLayout& src,
               const void* src_data, cudaStream_t stream);

/// The layout of a kernforge view.
ViewLayout layout_of(const kf_tensor_view_t& v);

/// `batch` dense column-major rows x cols matrices in stream scratch memory (ld = rows).
class MatrixBatch {
 public:
  MatrixBatch(int32_t dtype, std::vector<int64_t> batch_shape, int64_t rows, int64_t cols,
              cudaStream_t stream);
  void* data() const { return mem_.get(); }
  void* matrix(int64_t b) const;
  int64_t count() const { return count_; }
  int64_t rows() const { return rows_; }
  int64_t cols() const { return cols_; }
  int32_t dtype() const { return dtype_; }
  /// This batch read as column-major (or its memory read as row-major) matrices.
  ViewLayout layout(bool column_major = true) const;
  /// Fills it from `src` [..., rows, cols] (batch dims broadcast to this batch's).
  void read(const kf_tensor_view_t& src, cudaStream_t stream);
  /// Writes it to `dst` [..., rows, cols] of this batch's batch dims.
  void write(const kf_tensor_view_t& dst, cudaStream_t stream) const;

 private:
  int32_t dtype_;
  std::vector<int64_t> batch_shape_;
  int64_t rows_, cols_, count_;
  StreamScratch mem_;
};

/// The infos of `count` matrices in device memory, zeroed (Note [Reading info back]).
class InfoArray {
 public:
  InfoArray(int64_t count, cudaStream_t stream);
  int* at(int64_t b) const { return mem_.as<int>() + b; }
  /// Waits for the stream and returns the infos.
  std::vector<int32_t> read(cudaStream_t stream) const;

 private:
  int64_t count_;
  StreamScratch mem_;
};

/// A cuSOLVER handle of the pool on the call's stream, with 64-bit API parameters.
class SolverHandle {
 public:
  SolverHandle(const KernelScope& scope, int32_t device);
  ~SolverHandle();
  SolverHandle(const SolverHandle&) = delete;
  SolverHandle& operator=(const SolverHandle&) = delete;
  cusolverDnHandle_t get() const { return handle_.get(); }
  cusolverDnParams_t params() const { return params_; }

 private:
  PooledHandle<CusolverPool> handle_;
  cusolverDnParams_t params_ = nullptr;
};

/// Device and host workspaces of one size for a loop of routine calls.
class Workspace {
 public:
  Workspace(size_t device_bytes, size_t host_bytes, cudaStream_t stream);
  void* device() const { return device_.get(); }
  size_t device_bytes() const { return device_bytes_; }
  void* host() { return host_.empty() ? nullptr : host_.data(); }
  size_t host_bytes() const { return host_.size(); }

 private:
  size_t device_bytes_;
  StreamScratch device_;
  std::vector<unsigned char> host_;
};

/// A device array of `m`'s matrix addresses (the batched routines' Aarray), queued on `stream`.
std::unique_ptr<StreamScratch> device_pointers(const MatrixBatch& m, cudaStream_t stream);

/// Throws KF_INTERNAL unless `v` has `dtype` (the glue's check of the core's meta).
void require_dtype(const kf_tensor_view_t& v, int32_t dtype, const char* what, const char* op);

}  // namespace kf::cuda
