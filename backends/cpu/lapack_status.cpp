// LAPACK's info codes as kernforge errors (lapack_status.hpp).
#include "lapack_status.hpp"

#include <cstdint>
#include <limits>
#include <string>

#include "kernforge/plugin.hpp"

namespace kf::cpu {
namespace {

std::string failure_text(const LapackFailure& f) {
  const std::string k = std::to_string(f.info);
  switch (f.step) {
    case LapackStep::kLu:
      return "is singular (U[" + std::to_string(f.info - 1) + ", " + std::to_string(f.info - 1) +
             "] of its LU factorisation is exactly zero)";
    case LapackStep::kCholesky:
      return "is not positive-definite (its leading minor of order " + k + " is not)";
    case LapackStep::kEigh:
      return "did not converge: " + k + " off-diagonal elements of the tridiagonal form stayed "
             "nonzero (ill-conditioned input)";
    case LapackStep::kSvd:
      return "did not converge: the singular value iteration failed (ill-conditioned input)";
    case LapackStep::kEig:
      return "did not converge: the QR algorithm computed only the eigenvalues after index " + k;
    case LapackStep::kLeastSquares:
      return "did not converge: " + k + " off-diagonal elements of the SVD's bidiagonal form "
             "stayed nonzero";
  }
  return "failed with info " + k;
}

}  // namespace

void throw_lapack_failure(const char* op, const LapackFailure& f) {
  if (f.info < 0) {
    throw kf::plugin::KernelError(
        KF_INTERNAL, std::string(op) + ": LAPACK refused argument " + std::to_string(-f.info) +
                         " for the matrix at batch index " + std::to_string(f.batch) +
                         " (a bug of the cpu plugin; please report it)");
  }
  throw kf::plugin::KernelError(KF_INVALID_ARGUMENT, std::string(op) + ": the matrix at batch index " +
                                                         std::to_string(f.batch) + " " +
                                                         failure_text(f));
}

void throw_non_finite(const char* op, int64_t batch) {
  throw kf::plugin::KernelError(
      KF_INVALID_ARGUMENT, std::string(op) + ": the matrix at batch index " +
                               std::to_string(batch) +
                               " holds a NaN or an infinity; the decomposition needs finite "
                               "input");
}

void require_lapack_size(const char* op, int64_t n) {
  if (n > std::numeric_limits<int32_t>::max()) {
    throw kf::plugin::KernelError(
        KF_INVALID_ARGUMENT, std::string(op) + ": a matrix dimension of " + std::to_string(n) +
                                 " exceeds LAPACK's 32-bit sizes (at most 2147483647)");
  }
}

}  // namespace kf::cpu
