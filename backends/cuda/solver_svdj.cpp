// gesvdjBatched for every dtype (solver_svdj.hpp): the typed calls behind one template.
#include "solver_svdj.hpp"

#include <algorithm>

#include "library_check.hpp"

namespace kf::cuda {
namespace {

/// gesvdjBatched's parameters (default tolerance and sweeps, values sorted descending).
class JacobiParams {
 public:
  JacobiParams() {
    check(cusolverDnCreateGesvdjInfo(&info_), "cusolverDnCreateGesvdjInfo");
    check(cusolverDnXgesvdjSetSortEig(info_, 1), "cusolverDnXgesvdjSetSortEig");
  }
  ~JacobiParams() {
    if (info_ != nullptr) (void)cusolverDnDestroyGesvdjInfo(info_);
  }
  JacobiParams(const JacobiParams&) = delete;
  JacobiParams& operator=(const JacobiParams&) = delete;
  gesvdjInfo_t get() const { return info_; }

 private:
  gesvdjInfo_t info_ = nullptr;
};

struct Jacobi {
  const SolverHandle& h;
  MatrixBatch& a;
  MatrixBatch& s;
  MatrixBatch& u;
  MatrixBatch& v;
  cusolverEigMode_t job;
  const InfoArray& info;
  cudaStream_t stream;
};

template <class T, class R, class Size, class Run>
void run(const Jacobi& j, Size size, Run call) {
  const int m = static_cast<int>(j.a.rows()), n = static_cast<int>(j.a.cols());
  const int count = static_cast<int>(j.a.count());
  T* a = static_cast<T*>(j.a.data());
  R* s = static_cast<R*>(j.s.data());
  T* u = static_cast<T*>(j.u.data());
  T* v = static_cast<T*>(j.v.data());
  JacobiParams params;
  int lwork = 0;
  check(size(j.h.get(), j.job, m, n, a, m, s, u, m, v, n, &lwork, params.get(), count),
        "cusolverDn<t>gesvdjBatched_bufferSize");
  StreamScratch work(static_cast<size_t>(std::max(lwork, 1)) * sizeof(T), j.stream);
  check(call(j.h.get(), j.job, m, n, a, m, s, u, m, v, n, work.as<T>(), lwork, j.info.at(0),
             params.get(), count),
        "cusolverDn<t>gesvdjBatched");
}

}  // namespace

void gesvdj_batched(const SolverHandle& h, MatrixBatch& a, MatrixBatch& s, MatrixBatch& u,
                    MatrixBatch& v, bool vectors, const InfoArray& info, cudaStream_t stream) {
  const Jacobi j{h, a, s, u, v,
                 vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR, info, stream};
  switch (a.dtype()) {
    case KF_FLOAT32:
      return run<float, float>(j, cusolverDnSgesvdjBatched_bufferSize, cusolverDnSgesvdjBatched);
    case KF_FLOAT64:
      return run<double, double>(j, cusolverDnDgesvdjBatched_bufferSize,
                                 cusolverDnDgesvdjBatched);
    case KF_COMPLEX64:
      return run<cuComplex, float>(j, cusolverDnCgesvdjBatched_bufferSize,
                                   cusolverDnCgesvdjBatched);
    default:
      return run<cuDoubleComplex, double>(j, cusolverDnZgesvdjBatched_bufferSize,
                                          cusolverDnZgesvdjBatched);
  }
}

}  // namespace kf::cuda
