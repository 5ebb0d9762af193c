// getrfBatched and getrsBatched of cuBLAS for every dtype (solver_lu_batched.hpp).
#include "solver_lu_batched.hpp"

#include <climits>
#include <memory>
#include <string>

#include "cublas_check.hpp"
#include "kernforge/plugin.hpp"

namespace kf::cuda {
namespace {

struct LuCall {
  cublasHandle_t h;
  int n, nrhs, batch;
  void** a;
  void** b;
  int* pivots;
  int* info;
};

template <class T, class Getrf, class Getrs>
void run(const LuCall& c, Getrf getrf, Getrs getrs) {
  T* const* a = reinterpret_cast<T* const*>(c.a);
  check(getrf(c.h, c.n, a, c.n, c.pivots, c.info, c.batch), "cublas<t>getrfBatched");
  int arg = 0;  // getrsBatched checks its arguments on the host
  check(getrs(c.h, CUBLAS_OP_N, c.n, c.nrhs, reinterpret_cast<const T* const*>(c.a), c.n,
              c.pivots, reinterpret_cast<T* const*>(c.b), c.n, &arg, c.batch),
        "cublas<t>getrsBatched");
  if (arg != 0) {
    throw kf::plugin::KernelError(KF_INTERNAL, "cublas<t>getrsBatched refused argument " +
                                                   std::to_string(-arg) +
                                                   " (a bug of the cuda plugin; please report it)");
  }
}

void dispatch(int32_t dtype, const LuCall& c) {
  switch (dtype) {
    case KF_FLOAT32: return run<float>(c, cublasSgetrfBatched, cublasSgetrsBatched);
    case KF_FLOAT64: return run<double>(c, cublasDgetrfBatched, cublasDgetrsBatched);
    case KF_COMPLEX64: return run<cuComplex>(c, cublasCgetrfBatched, cublasCgetrsBatched);
    default: return run<cuDoubleComplex>(c, cublasZgetrfBatched, cublasZgetrsBatched);
  }
}

}  // namespace

void lu_solve_batched(const KernelScope& scope, int32_t device, MatrixBatch& m, MatrixBatch& x,
                      const InfoArray& info) {
  const cudaStream_t stream = scope.stream();
  if (m.count() > INT_MAX || x.cols() > INT_MAX) {
    throw kf::plugin::KernelError(KF_UNIMPLEMENTED, "a batch or right-hand side beyond 2^31-1 "
                                                    "exceeds cuBLAS's batched LU");
  }
  const std::unique_ptr<StreamScratch> a = device_pointers(m, stream);
  const std::unique_ptr<StreamScratch> b = device_pointers(x, stream);
  StreamScratch pivots(static_cast<size_t>(m.count() * m.rows()) * sizeof(int), stream);
  PooledHandle<CublasPool> handle(scope.backend().blas.cublas, device, stream);
  check(cublasSetStream(handle.get(), stream), "cublasSetStream");
  const LuCall c{handle.get(),        static_cast<int>(m.rows()), static_cast<int>(x.cols()),
                 static_cast<int>(m.count()), a->as<void*>(), b->as<void*>(),
                 pivots.as<int>(),    info.at(0)};
  dispatch(m.dtype(), c);
}

}  // namespace kf::cuda
