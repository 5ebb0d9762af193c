// What the cuSOLVER ops share (solver_common.hpp).
#include "solver_common.hpp"

#include <string>

#include "copy_launch.hpp"
#include "cuda_check.hpp"
#include "kernforge/plugin.hpp"
#include "library_check.hpp"
#include "operands.hpp"
#include "solver_choice.hpp"

namespace kf::cuda {

cudaDataType solver_type(int32_t dtype) {
  switch (dtype) {
    case KF_FLOAT32: return CUDA_R_32F;
    case KF_FLOAT64: return CUDA_R_64F;
    case KF_COMPLEX64: return CUDA_C_32F;
    case KF_COMPLEX128: return CUDA_C_64F;
    default:
      throw kf::plugin::KernelError(KF_UNIMPLEMENTED, std::string("dtype ") +
                                                          kf_dtype_string(dtype) +
                                                          " is not supported by cuSOLVER");
  }
}

int32_t real_dtype_of(int32_t dtype) {
  return dtype == KF_FLOAT32 || dtype == KF_COMPLEX64 ? KF_FLOAT32 : KF_FLOAT64;
}

cudaDataType solver_real_type(int32_t dtype) { return solver_type(real_dtype_of(dtype)); }

std::vector<int64_t> batch_shape_of(const kf_tensor_view_t& v, int matrix_dims) {
  const int n = v.ndim - matrix_dims;
  return std::vector<int64_t>(v.shape, v.shape + (n > 0 ? n : 0));
}

ViewLayout layout_of(const kf_tensor_view_t& v) {
  ViewLayout l;
  l.dtype = v.dtype;
  l.shape.assign(v.shape, v.shape + v.ndim);
  l.strides.assign(v.strides, v.strides + v.ndim);
  return l;
}

void copy_view(const ViewLayout& dst, void* dst_data, const ViewLayout& src,
               const void* src_data, cudaStream_t stream) {
  const ViewLayout d = as_bits(dst);
  ViewLayout s = src;
  s.strides = broadcast_strides(src.shape, src.strides, dst.shape);
  s.shape = dst.shape;
  s = as_bits(s);
  kf_tensor_view_t dv{}, sv{};
  dv.data = dst_data;
  sv.data = const_cast<void*>(src_data);
  dv.dtype = sv.dtype = d.dtype;
  dv.ndim = sv.ndim = static_cast<int32_t>(d.shape.size());
  dv.shape = sv.shape = d.shape.data();
  dv.strides = d.strides.data();
  sv.strides = s.strides.data();
  dv.numel = sv.numel = product_of(d.shape);
  if (dv.numel == 0) return;
  launch_convert(make_operands({&dv, &sv}), d.dtype, d.dtype, stream);
}

MatrixBatch::MatrixBatch(int32_t dtype, std::vector<int64_t> batch_shape, int64_t rows,
                         int64_t cols, cudaStream_t stream)
    : dtype_(dtype), batch_shape_(std::move(batch_shape)), rows_(rows), cols_(cols),
      count_(product_of(batch_shape_)),
      mem_(static_cast<size_t>(count_ * rows * cols) * kf_dtype_itemsize(dtype), stream) {}

void* MatrixBatch::matrix(int64_t b) const {
  const size_t offset = static_cast<size_t>(b * rows_ * cols_) * kf_dtype_itemsize(dtype_);
  return static_cast<unsigned char*>(mem_.get()) + offset;
}

ViewLayout MatrixBatch::layout(bool column_major) const {
  return matrix_batch(batch_shape_, rows_, cols_, column_major, dtype_);
}

void MatrixBatch::read(const kf_tensor_view_t& src, cudaStream_t stream) {
  copy_view(layout(), data(), layout_of(src), src.data, stream);
}

void MatrixBatch::write(const kf_tensor_view_t& dst, cudaStream_t stream) const {
  ViewLayout from = layout();
  copy_view(layout_of(dst), dst.data, from, data(), stream);
}

InfoArray::InfoArray(int64_t count, cudaStream_t stream)
    : count_(count), mem_(static_cast<size_t>(count) * sizeof(int), stream) {
  if (count > 0) {
    check(cudaMemsetAsync(mem_.get(), 0, static_cast<size_t>(count) * sizeof(int), stream),
          "cudaMemsetAsync (cuSOLVER infos)");
  }
}

std::vector<int32_t> InfoArray::read(cudaStream_t stream) const {
  std::vector<int32_t> host(static_cast<size_t>(count_));
  if (count_ == 0) return host;
  check(cudaMemcpyAsync(host.data(), mem_.get(), host.size() * sizeof(int32_t),
                        cudaMemcpyDeviceToHost, stream),
        "cudaMemcpyAsync (cuSOLVER infos)");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (cuSOLVER infos)");
  return host;
}

SolverHandle::SolverHandle(const KernelScope& scope, int32_t device)
    : handle_(scope.backend().blas.cusolver, device, scope.stream()) {
  check(cusolverDnSetStream(handle_.get(), scope.stream()), "cusolverDnSetStream");
  check(cusolverDnCreateParams(&params_), "cusolverDnCreateParams");
}

SolverHandle::~SolverHandle() {
  if (params_ != nullptr) (void)cusolverDnDestroyParams(params_);
}

Workspace::Workspace(size_t device_bytes, size_t host_bytes, cudaStream_t stream)
    : device_bytes_(solver_workspace_bytes(device_bytes)), device_(device_bytes_, stream),
      host_(host_bytes) {}

std::unique_ptr<StreamScratch> device_pointers(const MatrixBatch& m, cudaStream_t stream) {
  std::vector<void*> host(static_cast<size_t>(m.count()));
  for (int64_t b = 0; b < m.count(); ++b) host[static_cast<size_t>(b)] = m.matrix(b);
  auto holder = std::make_unique<StreamScratch>(host.size() * sizeof(void*), stream);
  // Pageable source: the call returns once the addresses are staged, so `host` may go.
  check(cudaMemcpyAsync(holder->get(), host.data(), host.size() * sizeof(void*),
                        cudaMemcpyHostToDevice, stream),
        "cudaMemcpyAsync (matrix addresses)");
  return holder;
}

void require_dtype(const kf_tensor_view_t& v, int32_t dtype, const char* what, const char* op) {
  if (v.dtype != dtype) {
    throw kf::plugin::KernelError(
        KF_INTERNAL, std::string(what) + " has dtype " + kf_dtype_string(v.dtype) +
                         ", expected " + kf_dtype_string(dtype) + " (cuda " + op + ")");
  }
}

}  // namespace kf::cuda
